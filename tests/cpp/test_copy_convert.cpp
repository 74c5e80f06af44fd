// The converting copies of the hot pairs. First the scalar rules
// (convert_rules.h) against values written by hand and against an
// independent nearest-even search over the target's encodings; then every
// vector row kernel, at every instruction-set level of this machine, bit
// for bit against the scalar rules on all float16/bfloat16 inputs and on
// float32 patterns that cover every exponent with rounding ties, NaN
// payloads, subnormals and overflow; then whole copies on random
// geometries and the NHWC uint8 -> NCHW float32 layout, on 1 and 2 threads.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "convert_pairs.h"
#include "core/numeric/convert.h"
#include "core/numeric/scalar_types.h"
#include "core/runtime/thread_count.h"
#include "cpu/copy_convert.h"
#include "cpu/cpu_isa.h"
#include "cpu/levels/convert_kernel_table.h"
#include "cpu/levels/convert_rules.h"
#include "random_copy_geometry.h"
#include "cmocka_cxx.h"

using st::ScalarType;
using st::cpu::ConvertPair;
using st::Geometry;
using st::cpu::CpuIsa;

namespace {

uint32_t fbits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}
float bitsf(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
uint64_t dbits(double d) {
  uint64_t x;
  std::memcpy(&x, &d, 8);
  return x;
}

// ---------------------------------------------------------------------------
// Independent references: decode an encoding to its exact value, and find
// the nearest encoding by search.

// The value of a float16 / bfloat16 pattern (NaN for NaNs).
double decode_half(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0x1f) return m ? NAN : sign * INFINITY;
  if (e == 0) return sign * std::ldexp(m, -24);
  return sign * std::ldexp(1024 + m, e - 25);
}
double decode_bf16(uint16_t h) { return static_cast<double>(bitsf(static_cast<uint32_t>(h) << 16)); }

// Nearest encoding to v (finite, not NaN), ties to the even pattern, with
// the overflow rule "past the midpoint between the largest finite value and
// the next power step rounds to inf": treat inf as that next step.
uint16_t nearest(double v, double (*decode)(uint16_t), uint16_t inf_pattern, double inf_step) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  const double a = std::fabs(v);
  auto value = [&](uint16_t p) { return p == inf_pattern ? inf_step : decode(p); };
  // Largest positive pattern p <= inf_pattern with value(p) <= a.
  uint16_t lo = 0, hi = inf_pattern;
  if (a >= inf_step) return static_cast<uint16_t>(sign | inf_pattern);
  while (lo < hi) {
    const uint16_t mid = static_cast<uint16_t>((lo + hi + 1) / 2);
    if (value(mid) <= a) lo = mid;
    else hi = static_cast<uint16_t>(mid - 1);
  }
  if (value(lo) == a) return static_cast<uint16_t>(sign | lo);
  const double below = a - value(lo), above = value(static_cast<uint16_t>(lo + 1)) - a;
  uint16_t r = lo;
  if (above < below || (above == below && (lo & 1))) r = static_cast<uint16_t>(lo + 1);
  return static_cast<uint16_t>(sign | r);
}

