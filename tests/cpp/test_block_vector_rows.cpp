// Every instruction-set level's block rows (cpu/levels/block_rows.h) on
// contiguous lines and on adjacent lines with blocks along an outer dim,
// the layouts the vector steps take (Note [Block rows in vector steps]:
// single blocks, runs of a vector's width of blocks, tiles of lines),
// against the independent reference of
// tests/block_formats/block_reference.c, block by block: every format,
// direction and element dtype, random blocks and the edges of the rules
// (zeros of both signs, subnormal sources, NaN and ±inf, amax exactly 2^m
// and one ulp below, the grid's midpoints, the largest values, global
// scales that do and do not keep NVFP4's thresholds float32), and random
// codes and scales for dequantizing (the NaN scales, 0x00, the extremes).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/numeric/block_format.h"
#include "core/numeric/convert.h"
#include "core/numeric/scalar_types.h"
#include "block_row_levels.h"
#include "cpu/levels/block_rows.h"
#include "test_seed.h"
#include "cmocka_cxx.h"

extern "C" {
#include "block_reference.h"
}

using namespace st;
using st::cpu::BlockRows;
using st::cpu::BlockRowsTable;

namespace {

// kBlockElementTypes' order is ref_float's: float32, float16, bfloat16, float64.
size_t item_of(int e) { return e == 0 ? 4 : e == 3 ? 8 : 2; }

// v as element dtype e's bits (rounded by the library's conversion: these
// are inputs only, whatever they round to).
uint64_t bits_of(int e, double v) {
  uint64_t b = 0;
  switch (e) {
    case 0: { const float f = convert<float>(v); std::memcpy(&b, &f, 4); break; }
    case 1: { const Half h = convert<Half>(v); std::memcpy(&b, &h, 2); break; }
    case 2: { const BFloat16 h = convert<BFloat16>(v); std::memcpy(&b, &h, 2); break; }
    default: std::memcpy(&b, &v, 8); break;
  }
  return b;
}

uint64_t sign_bit(int e) { return uint64_t(1) << (item_of(e) * 8 - 1); }

double ref_to_double(ref_value v) {
  const double m = std::ldexp(static_cast<double>(v.mant), v.exp);
  return v.negative ? -m : m;
}

// The largest element value of format f, and the value of code c (unpacked).
double element_value(int f, uint8_t c) { return ref_to_double(ref_element_value(static_cast<ref_format>(f), c)); }
int largest_code(int f) {
  switch (f) {
    case REF_MXFP8_E4M3: return 0x7E;
    case REF_MXFP8_E5M2: return 0x7B;
    case REF_MXFP6_E2M3: case REF_MXFP6_E3M2: return 0x1F;
    case REF_MXINT8: return 0x7F;
    default: return 0x7;
  }
}

// One block of n source elements (bits of dtype e) of kind `kind`.
void make_block(int f, int e, int kind, std::mt19937_64& rng, uint64_t* x, int n) {
  const int emax_shift = static_cast<int>(rng() % 24) - 12;  // the block's scale, roughly
  auto uniform = [&](int lo, int hi) { return lo + static_cast<int>(rng() % static_cast<uint64_t>(hi - lo + 1)); };
  auto signed_v = [&](double v) { return rng() % 2 ? -v : v; };
  for (int i = 0; i < n; ++i)
    x[i] = bits_of(e, signed_v(std::ldexp(static_cast<double>(rng() % 4096), emax_shift - uniform(0, 24))));
  const int pick = uniform(0, n - 1);
  switch (kind) {
    case 0:  // random, wide: any magnitude the dtype has
      for (int i = 0; i < n; ++i) {
        x[i] = rng();
        if (item_of(e) < 8) x[i] &= (uint64_t(1) << (item_of(e) * 8)) - 1;
        const uint64_t exp_mask = e == 0 ? 0x7F800000u : e == 1 ? 0x7C00u : e == 2 ? 0x7F80u : 0x7FF0000000000000u;
        if ((x[i] & exp_mask) == exp_mask) x[i] &= ~(exp_mask & (exp_mask >> 1));  // keep it finite
      }
      break;
    case 1:  // zeros of both signs
      for (int i = 0; i < n; ++i) x[i] = rng() % 2 ? sign_bit(e) : 0;
      break;
    case 2:  // subnormal sources (and zeros)
      for (int i = 0; i < n; ++i) {
        const int mant_bits = e == 0 ? 23 : e == 1 ? 10 : e == 2 ? 7 : 52;
        x[i] = (rng() & ((uint64_t(1) << mant_bits) - 1)) | (rng() % 2 ? sign_bit(e) : 0);
      }
      break;
    case 3:  // one NaN
      x[pick] = bits_of(e, std::nan("")) | (rng() % 2 ? sign_bit(e) : 0);
      break;
    case 4:  // one ±inf
      x[pick] = bits_of(e, signed_v(INFINITY));
      break;
    case 5:  // amax exactly 2^m, or one ulp below
    case 6: {
      x[pick] = bits_of(e, std::ldexp(1.0, emax_shift + 2));
      if (kind == 6) x[pick] -= 1;
      if (rng() % 2) x[pick] |= sign_bit(e);
      break;
    }
    case 7: {  // the grid's midpoints (ties) and its largest value, at scale 2^m (NVFP4: s = 2^m)
      const int top = largest_code(f);
      const double unit = std::ldexp(1.0, uniform(-6, 6));
      const double largest = element_value(f, static_cast<uint8_t>(top)) * unit;
      for (int i = 0; i < n; ++i) {
        const int c = uniform(0, top - 1);
        const double mid =
            0.5 * (element_value(f, static_cast<uint8_t>(c)) + element_value(f, static_cast<uint8_t>(c + 1)));
        x[i] = bits_of(e, signed_v(mid * unit));
      }
      x[pick] = bits_of(e, signed_v(largest));
      break;
    }
    default: {  // beyond the largest at the block's own scale (FLOOR saturates)
      const double top = element_value(f, static_cast<uint8_t>(largest_code(f)));
      for (int i = 0; i < n; ++i) x[i] = bits_of(e, signed_v(top * (1.0 + (rng() % 64) / 64.0)));
      break;
    }
  }
}
constexpr int kKinds = 9;

uint64_t load(const unsigned char* p, size_t item) {
  uint64_t b = 0;
  std::memcpy(&b, p, item);
  return b;
}

// A global scale's float32 bits: 0 (meaning 1), 1, a power of two, one
// with many significant bits (NVFP4's thresholds no longer float32), any
// positive float32 (subnormal and the largest too), or one of the
// extremes, where 6g leaves float32's normal range.
uint32_t global_scale(std::mt19937_64& rng) {
  const float choices[8] = {0.0f, 1.0f, 0.0625f, 0.0013717f, 0x1p-149f, 0x1p-103f, 0x1.fffffep127f, 0x1p101f};
  const int pick = static_cast<int>(rng() % 10);
  if (pick >= 8) return static_cast<uint32_t>(1 + rng() % 0x7F7FFFFFu);  // any positive finite float32
  uint32_t b;
  std::memcpy(&b, &choices[pick], 4);
  return b;
}
double g_of(uint32_t bits) {
  float g;
  std::memcpy(&g, &bits, 4);
  return g == 0.0f ? 1.0 : static_cast<double>(g);
}

// `rows` lines of n elements of dtype e, a random count of blocks of
// format f each (the last one partial now and then), with their values
// and scales: each line contiguous, one after another; or the lines
// adjacent, element i of every line before element i + 1 (blocks along an
// outer dim, the layout the tiles take), the values and the scales each
// either way.
struct Lines {
  int f, e, block, per_byte;
  bool across, values_across, scales_across;
  int64_t rows, blocks_per_row, n;
  size_t item;

