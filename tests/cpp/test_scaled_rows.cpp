// The vector rows of the scaled copies (cpu/levels/scaled_rows.h), at every
// instruction-set level of this machine, bit for bit against the element
// rule (core/numeric/scaled_convert.h) run by the scalar level: float32 inputs that
// cover rounding ties, every exponent with random mantissas, subnormals,
// ±inf and NaN, int8/uint8 inputs of every value; one scale for the row and
// one per element; streamed and not, dst shifted off alignment, lengths
// that leave heads and tails; one row and several that share their values
// (bytes between the rows left as they were); and the 3-channel pixel planes,
// streamed and not.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/numeric/scaled_convert.h"
#include "cpu/cpu_isa.h"
#include "cpu/levels/convert_rules.h"
#include "cpu/levels/scaled_rows.h"
#include "cpu/stream_tuning.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using namespace st::cpu;

namespace {

std::vector<float> float_inputs(std::mt19937_64& rng, int64_t n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (auto& x : v) {
    switch (rng() % 5) {
      case 0: x = static_cast<float>(static_cast<int64_t>(rng() % 1200) - 600) * 0.5f; break;  // ties
      case 1: {  // any exponent, any mantissa
        const uint32_t bits = static_cast<uint32_t>(rng());
        std::memcpy(&x, &bits, 4);
        break;
      }
      case 2: x = std::ldexp(static_cast<float>(rng() % 64), -static_cast<int>(rng() % 16)); break;  // small
      case 3: {
        const float specials[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(), -0.0f, 448.0f, 464.0f, 465.0f, 127.5f};
        x = specials[rng() % 8];
        break;
      }
      default: x = static_cast<float>(static_cast<int64_t>(rng() % 2001) - 1000) * 0.001953125f;
    }
  }
  return v;
}

// Rows of the pair against the rule: one row, and six rows that share
// their values, with dst rows 64-byte multiples apart (the widening rows
// walk them four at a time) and not.
template <typename D, typename S>
bool check_pair(ScalarType dt, ScalarType st_, std::mt19937_64& rng, int level) {
  const ScaledRowsFn rows_fn = scaled_rows_kernel(dt, st_);
  assert_non_null(rows_fn);  // every level has the pair (the portable one by the rule)
  constexpr int64_t n = 4099, kRows = 6, kSrcRow = n + 5;
  std::vector<S> src(static_cast<size_t>(kRows * kSrcRow));
  if constexpr (std::is_same<S, float>::value) {
    src = float_inputs(rng, kRows * kSrcRow);
  } else {
    for (auto& x : src) x = static_cast<S>(rng());
  }
  std::vector<float> scale(n), shift(n);
  for (int64_t i = 0; i < n; ++i) {
    const float scales[] = {1.0f, 0.5f, 2.0f, 1.0f / 255, -3.0f, 1e-3f, 1e30f};
    scale[static_cast<size_t>(i)] = scales[rng() % 7];
    shift[static_cast<size_t>(i)] = static_cast<float>(static_cast<int>(rng() % 9) - 4) * 0.5f;
  }
  constexpr int64_t kD = static_cast<int64_t>(sizeof(D));
  for (int64_t rows : {int64_t{1}, kRows})
    for (int step = 0; step < 2; ++step)
      for (int saturate = 0; saturate < 2; ++saturate)
        for (int nt = 0; nt < 2; ++nt)
          for (int64_t offset : {0, 1, 3})
            for (int64_t len : {n - 3, int64_t{31}, int64_t{1}})
              for (bool aligned_rows : {true, false}) {
                // Elements between dst rows: a multiple of 64 bytes, or one more than the row.
                const int64_t dst_row = aligned_rows ? (len + offset + 64) / 64 * 64 : len + 1;
                std::vector<unsigned char> got(static_cast<size_t>((rows * dst_row + 72) * kD), 0xA5),
                    want(got.size(), 0xA5);
                char* g = reinterpret_cast<char*>(got.data()) + offset * kD;
                char* w = reinterpret_cast<char*>(want.data()) + offset * kD;
                rows_fn(g, dst_row * kD, reinterpret_cast<const char*>(src.data()), kSrcRow * static_cast<int64_t>(sizeof(S)),
                        rows, len, scale.data(), shift.data(), step, saturate != 0, nt != 0);
                for (int64_t r = 0; r < rows; ++r)
                  for (int64_t i = 0; i < len; ++i) {
                    const D v = scaled_convert<D>(src[static_cast<size_t>(r * kSrcRow + i)],
                                                  scale[static_cast<size_t>(i * step)],
                                                  shift[static_cast<size_t>(i * step)], saturate != 0);
                    std::memcpy(w + (r * dst_row + i) * kD, &v, sizeof(D));
                  }
                if (got != want) {
                  print_error(
                      "level %d, %s <- %s, rows %lld (%s), step %d, saturate %d, nt %d, offset %lld, length %lld: "
                      "differs\n",
                      level, dtype_name(static_cast<int32_t>(dt)), dtype_name(static_cast<int32_t>(st_)),
                      static_cast<long long>(rows), aligned_rows ? "64-byte rows" : "unaligned rows", step, saturate,
                      nt, static_cast<long long>(offset), static_cast<long long>(len));
                  return false;
                }
              }
  return true;
}

// The vector rows saturate at these bits; the rule at LargestFinite.
void largest_finite_bits_are_the_rules(void**) {
  const uint32_t bits[] = {E4M3Bits::kLargestFinite, E5M2Bits::kLargestFinite};
  const double want[] = {LargestFinite<Float8_e4m3fn>::value, LargestFinite<Float8_e5m2>::value};
  for (int k = 0; k < 2; ++k) {
    float f;
    std::memcpy(&f, &bits[k], 4);
    assert_true(static_cast<double>(f) == want[k]);
  }
}

void rows_match_the_rule_at_every_level(void**) {
  std::mt19937_64 rng(test_seed("rows_match_the_rule_at_every_level"));
  bool ok = true;
  // Streamed narrowing rows prefetch their source on some CPUs only: on
  // every CPU here, so that the prefetch runs on each streamed row.
  const StreamTuning chosen = stream_tuning();
  set_stream_tuning({chosen.threshold_bytes, chosen.pages, 1024});
  for (int isa = 0; isa <= static_cast<int>(detected_cpu_isa()); ++isa) {
    set_cpu_isa_cap(static_cast<CpuIsa>(isa));
    assert_string_equal(active_scaled_rows().name, cpu_isa_name(static_cast<CpuIsa>(isa)));
    ok = check_pair<float, uint8_t>(ScalarType::Float32, ScalarType::UInt8, rng, isa) && ok;
    ok = check_pair<float, int8_t>(ScalarType::Float32, ScalarType::Int8, rng, isa) && ok;
    ok = check_pair<int8_t, float>(ScalarType::Int8, ScalarType::Float32, rng, isa) && ok;
    ok = check_pair<uint8_t, float>(ScalarType::UInt8, ScalarType::Float32, rng, isa) && ok;
    ok = check_pair<Float8_e4m3fn, float>(ScalarType::Float8_e4m3fn, ScalarType::Float32, rng, isa) && ok;
  }
  set_cpu_isa_cap(kHighestCpuIsa);
  set_stream_tuning(chosen);
  if (!ok) fail();
}

void pixel_planes_match_the_rule(void**) {
  std::mt19937_64 rng(test_seed("pixel_planes_match_the_rule"));
  for (int isa = 0; isa <= static_cast<int>(detected_cpu_isa()); ++isa) {
    set_cpu_isa_cap(static_cast<CpuIsa>(isa));
    const ScaledPlanesFn planes = scaled_u8_planes_kernel();
    assert_non_null(planes);
    for (int64_t n : {int64_t{1}, int64_t{15}, int64_t{16}, int64_t{1000}, int64_t{1024}}) {
      std::vector<uint8_t> px(static_cast<size_t>(3 * n));
      for (auto& p : px) p = static_cast<uint8_t>(rng());
      const float scale[3] = {1.0f / 255, -2.0f, 0.5f}, shift[3] = {-0.5f, 1.5f, 3.0f};
      // Planes that start on a 64-byte line, so that the streamed stores run where nt asks for them.
      std::vector<float> buffer(static_cast<size_t>(3 * n + 16));
      float* out = buffer.data() + (64 - reinterpret_cast<uintptr_t>(buffer.data()) % 64) % 64 / 4;
      for (int nt = 0; nt < 2; ++nt) {
        planes(reinterpret_cast<char*>(out), n * 4, px.data(), n, scale, shift, nt != 0);
        for (int c = 0; c < 3; ++c)
          for (int64_t i = 0; i < n; ++i) {
            const float want = scaled_convert<float>(px[static_cast<size_t>(3 * i + c)], scale[c], shift[c], false);
            assert_memory_equal(&out[c * n + i], &want, 4);
          }
      }
    }
  }
  set_cpu_isa_cap(kHighestCpuIsa);
}

}  // namespace

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(largest_finite_bits_are_the_rules),
      cmocka_unit_test(rows_match_the_rule_at_every_level),
      cmocka_unit_test(pixel_planes_match_the_rule),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