// The NaN rules of core/numeric/scalar_types.h (and convert_rules.h).
uint16_t expected_to_half(float f) {
  const uint32_t x = fbits(f);
  if (std::isnan(f)) return static_cast<uint16_t>(((x >> 16) & 0x8000) | 0x7e00 | ((x >> 13) & 0x3ff));
  return nearest(f, decode_half, 0x7c00, 65536.0);
}
uint16_t expected_to_bf16(float f) {
  const uint32_t x = fbits(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  return nearest(f, decode_bf16, 0x7f80, std::ldexp(1.0, 128));
}
// Widening is exact; a NaN keeps its sign and payload, signalling or not.
uint32_t expected_from_half(uint16_t h) {
  if (((h >> 10) & 0x1f) == 0x1f && (h & 0x3ff)) {
    return (static_cast<uint32_t>(h & 0x8000) << 16) | 0x7f800000 | (static_cast<uint32_t>(h & 0x3ff) << 13);
  }
  return fbits(static_cast<float>(decode_half(h)));
}
uint32_t expected_from_bf16(uint16_t h) { return static_cast<uint32_t>(h) << 16; }

// Float32 patterns: every sign/exponent/top-mantissa prefix with low bits
// that make exact, tie, just-below/above-tie and random cases for both the
// 13 bits float16 drops and the 16 bits bfloat16 drops.
std::vector<uint32_t> float_patterns() {
  std::vector<uint32_t> v;
  std::mt19937 rng(7);
  const uint32_t lows[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff, 0x7fff, 0x8000, 0x8001, 0xffff};
  for (uint32_t prefix = 0; prefix < (1u << 16); ++prefix) {
    const uint32_t base = prefix << 16;
    for (uint32_t low : lows) v.push_back(base | low);
    // Float16 ties sit at bit 12 for every value of bits 13-15 too.
    v.push_back(base | ((rng() & 7) << 13) | 0x1000);
    v.push_back(base | (rng() & 0xffff));
  }
  return v;
}

// float32 patterns around every float8 rounding boundary of both formats:
// for each pair of neighbouring magnitudes (0 to the largest, and the
// largest to where it overflows), the 129 float32 patterns centred on
// their midpoint (the ties, the smallest subnormal's half, 464 and 61440
// among them) and on the float8 value itself, both signs.
std::vector<uint32_t> float8_boundary_patterns() {
  std::vector<uint32_t> v;
  auto around = [&](float centre) {
    const uint32_t c = fbits(centre);
    for (uint32_t k = 0; k <= 128; ++k) {
      const uint32_t x = c + k - 64;
      if (c < 64 && k < 64) continue;  // below zero: the other sign covers it
      v.push_back(x);
      v.push_back(x | 0x80000000u);
    }
  };
  const float tops[2][2] = {{448.0f, 480.0f}, {57344.0f, 65536.0f}};  // largest, and one ulp past it
  for (int format = 0; format < 2; ++format) {
    for (int b = 0; b < 0x7f; ++b) {
      const uint8_t bits = static_cast<uint8_t>(b);
      float lo, hi;
      if (format == 0) {
        lo = st::float8_to_float(st::Float8_e4m3fn::from_bits(bits));
        hi = b == 0x7e ? tops[0][1] : st::float8_to_float(st::Float8_e4m3fn::from_bits(static_cast<uint8_t>(b + 1)));
      } else {
        if (b >= 0x7c) break;
        lo = st::float8_to_float(st::Float8_e5m2::from_bits(bits));
        hi = b == 0x7b ? tops[1][1] : st::float8_to_float(st::Float8_e5m2::from_bits(static_cast<uint8_t>(b + 1)));
      }
      around(lo);
      around((lo + hi) / 2);  // exact: both have few significant bits
    }
  }
  return v;
}

// Unsigned integers at every bit length (random below the top bit), the
// float32 and float64 rounding ties and their neighbours, and the ends.
std::vector<uint64_t> unsigned_patterns() {
  std::vector<uint64_t> v;
  std::mt19937_64 rng(11);
  for (int bits = 1; bits <= 64; ++bits) {
    for (int k = 0; k < 2000; ++k) {
      const uint64_t top = uint64_t{1} << (bits - 1);
      v.push_back(top | (rng() & (top - 1)));
    }
  }
  for (int bits = 25; bits <= 64; ++bits) {
    const uint64_t top = uint64_t{1} << (bits - 1);
    for (int kept : {24, 53}) {
      if (bits <= kept) continue;
      const uint64_t half = uint64_t{1} << (bits - kept - 1);  // half the ulp at this length
      for (uint64_t odd : {uint64_t{0}, uint64_t{1}}) {
        const uint64_t tie = top + (odd << (bits - kept)) + half;
        for (uint64_t d : {uint64_t{0}, uint64_t{1}, uint64_t{2}}) {
          v.push_back(tie + d);
          v.push_back(tie - d);
        }
      }
    }
  }
  const uint64_t ends[] = {0, 1, UINT32_MAX, uint64_t{UINT32_MAX} + 1, UINT64_MAX, UINT64_MAX - 1,
                           uint64_t{1} << 63, (uint64_t{1} << 63) + 1, (uint64_t{1} << 53) + 1, (uint64_t{1} << 24) + 1};
  for (uint64_t e : ends) v.push_back(e);
  return v;
}

// float32 patterns at the bounds of the saturating conversions to int32
// and uint8: 0, 1, 255, 256 and ±2^31, each with its 64 neighbours on
// both sides, both signs.
std::vector<uint32_t> integer_boundary_patterns() {
  std::vector<uint32_t> v;
  for (float centre : {0.0f, 1.0f, 255.0f, 256.0f, 2147483648.0f}) {
    for (uint32_t sign : {0u, 0x80000000u}) {
      const uint32_t c = fbits(centre);
      for (uint32_t k = 0; k <= 128; ++k) {
        if (c + k < 64) continue;
        v.push_back(sign | (c + k - 64));
      }
    }
  }
  return v;
}

// float64 patterns for the rounding to float32: every sign, exponent and
// top four mantissa bits, each with low bits around the float32 rounding
// point (29 bits dropped: the tie is bit 28), odd and even kept parts, and
// random ones; so every float32 exponent, its subnormals and overflow, the
// ties and NaN payloads are met.
std::vector<uint64_t> double_patterns() {
  std::vector<uint64_t> v;
  std::mt19937_64 rng(13);
  const uint64_t tie = uint64_t{1} << 28, kept = uint64_t{1} << 29;
  const uint64_t lows[] = {0, 1, tie - 1, tie, tie + 1, kept + tie - 1, kept + tie, kept + tie + 1, kept - 1};
  for (uint64_t prefix = 0; prefix < (uint64_t{1} << 16); ++prefix) {
    const uint64_t base = prefix << 48;
    for (uint64_t low : lows) v.push_back(base | low);
    v.push_back(base | (rng() & ((uint64_t{1} << 48) - 1)));
  }
  return v;
}

// ---------------------------------------------------------------------------
// The scalar rules.

void scalar_rules_match_hand_values(void**) {
  using st::cpu::float_to_bfloat16_bits;
  using st::cpu::float_to_half_bits;
  assert_int_equal(float_to_half_bits(1.0f), 0x3c00);
  assert_int_equal(float_to_half_bits(-2.0f), 0xc000);
  assert_int_equal(float_to_half_bits(65504.0f), 0x7bff);
  assert_int_equal(float_to_half_bits(65519.996f), 0x7bff);
  assert_int_equal(float_to_half_bits(65520.0f), 0x7c00);  // the tie rounds to even: inf
  assert_int_equal(float_to_half_bits(-1e10f), 0xfc00);
  assert_int_equal(float_to_half_bits(bitsf(0x7f800000)), 0x7c00);
  assert_int_equal(float_to_half_bits(-0.0f), 0x8000);
  assert_int_equal(float_to_half_bits(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  assert_int_equal(float_to_half_bits(std::ldexp(1.0f, -25)), 0x0000);  // tie to even: 0
  assert_int_equal(float_to_half_bits(std::ldexp(1.5f, -25)), 0x0001);
  assert_int_equal(float_to_half_bits(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 units: tie to even 2
  assert_int_equal(float_to_half_bits(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  assert_int_equal(float_to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);   // tie, even below
  assert_int_equal(float_to_half_bits(1.0f + std::ldexp(3.0f, -11)), 0x3c02);   // tie, even above
  assert_int_equal(float_to_half_bits(bitsf(0x7f800001)), 0x7e00);  // signalling NaN: quieted
  assert_int_equal(float_to_half_bits(bitsf(0xffa02000)), 0xff01);  // sign and top payload kept
  assert_int_equal(float_to_half_bits(bitsf(0x00000001)), 0x0000);  // float32 subnormal
  assert_int_equal(float_to_bfloat16_bits(1.0f), 0x3f80);
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x3f808000)), 0x3f80);  // tie, even below
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x3f818000)), 0x3f82);  // tie, even above
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x3f808001)), 0x3f81);
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x7f7fffff)), 0x7f80);  // max float: rounds to inf
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x00008000)), 0x0000);  // subnormal tie: even
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x00018000)), 0x0002);  // subnormal tie: even
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x807fffff)), 0x8080);  // subnormal rounds to normal
  assert_int_equal(float_to_bfloat16_bits(bitsf(0x7f800001)), 0x7fc0);
  assert_int_equal(float_to_bfloat16_bits(bitsf(0xffbfffff)), 0xffff);
  assert_int_equal(fbits(st::cpu::half_bits_to_float(0x0001)), 0x33800000u);
  assert_int_equal(fbits(st::cpu::half_bits_to_float(0x83ff)), 0xb87fc000u);
  assert_int_equal(fbits(st::cpu::half_bits_to_float(0x7c01)), 0x7f802000u);  // stays signalling
  assert_int_equal(fbits(st::cpu::half_bits_to_float(0xfe01)), 0xffc02000u);
  assert_int_equal(fbits(st::cpu::half_bits_to_float(0xfc00)), 0xff800000u);
  assert_int_equal(fbits(st::cpu::bfloat16_bits_to_float(0x7f81)), 0x7f810000u);
  assert_int_equal(fbits(st::cpu::bfloat16_bits_to_float(0x0001)), 0x00010000u);
  assert_true(dbits(st::cpu::int64_to_double(INT64_MAX)) == dbits(9223372036854775808.0));
  assert_true(dbits(st::cpu::int64_to_double((int64_t{1} << 53) + 1)) == dbits(9007199254740992.0));
  assert_true(dbits(st::cpu::int64_to_double((int64_t{1} << 53) + 3)) == dbits(9007199254740996.0));
  assert_true(dbits(st::cpu::int64_to_double(-(int64_t{1} << 53) - 1)) == dbits(-9007199254740992.0));
}