  Lines(int format, int dtype, std::mt19937_64& rng) : f(format), e(dtype) {
    const BlockFormatInfo& info = block_format_info(static_cast<BlockFormat>(f));
    block = static_cast<int>(info.block);
    per_byte = static_cast<int>(info.per_byte);
    across = rng() % 2 == 0;
    values_across = across && rng() % 3 != 0;
    scales_across = across && rng() % 3 != 0;
    // Across lines: now and then more lines than a band takes at once (Note [Block rows in vector steps]).
    rows = across ? 1 + static_cast<int64_t>(rng() % (rng() % 8 == 0 ? 700 : 40)) : 1 + static_cast<int64_t>(rng() % 3);
    // Contiguous lines of up to 40 blocks: several runs of a level's vector width of them.
    blocks_per_row = 1 + static_cast<int64_t>(rng() % (across ? 3 : rng() % 2 ? 6 : 40));
    n = blocks_per_row * block - (rng() % 3 == 0 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(block)) : 0);
    if (per_byte == 2 && n % 2) ++n;
    item = item_of(e);
  }
  const char* format_name() const { return block_format_info(static_cast<BlockFormat>(f)).name; }
  const char* dtype() const { return dtype_name(static_cast<int32_t>(cpu::kBlockElementTypes[e])); }
  size_t element_bytes() const { return static_cast<size_t>(rows * n) * item; }
  size_t value_bytes() const { return static_cast<size_t>(rows * n / per_byte); }
  size_t scale_bytes() const { return static_cast<size_t>(rows * blocks_per_row); }
  int count(int64_t b) const { return static_cast<int>(std::min<int64_t>(block, n - b * block)); }
  // Where item i of `count` per line of line `row` lies, in items.
  int64_t at(bool adjacent, int64_t row, int64_t i, int64_t count) const {
    return adjacent ? i * rows + row : row * count + i;
  }
  size_t element_at(int64_t row, int64_t b, int i) const {
    return static_cast<size_t>(at(across, row, b * block + i, n)) * item;
  }
  size_t scale_at(int64_t row, int64_t b) const {
    return static_cast<size_t>(at(scales_across, row, b, blocks_per_row));
  }
  // Element i's code in block b of the row, unpacked.
  uint8_t code(const std::vector<unsigned char>& values, int64_t row, int64_t b, int i) const {
    const unsigned char byte =
        values[static_cast<size_t>(at(values_across, row, (b * block + i) / per_byte, n / per_byte))];
    return per_byte == 2 ? static_cast<uint8_t>(i % 2 ? byte >> 4 : byte & 0x0F) : byte;
  }
  BlockRows rows_of(std::vector<unsigned char>& elements, std::vector<unsigned char>& values,
                    std::vector<unsigned char>& scales, const blocks::BlockParams& params) const {
    const int64_t step = static_cast<int64_t>(item);
    const auto operand = [&](std::vector<unsigned char>& bytes, bool adjacent, int64_t count, int64_t size) {
      return adjacent ? cpu::RowOperand{reinterpret_cast<char*>(bytes.data()), size, rows * size}
                      : cpu::RowOperand{reinterpret_cast<char*>(bytes.data()), count * size, size};
    };
    return BlockRows{operand(elements, across, n, step), operand(values, values_across, n / per_byte, 1),
                     operand(scales, scales_across, blocks_per_row, 1), rows, n, 0, blocks_per_row, params};
  }
};

