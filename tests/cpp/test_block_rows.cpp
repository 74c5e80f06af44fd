// Every instruction-set level's block rows (cpu/levels/block_rows.h) called
// directly, for every format, direction and element dtype: rows of random
// lengths (partial final blocks), strided elements and values, row steps,
// block ranges that start and end inside a row, each compared byte for
// byte, margins included, with the rule of core/numeric/block_scaling.h
// applied block by block here. A level that vectorizes its rows later
// must keep these bits.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/numeric/block_scaling.h"
#include "block_row_levels.h"
#include "cpu/levels/block_rows.h"
#include "test_seed.h"
#include "cmocka_cxx.h"

using namespace st;
using st::cpu::BlockRows;
using st::cpu::BlockRowsTable;
using Bytes = std::vector<unsigned char>;

namespace {

// The rule, block by block: what a call of `r` must write.
template <BlockFormat F, typename T>
void by_rule(bool quantize, const BlockRows& r) {
  constexpr int64_t kBlock = BlockTraits<F>::kBlock;
  for (int64_t row = 0; row < r.rows; ++row) {
    for (int64_t b = r.first_block; b < r.last_block; ++b) {
      char* e = r.elements.ptr + row * r.elements.row + b * kBlock * r.elements.step;
      char* v = r.values.ptr + row * r.values.row + b * BlockTraits<F>::kValuesPerBlock * r.values.step;
      char* s = r.scales.ptr + row * r.scales.row + b * r.scales.step;
      const int64_t count = r.n - b * kBlock < kBlock ? r.n - b * kBlock : kBlock;
      if (quantize) {
        blocks::quantize_block<F, T>(e, r.elements.step, count, v, r.values.step, s, r.params);
      } else {
        blocks::dequantize_block<F, T>(e, r.elements.step, count, v, r.values.step, s, r.params);
      }
    }
  }
}

template <BlockFormat F>
void by_rule_for(ScalarType t, bool quantize, const BlockRows& r) {
  switch (t) {
    case ScalarType::Float32: return by_rule<F, float>(quantize, r);
    case ScalarType::Float16: return by_rule<F, Half>(quantize, r);
    case ScalarType::BFloat16: return by_rule<F, BFloat16>(quantize, r);
    default: return by_rule<F, double>(quantize, r);
  }
}

void by_rule_any(BlockFormat f, ScalarType t, bool quantize, const BlockRows& r) {
  switch (f) {
    case BlockFormat::MxFp8E4M3: return by_rule_for<BlockFormat::MxFp8E4M3>(t, quantize, r);
    case BlockFormat::MxFp8E5M2: return by_rule_for<BlockFormat::MxFp8E5M2>(t, quantize, r);
    case BlockFormat::MxFp6E2M3: return by_rule_for<BlockFormat::MxFp6E2M3>(t, quantize, r);
    case BlockFormat::MxFp6E3M2: return by_rule_for<BlockFormat::MxFp6E3M2>(t, quantize, r);
    case BlockFormat::MxFp4E2M1: return by_rule_for<BlockFormat::MxFp4E2M1>(t, quantize, r);
    case BlockFormat::MxInt8: return by_rule_for<BlockFormat::MxInt8>(t, quantize, r);
    case BlockFormat::NvFp4: return by_rule_for<BlockFormat::NvFp4>(t, quantize, r);
  }
}

// Random bytes, but for a source: finite values of many magnitudes, now and then NaN or ±inf.
void fill_elements(Bytes& b, ScalarType t, std::mt19937_64& rng, bool values) {
  for (auto& x : b) x = static_cast<unsigned char>(rng());
  if (!values) return;
  const size_t item = itemsize(t);
  const int scale = static_cast<int>(rng() % 41) - 20;
  for (size_t at = 0; at + item <= b.size(); at += item) {
    double v = std::ldexp(static_cast<double>(static_cast<int64_t>(rng() % 4001) - 2000), scale - 10);
    if (rng() % 200 == 0) v = rng() % 2 ? std::numeric_limits<double>::infinity() : std::nan("");
    switch (t) {
      case ScalarType::Float32: { const float f = convert<float>(v); std::memcpy(&b[at], &f, 4); break; }
      case ScalarType::Float16: { const Half h = convert<Half>(v); std::memcpy(&b[at], &h, 2); break; }
      case ScalarType::BFloat16: { const BFloat16 h = convert<BFloat16>(v); std::memcpy(&b[at], &h, 2); break; }
      default: std::memcpy(&b[at], &v, 8); break;
    }
  }
}

void every_level_writes_the_rule(void**) {
  std::mt19937_64 rng(test_seed("every_level_writes_the_rule"));
  int checked = 0;
  for (const BlockRowsTable* level : block_row_levels()) {
    for (int f = 0; f < kNumBlockFormats; ++f) {
      const BlockFormat format = static_cast<BlockFormat>(f);
      const BlockFormatInfo& info = block_format_info(format);
      for (int e = 0; e < cpu::kNumBlockElementTypes; ++e) {
        const ScalarType t = cpu::kBlockElementTypes[e];
        for (int quantize = 0; quantize < 2; ++quantize) {
          for (int k = 0; k < 20; ++k) {
            const int64_t rows = 1 + static_cast<int64_t>(rng() % 3);
            int64_t n = 1 + static_cast<int64_t>(rng() % 150);
            if (info.per_byte == 2 && n % 2) ++n;
            const int64_t blocks_per_row = (n + info.block - 1) / info.block;
            const int64_t es = static_cast<int64_t>(itemsize(t)) * (1 + static_cast<int64_t>(rng() % 2));
            const int64_t vs = 1 + static_cast<int64_t>(rng() % 2), ss = 1 + static_cast<int64_t>(rng() % 3);
            const int64_t erow = n * es + 8, vrow = (n / info.per_byte) * vs + 5, srow = blocks_per_row * ss + 3;
            // A margin of 16 bytes before each operand, and after.
            Bytes el(static_cast<size_t>(rows * erow + 32)), va(static_cast<size_t>(rows * vrow + 32)),
                sc(static_cast<size_t>(rows * srow + 32));
            fill_elements(el, t, rng, quantize == 1);
            fill_elements(va, t, rng, false);
            fill_elements(sc, t, rng, false);
            Bytes el2 = el, va2 = va, sc2 = sc;
            const int64_t first = static_cast<int64_t>(rng() % static_cast<uint64_t>(blocks_per_row));
            const int64_t last =
                first + 1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(blocks_per_row - first));
            const blocks::BlockParams params{static_cast<ScaleRule>(rng() % 2), rng() % 2 ? 1.0 : 0.0625};
            const auto rows_of = [&](Bytes& a, Bytes& b, Bytes& c) {
              return BlockRows{{reinterpret_cast<char*>(&a[16]), erow, es},
                               {reinterpret_cast<char*>(&b[16]), vrow, vs},
                               {reinterpret_cast<char*>(&c[16]), srow, ss},
                               rows,
                               n,
                               first,
                               last,
                               params};
            };
            const BlockRows got = rows_of(el, va, sc), want = rows_of(el2, va2, sc2);
            (quantize ? level->quantize : level->dequantize)[f][e](got);
            by_rule_any(format, t, quantize == 1, want);
            if (el != el2 || va != va2 || sc != sc2) {
              print_error("%s: %s %s of %s, %lld rows of %lld, blocks %lld to %lld: differs from the rule\n",
                          level->name, info.name, quantize ? "quantize" : "dequantize",
                          dtype_name(static_cast<int32_t>(t)), static_cast<long long>(rows), static_cast<long long>(n),
                          static_cast<long long>(first), static_cast<long long>(last));
              fail();
            }
            ++checked;
          }
        }
      }
    }
  }
  assert_true(checked >= kNumBlockFormats * cpu::kNumBlockElementTypes * 2 * 20);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_level_writes_the_rule),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