void float_to_half_and_bfloat16_are_nearest_even(void**) {
  int bad = 0;
  for (uint32_t x : float_patterns()) {
    const float f = bitsf(x);
    const uint16_t h = st::cpu::float_to_half_bits(f), eh = expected_to_half(f);
    const uint16_t b = st::cpu::float_to_bfloat16_bits(f), eb = expected_to_bf16(f);
    if ((h != eh || b != eb) && ++bad <= 5) {
      std::printf("  %08x: half %04x want %04x, bfloat16 %04x want %04x\n", x, h, eh, b, eb);
    }
  }
  assert_int_equal(bad, 0);
}

void half_and_bfloat16_to_float_all_inputs(void**) {
  int bad = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t p = static_cast<uint16_t>(h);
    if (fbits(st::cpu::half_bits_to_float(p)) != expected_from_half(p) && ++bad <= 5) std::printf("  half %04x\n", h);
    if (fbits(st::cpu::bfloat16_bits_to_float(p)) != expected_from_bf16(p) && ++bad <= 5) std::printf("  bf16 %04x\n", h);
  }
  assert_int_equal(bad, 0);
}

void int64_to_double_is_nearest_even(void**) {
  std::mt19937_64 rng(11);
  int bad = 0;
  for (int k = 0; k < 200000; ++k) {
    // Random magnitudes at every bit length, so ties beyond 2^53 happen.
    const int bits = static_cast<int>(rng() % 64);
    int64_t v = static_cast<int64_t>(rng() >> (63 - bits));
    if (rng() & 1) v = -v;
    // long double holds every int64 exactly; one rounding to double.
    const double want = static_cast<double>(static_cast<long double>(v));
    if (dbits(st::cpu::int64_to_double(v)) != dbits(want) && ++bad <= 5) std::printf("  %" PRId64 "\n", v);
  }
  assert_int_equal(bad, 0);
}