// Quantizes random lines at one level and compares every block with the
// reference; returns the blocks checked.
int check_quantize(const BlockRowsTable& level, int f, int e, std::mt19937_64& rng) {
  const Lines l(f, e, rng);
  std::vector<unsigned char> src(l.element_bytes());
  std::vector<unsigned char> values(l.value_bytes() + 1, 0xA5), scales(l.scale_bytes() + 1, 0xA5);
  std::vector<uint64_t> x(static_cast<size_t>(l.block));
  for (int64_t r = 0; r < l.rows; ++r) {
    for (int64_t b = 0; b < l.blocks_per_row; ++b) {
      make_block(f, e, static_cast<int>(rng() % kKinds), rng, x.data(), l.count(b));
      for (int i = 0; i < l.count(b); ++i)
        std::memcpy(&src[l.element_at(r, b, i)], &x[static_cast<size_t>(i)], l.item);
    }
  }
  const uint32_t gbits = global_scale(rng);
  const ref_rule rule = static_cast<ref_rule>(rng() % 2);
  level.quantize[f][e](l.rows_of(src, values, scales, blocks::BlockParams{static_cast<ScaleRule>(rule), g_of(gbits)}));
  int checked = 0;
  for (int64_t row = 0; row < l.rows; ++row) {
    for (int64_t b = 0; b < l.blocks_per_row; ++b) {
      const int count = l.count(b);
      for (int i = 0; i < count; ++i) x[static_cast<size_t>(i)] = load(&src[l.element_at(row, b, i)], l.item);
      uint8_t want_codes[32], want_scale;
      ref_quantize_block(static_cast<ref_format>(f), rule, gbits, static_cast<ref_float>(e), x.data(), count,
                         want_codes, &want_scale);
      bool same = scales[l.scale_at(row, b)] == want_scale;
      for (int i = 0; i < count; ++i) same = same && l.code(values, row, b, i) == want_codes[i];
      if (!same) {
        print_error("%s: %s quantize of %s%s, rule %d, g bits 0x%08x, block %lld of row %lld (%d elements) differs "
                    "from the reference (scale 0x%02x, want 0x%02x)\n",
                    level.name, l.format_name(), l.dtype(), l.across ? " across lines" : "", static_cast<int>(rule),
                    gbits, static_cast<long long>(b),
                    static_cast<long long>(row), count, scales[l.scale_at(row, b)], want_scale);
        fail();
      }
      ++checked;
    }
  }
  assert_int_equal(values.back(), 0xA5);
  assert_int_equal(scales.back(), 0xA5);
  return checked;
}