// The local copies of the rules are core's rules (core/numeric/scalar_types.h,
// core/numeric/convert.h), bit for bit.
void scalar_rules_are_cores(void**) {
  int bad = 0;
  for (uint32_t h = 0; h < 65536; ++h) {
    const uint16_t p = static_cast<uint16_t>(h);
    bad += fbits(st::cpu::half_bits_to_float(p)) != fbits(st::half_to_float(st::Half::from_bits(p)));
    bad += fbits(st::cpu::bfloat16_bits_to_float(p)) != fbits(st::bfloat16_to_float(st::BFloat16::from_bits(p)));
  }
  for (uint32_t x : float_patterns()) {
    bad += st::cpu::float_to_half_bits(bitsf(x)) != st::convert<st::Half>(bitsf(x)).bits;
    bad += st::cpu::float_to_bfloat16_bits(bitsf(x)) != st::convert<st::BFloat16>(bitsf(x)).bits;
  }
  std::mt19937_64 rng(3);
  for (int k = 0; k < 100000; ++k) {
    const int64_t v = static_cast<int64_t>(rng() >> (rng() % 64)) * (rng() & 1 ? 1 : -1);
    bad += dbits(st::cpu::int64_to_double(v)) != dbits(st::convert<double>(v));
  }
  for (int v = 0; v < 256; ++v) {
    bad += fbits(static_cast<float>(v)) != fbits(st::convert<float>(static_cast<uint8_t>(v)));
  }
  assert_int_equal(bad, 0);
}

// ---------------------------------------------------------------------------
// The vector row kernels against the scalar rules.

using test_support::ConvertPairCase;
using test_support::kConvertPairs;

// The reference of every test below: a pair's scalar rule, element by
// element. For sources of one and two bytes the rule's result for every
// source pattern is worked out once and looked up: the same values,
// without a call per element of the large cases.
class ReferenceConverter {
 public:
  explicit ReferenceConverter(const ConvertPairCase& info)
      : info_(info),
        de_(static_cast<int64_t>(st::itemsize(info.dst))),
        se_(static_cast<int64_t>(st::itemsize(info.src))) {
    if (se_ > 2) return;
    table_.resize(size_t{1} << (8 * se_));
    for (uint32_t v = 0; v < table_.size(); ++v) {
      unsigned char src[2];
      const uint16_t pattern = static_cast<uint16_t>(v);
      if (se_ == 1) src[0] = static_cast<unsigned char>(pattern);
      else std::memcpy(src, &pattern, 2);
      info.one(reinterpret_cast<char*>(&table_[v]), reinterpret_cast<const char*>(src));
    }
  }

  // n elements, dst and src steps in bytes.
  void run(char* dst, const char* src, int64_t n, int64_t dstep, int64_t sstep) const {
    if (table_.empty()) {
      for (int64_t i = 0; i < n; ++i) info_.one(dst + i * dstep, src + i * sstep);
      return;
    }
    const bool wide = se_ == 2;
    switch (de_) {
      case 1: return wide ? lookup<1, uint16_t>(dst, src, n, dstep, sstep) : lookup<1, uint8_t>(dst, src, n, dstep, sstep);
      case 2: return wide ? lookup<2, uint16_t>(dst, src, n, dstep, sstep) : lookup<2, uint8_t>(dst, src, n, dstep, sstep);
      case 4: return wide ? lookup<4, uint16_t>(dst, src, n, dstep, sstep) : lookup<4, uint8_t>(dst, src, n, dstep, sstep);
      default: return wide ? lookup<8, uint16_t>(dst, src, n, dstep, sstep) : lookup<8, uint8_t>(dst, src, n, dstep, sstep);
    }
  }

  // Every element of a copy's geometry (operand 0 dst, 1 src).
  void run(const Geometry& g) const {
    test_support::for_each_dim0_run(g, [this](char* dst, const char* src, int64_t n, int64_t dstep, int64_t sstep) {
      run(dst, src, n, dstep, sstep);
    });
  }

 private:
  template <int DE, typename Source>
  void lookup(char* dst, const char* src, int64_t n, int64_t dstep, int64_t sstep) const {
    for (int64_t i = 0; i < n; ++i) {
      Source v;
      std::memcpy(&v, src + i * sstep, sizeof v);
      std::memcpy(dst + i * dstep, &table_[v], DE);
    }
  }

  const ConvertPairCase& info_;
  int64_t de_, se_;
  std::vector<uint64_t> table_;  // the rule's result for each source pattern, in its first de_ bytes
};

// Inputs for a pair: every pattern for 1- and 2-byte sources, the float32
// patterns, and int64 values at every bit length.
std::vector<unsigned char> inputs_for(ConvertPair p, int64_t* count) {
  std::vector<unsigned char> buf;
  auto push = [&](const void* v, size_t n) {
    buf.insert(buf.end(), static_cast<const unsigned char*>(v), static_cast<const unsigned char*>(v) + n);
  };
  switch (p) {
    case ConvertPair::Float32ToFloat16:
    case ConvertPair::Float32ToBFloat16:
      for (uint32_t x : float_patterns()) push(&x, 4);
      break;
    case ConvertPair::Int64ToFloat64: {
      std::mt19937_64 rng(5);
      for (int k = 0; k < 100000; ++k) {
        int64_t v = static_cast<int64_t>(rng() >> (rng() % 64));
        if (rng() & 1) v = -v;
        push(&v, 8);
      }
      const int64_t ends[] = {INT64_MIN, INT64_MAX, 0, -1, 1, (int64_t{1} << 53) + 1, (int64_t{1} << 62) + 511};
      for (int64_t v : ends) push(&v, 8);
      break;
    }
    case ConvertPair::UInt8ToFloat32:
    case ConvertPair::Int8ToFloat32:
      for (int v = 0; v < 256; ++v) buf.push_back(static_cast<unsigned char>(v));
      break;
    case ConvertPair::Float16ToFloat32:
    case ConvertPair::BFloat16ToFloat32:
    case ConvertPair::Float16ToFloat8E4M3FN:
    case ConvertPair::Float16ToFloat8E5M2:
    case ConvertPair::BFloat16ToFloat8E4M3FN:
    case ConvertPair::BFloat16ToFloat8E5M2:
    case ConvertPair::UInt16ToFloat32:
    case ConvertPair::UInt16ToFloat64:
    case ConvertPair::Int16ToFloat32:
      for (uint32_t v = 0; v < 65536; ++v) {
        const uint16_t h = static_cast<uint16_t>(v);
        push(&h, 2);
      }
      break;
    case ConvertPair::Float32ToFloat8E4M3FN:
    case ConvertPair::Float32ToFloat8E5M2:
    case ConvertPair::Float32ToInt32:
    case ConvertPair::Float32ToUInt8:
    case ConvertPair::Float32ToFloat64:
      for (uint32_t x : float_patterns()) push(&x, 4);
      for (uint32_t x : float8_boundary_patterns()) push(&x, 4);
      for (uint32_t x : integer_boundary_patterns()) push(&x, 4);
      break;
    case ConvertPair::Float8E4M3FNToFloat32:
    case ConvertPair::Float8E5M2ToFloat32:
    case ConvertPair::Float8E4M3FNToFloat16:
    case ConvertPair::Float8E5M2ToFloat16:
    case ConvertPair::Float8E4M3FNToBFloat16:
    case ConvertPair::Float8E5M2ToBFloat16:
      for (int v = 0; v < 256; ++v) buf.push_back(static_cast<unsigned char>(v));
      break;
    case ConvertPair::UInt32ToFloat32:
    case ConvertPair::UInt32ToFloat64:
    case ConvertPair::Int32ToFloat32:
    case ConvertPair::Int32ToFloat64:
    case ConvertPair::Int32ToInt64:
      // Every bit length and the float32 ties, and their negations (for
      // the signed pairs, the patterns of 32 bits are negative already).
      for (uint64_t v : unsigned_patterns()) {
        const uint32_t w = static_cast<uint32_t>(v), neg = 0u - w;
        push(&w, 4);
        push(&neg, 4);
      }
      break;
    case ConvertPair::UInt64ToFloat32:
    case ConvertPair::UInt64ToFloat64:
    case ConvertPair::Int64ToInt32:
      for (uint64_t v : unsigned_patterns()) push(&v, 8);
      break;
    case ConvertPair::Float64ToFloat32:
      for (uint64_t x : double_patterns()) push(&x, 8);
      break;
  }
  *count = static_cast<int64_t>(buf.size()) / static_cast<int64_t>(st::itemsize(kConvertPairs[static_cast<int>(p)].src));
  return buf;
}