// A scale byte: mostly ordinary, now and then an edge of its type.
uint8_t scale_byte(int f, std::mt19937_64& rng) {
  if (f == REF_NVFP4) {
    const uint8_t edges[6] = {0x00, 0x80, 0x7F, 0xFF, 0x7E, 0x01};
    return rng() % 5 == 0 ? edges[rng() % 6] : static_cast<uint8_t>(rng());
  }
  const uint8_t edges[6] = {0x00, 0xFF, 0xFE, 0x01, 0x7F, 0x1A};
  return rng() % 5 == 0 ? edges[rng() % 6] : static_cast<uint8_t>(100 + rng() % 55);
}

int check_dequantize(const BlockRowsTable& level, int f, int e, std::mt19937_64& rng) {
  const Lines l(f, e, rng);
  std::vector<unsigned char> dst(l.element_bytes() + 8, 0xA5), values(l.value_bytes()), scales(l.scale_bytes());
  for (auto& v : values) v = static_cast<unsigned char>(rng());
  for (auto& s : scales) s = scale_byte(f, rng);
  const uint32_t gbits = global_scale(rng);
  level.dequantize[f][e](l.rows_of(dst, values, scales, blocks::BlockParams{ScaleRule::Floor, g_of(gbits)}));
  int checked = 0;
  for (int64_t row = 0; row < l.rows; ++row) {
    for (int64_t b = 0; b < l.blocks_per_row; ++b) {
      const int count = l.count(b);
      uint8_t codes[32];
      for (int i = 0; i < count; ++i) codes[i] = l.code(values, row, b, i);
      uint64_t want[32];
      const uint8_t scale = scales[l.scale_at(row, b)];
      ref_dequantize_block(static_cast<ref_format>(f), gbits, static_cast<ref_float>(e), codes, count, scale, want);
      for (int i = 0; i < count; ++i) {
        const uint64_t got = load(&dst[l.element_at(row, b, i)], l.item);
        const ref_float t = static_cast<ref_float>(e);
        if (ref_is_nan(t, want[i]) ? !ref_is_nan(t, got) : got != want[i]) {
          print_error("%s: %s dequantize to %s%s, g bits 0x%08x, scale 0x%02x, code 0x%02x (element %d of block %lld "
                      "of row %lld): 0x%llx, want 0x%llx\n",
                      level.name, l.format_name(), l.dtype(), l.across ? " across lines" : "", gbits, scale, codes[i],
                      i, static_cast<long long>(b), static_cast<long long>(row), static_cast<unsigned long long>(got),
                      static_cast<unsigned long long>(want[i]));
          fail();
        }
      }
      ++checked;
    }
  }
  for (size_t i = dst.size() - 8; i < dst.size(); ++i) assert_int_equal(dst[i], 0xA5);
  return checked;
}

void every_level_matches_the_reference(void**) {
  std::mt19937_64 rng(test_seed("every_level_matches_the_reference"));
  for (const BlockRowsTable* level : block_row_levels()) {
    int quantized = 0, dequantized = 0;
    for (int f = 0; f < kNumBlockFormats; ++f) {
      for (int e = 0; e < cpu::kNumBlockElementTypes; ++e) {
        for (int k = 0; k < 60; ++k) {
          quantized += check_quantize(*level, f, e, rng);
          dequantized += check_dequantize(*level, f, e, rng);
        }
      }
    }
    std::printf("  %s: %d blocks quantized, %d dequantized, each as the reference\n", level->name, quantized,
                dequantized);
    assert_true(quantized >= kNumBlockFormats * cpu::kNumBlockElementTypes * 60);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_level_matches_the_reference),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