// The first element where a row converter's output `got` differs from
// `want`, with its input, for a failure message.
void print_first_wrong_element(const char* level, const ConvertPairCase& info, const char* what,
                               const unsigned char* in, const unsigned char* got, const unsigned char* want,
                               int64_t n) {
  const int64_t de = static_cast<int64_t>(st::itemsize(info.dst)), se = static_cast<int64_t>(st::itemsize(info.src));
  int64_t i = 0;
  while (i < n && std::memcmp(got + i * de, want + i * de, static_cast<size_t>(de)) == 0) ++i;
  std::printf("  %s %s %s: element %" PRId64 " of %" PRId64, level, info.name, what, i, n);
  if (i == n) {
    std::printf(" (the elements are right; a byte around them was written)\n");
    return;
  }
  auto hex = [](const unsigned char* p, int64_t bytes) {
    for (int64_t b = bytes - 1; b >= 0; --b) std::printf("%02x", p[b]);
  };
  std::printf(": input 0x");
  hex(in + i * se, se);
  std::printf(" gave 0x");
  hex(got + i * de, de);
  std::printf(", the scalar rule gives 0x");
  hex(want + i * de, de);
  std::printf("\n");
}

// Each pair's inputs converted once by the scalar rule, then by the row
// converter of every level: the whole buffer with ordinary and with
// streaming stores, into dst 64-byte aligned and one element past it; and
// short lengths 0..70 from every offset 0..3 into the inputs (the heads
// and tails), the bytes around them checked untouched.
void row_kernels_match_scalar_rules_at_every_level(void**) {
  int bad = 0;
  for (const ConvertPairCase& info : kConvertPairs) {
    const int64_t de = static_cast<int64_t>(st::itemsize(info.dst)), se = static_cast<int64_t>(st::itemsize(info.src));
    int64_t n;
    const std::vector<unsigned char> in = inputs_for(info.pair, &n);
    const char* const src = reinterpret_cast<const char*>(in.data());
    std::vector<unsigned char> want(static_cast<size_t>(n * de));
    ReferenceConverter(info).run(reinterpret_cast<char*>(want.data()), src, n, de, se);
    std::vector<unsigned char> out(static_cast<size_t>(n * de + 128));
    unsigned char* const base =
        reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(out.data()) + 63) & ~uintptr_t{63});
    std::vector<unsigned char> small(static_cast<size_t>((70 + 2) * de));
    for (int isa = 0; isa <= static_cast<int>(st::cpu::detected_cpu_isa()); ++isa) {
      st::cpu::set_cpu_isa_cap(static_cast<CpuIsa>(isa));
      const st::cpu::ConvertKernelTable& table = st::cpu::active_convert_kernels();
      const st::cpu::ConvertRowFn row = table.row[static_cast<int>(info.pair)];
      for (int shift = 0; shift < 2; ++shift) {
        for (int nt = 0; nt < 2; ++nt) {
          unsigned char* const d = base + shift * de;
          row(reinterpret_cast<char*>(d), src, n, nt != 0);
          if (std::memcmp(d, want.data(), want.size()) != 0 && ++bad <= 5) {
            char what[40];
            std::snprintf(what, sizeof what, "shift %d nt %d", shift, nt);
            print_first_wrong_element(table.name, info, what, in.data(), d, want.data(), n);
          }
        }
      }
      for (int64_t len = 0; len <= 70; ++len) {
        for (int64_t off = 0; off < 4 && off + len <= n; ++off) {
          std::fill(small.begin(), small.end(), static_cast<unsigned char>(0xEE));
          row(reinterpret_cast<char*>(small.data()) + de, src + off * se, len, len % 2 == 1);
          bool ok = std::memcmp(small.data() + de, want.data() + off * de, static_cast<size_t>(len * de)) == 0;
          for (int64_t b = 0; b < de; ++b) ok = ok && small[static_cast<size_t>(b)] == 0xEE &&
                                                  small[static_cast<size_t>((len + 1) * de + b)] == 0xEE;
          if (!ok && ++bad <= 5) {
            char what[40];
            std::snprintf(what, sizeof what, "len %" PRId64 " off %" PRId64, len, off);
            print_first_wrong_element(table.name, info, what, in.data() + off * se, small.data() + de,
                                      want.data() + off * de, len);
          }
        }
      }
    }
  }
  st::cpu::set_cpu_isa_cap(st::cpu::kHighestCpuIsa);
  assert_int_equal(bad, 0);
}

// ---------------------------------------------------------------------------
// Whole converting copies.

// One random case of a pair: made and converted by the reference once,
// then copied at every level on 1 and 2 threads, each time into the
// untouched dst buffer. Returns the number of failing runs.
// `c` and `expected` hold the buffers (test_support::expected_dst).
int convert_case_at_every_level(const ReferenceConverter& reference, const ConvertPairCase& info, uint64_t seed,
                                bool large, test_support::Case& c, std::vector<unsigned char>& expected) {
  const int64_t de = static_cast<int64_t>(st::itemsize(info.dst)), se = static_cast<int64_t>(st::itemsize(info.src));
  test_support::make_case(c, seed, de, se, large);
  test_support::expected_dst(c, expected, [&](const Geometry& ref) { reference.run(ref); });
  const Geometry g = test_support::canonical(c.g);
  int failures = 0;
  test_support::for_each_isa_and_threads([&] {
    test_support::reset_dst(c);
    const bool converted = st::cpu::copy_convert(g, info.dst, info.src);
    if (converted && c.dst_buf == expected) return;
    ++failures;
    std::printf("seed %" PRIu64 " %s isa %s threads %d ndim %d: ", seed, info.name,
                st::cpu::cpu_isa_name(st::cpu::cpu_isa()), st::num_threads(), c.g.ndim());
    if (!converted) {
      std::printf("no kernel took it\n");
    } else {
      const size_t at = test_support::first_difference(c.dst_buf, expected);
      std::printf("first wrong byte at %zu of %zu: got %02x want %02x\n", at, c.dst_buf.size(), c.dst_buf[at],
                  expected[at]);
    }
    for (int d = 0; d < c.g.ndim(); ++d) {
      std::printf("  dim %d: size %" PRId64 " dst %" PRId64 " src %" PRId64 "\n", d, c.g.shape[d], c.g.strides[0][d],
                  c.g.strides[1][d]);
    }
  });
  return failures;
}

void random_converting_copies_match_reference(void**) {
  int failures = 0;
  test_support::Case c;
  std::vector<unsigned char> expected;
  for (const ConvertPairCase& info : kConvertPairs) {
    const ReferenceConverter reference(info);
    for (uint64_t seed = 1; seed <= 300; ++seed) {
      failures +=
          convert_case_at_every_level(reference, info, seed * 31 + static_cast<uint64_t>(info.pair), false, c, expected);
      if (failures > 5) fail();
    }
    failures += convert_case_at_every_level(reference, info, 977 + static_cast<uint64_t>(info.pair), true, c, expected);
  }
  assert_int_equal(failures, 0);
}

// uint8 (N, H, W, C) -> float32 (N, C, H, W) in one copy, and the reverse
// layout change, at sizes around the block and tile edges, images of more
// than one fused block (over 86016 pixels of 3 channels: 1 MB of output),
// and two large enough to stream; dst 64-byte aligned (as the streaming
// stores need) and one element past it.
void nhwc_uint8_to_nchw_float32(void**) {
  struct Shape {
    int64_t n, h, w, c;
  };
  const Shape shapes[] = {{1, 1, 17, 3},     {2, 5, 7, 3},      {1, 33, 65, 3}, {3, 4, 5, 4},
                          {1, 9, 9, 2},      {2, 3, 3, 5},      {1, 64, 64, 16}, {32, 224, 224, 3},
                          {2, 300, 301, 3},  {1, 1200, 1201, 3}};
  int failures = 0;
  for (const Shape& s : shapes) {
    for (int variant = 0; variant < 4; ++variant) {
      const int to_nhwc = variant & 1, misaligned = variant >> 1;
      const int64_t numel = s.n * s.h * s.w * s.c;
      std::vector<unsigned char> src(static_cast<size_t>(numel));
      test_support::fill_random(src, static_cast<uint64_t>(numel));
      std::vector<float> buffer(static_cast<size_t>(numel) + 32, -1.0f), want(static_cast<size_t>(numel));
      float* const dst = reinterpret_cast<float*>((reinterpret_cast<uintptr_t>(buffer.data()) + 63) & ~uintptr_t{63}) +
                         misaligned;
      // Dims fastest-first of dst: NCHW (W, H, C, N) from NHWC, or NHWC (C, W, H, N) from NCHW.
      Geometry g;
      test_support::reset_copy_geometry(g, 4);
      const int64_t nchw_dims[3][4] = {{s.w, s.h, s.c, s.n},
                                       {4, 4 * s.w, 4 * s.w * s.h, 4 * s.w * s.h * s.c},
                                       {s.c, s.w * s.c, 1, s.h * s.w * s.c}};
      const int64_t nhwc_dims[3][4] = {{s.c, s.w, s.h, s.n},
                                       {4, 4 * s.c, 4 * s.c * s.w, 4 * s.c * s.w * s.h},
                                       {s.h * s.w, 1, s.w, s.c * s.h * s.w}};
      const int64_t(&dims)[3][4] = to_nhwc ? nhwc_dims : nchw_dims;  // sizes, dst and src strides in bytes
      for (int d = 0; d < 4; ++d) {
        g.shape[d] = dims[0][d];
        g.strides[0][d] = dims[1][d];
        g.strides[1][d] = dims[2][d];
      }
      for (int64_t n = 0; n < s.n; ++n)
        for (int64_t c = 0; c < s.c; ++c)
          for (int64_t h = 0; h < s.h; ++h)
            for (int64_t w = 0; w < s.w; ++w) {
              const size_t nchw = static_cast<size_t>(((n * s.c + c) * s.h + h) * s.w + w);
              const size_t nhwc = static_cast<size_t>(((n * s.h + h) * s.w + w) * s.c + c);
              want[to_nhwc ? nhwc : nchw] = static_cast<float>(src[to_nhwc ? nchw : nhwc]);
            }
      g.data[0] = reinterpret_cast<char*>(dst);
      g.data[1] = reinterpret_cast<char*>(src.data());
      const Geometry canonical = test_support::canonical(g);
      test_support::for_each_isa_and_threads([&] {
        std::fill(buffer.begin(), buffer.end(), -1.0f);
        assert_true(st::cpu::copy_convert(canonical, ScalarType::Float32, ScalarType::UInt8));
        if (std::memcmp(dst, want.data(), want.size() * 4) != 0) {
          std::printf("  (%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ") to_nhwc %d misaligned %d isa %s threads %d\n",
                      s.n, s.h, s.w, s.c, to_nhwc, misaligned, st::cpu::cpu_isa_name(st::cpu::cpu_isa()),
                      st::num_threads());
          ++failures;
        }
      });
    }
  }
  assert_int_equal(failures, 0);
}

// One long contiguous run per pair: cut into pieces across threads, each
// piece streamed from its own head and tail.
void long_contiguous_conversions(void**) {
  int failures = 0;
  for (const ConvertPairCase& info : kConvertPairs) {
    const int64_t de = static_cast<int64_t>(st::itemsize(info.dst)), se = static_cast<int64_t>(st::itemsize(info.src));
    const int64_t n = (int64_t{17} << 20) / de + 3;  // past the streaming threshold
    std::vector<unsigned char> src(static_cast<size_t>(n * se)), dst(static_cast<size_t>(n * de + 64), 0xEE);
    test_support::fill_random(src, static_cast<uint64_t>(n));
    std::vector<unsigned char> want = dst;
    Geometry g;
    test_support::reset_copy_geometry(g, 1);
    g.shape[0] = n;
    g.strides[0][0] = de;
    g.strides[1][0] = se;
    g.data[0] = reinterpret_cast<char*>(dst.data()) + de;  // not 64-byte aligned
    g.data[1] = reinterpret_cast<char*>(src.data());
    Geometry ref = g;
    ref.data[0] = reinterpret_cast<char*>(want.data()) + de;
    ReferenceConverter(info).run(ref);
    const Geometry canonical = test_support::canonical(g);
    test_support::for_each_isa_and_threads([&] {
      std::fill(dst.begin(), dst.end(), static_cast<unsigned char>(0xEE));
      assert_true(st::cpu::copy_convert(canonical, info.dst, info.src));
      if (dst != want) {
        const size_t at = test_support::first_difference(dst, want);
        std::printf("  %s isa %s threads %d: first wrong byte at %zu of %zu: got %02x want %02x\n", info.name,
                    st::cpu::cpu_isa_name(st::cpu::cpu_isa()), st::num_threads(), at, dst.size(), dst[at], want[at]);
        ++failures;
      }
    });
  }
  assert_int_equal(failures, 0);
}

void pairs_without_a_kernel_write_nothing(void**) {
  assert_false(st::cpu::has_fast_convert(ScalarType::Int16, ScalarType::Float64));
  assert_true(st::cpu::has_fast_convert(ScalarType::Float32, ScalarType::UInt8));
  double src[4] = {1, 2, 3, 4};
  int16_t dst[4] = {0, 0, 0, 0};
  Geometry g;
  test_support::reset_copy_geometry(g, 1);
  g.shape[0] = 4;
  g.strides[0][0] = 2;
  g.strides[1][0] = 8;
  g.data[0] = reinterpret_cast<char*>(dst);
  g.data[1] = reinterpret_cast<char*>(src);
  assert_false(st::cpu::copy_convert(test_support::canonical(g), ScalarType::Int16, ScalarType::Float64));
  for (int16_t d : dst) assert_true(d == 0);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(scalar_rules_match_hand_values),
      cmocka_unit_test(float_to_half_and_bfloat16_are_nearest_even),
      cmocka_unit_test(half_and_bfloat16_to_float_all_inputs),
      cmocka_unit_test(int64_to_double_is_nearest_even),
      cmocka_unit_test(scalar_rules_are_cores),
      cmocka_unit_test(row_kernels_match_scalar_rules_at_every_level),
      cmocka_unit_test(pairs_without_a_kernel_write_nothing),
      cmocka_unit_test(long_contiguous_conversions),
      cmocka_unit_test(nhwc_uint8_to_nchw_float32),
      cmocka_unit_test(random_converting_copies_match_reference),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
