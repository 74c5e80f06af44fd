// The scalar conversion rules of the hot pairs, on bit patterns: the rules
// of core/numeric/scalar_types.h and core/numeric/convert.h (include/stride.h: one rounding
// to nearest even from the exact value, overflow to +-inf, NaN stays NaN),
// restated here because the instruction-set files use them for their
// tails: every function is `static`, so each file keeps its own copy and
// no inline code built with AVX flags can be picked by the linker for
// other files (see copy_kernels.inl). test_copy_convert checks them
// equal to core's on every 16-bit pattern and on float32 patterns covering
// every exponent, tie and NaN class. NaNs:
//   float32 -> float16/bfloat16: sign kept, the quiet bit set, the top
//     payload bits kept (sign | 0x7e00 | mantissa >> 13, and
//     sign | 0x7fc0 | mantissa >> 16), as F16C's VCVTPS2PH;
//   float16/bfloat16 -> float32: exact, the payload shifted up and a
//     signalling NaN left signalling (F16C's VCVTPH2PS would quiet it; the
//     vector kernels undo that).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace st {
namespace cpu {

static inline uint32_t float_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

static inline float bits_float(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

static inline uint16_t float_to_half_bits(float f) {
  const uint32_t x = float_bits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000);
  const uint32_t a = x & 0x7fffffff;
  if (a > 0x7f800000) return static_cast<uint16_t>(sign | 0x7e00 | ((a >> 13) & 0x3ff));  // NaN
  if (a >= 0x477ff000) return static_cast<uint16_t>(sign | 0x7c00);  // >= 65520 (halfway past 65504): inf
  if (a >= 0x38800000) {  // a normal float16 (>= 2^-14): rebias, round the 13 dropped bits
    const uint32_t r = a + 0xfff + ((a >> 13) & 1);
    return static_cast<uint16_t>(sign | ((r >> 13) - (112u << 10)));
  }
  // A float16 subnormal (units of 2^-24) or zero: the significand with its
  // implicit bit, shifted right by 126 - exponent, rounded to nearest even.
  const uint32_t e = a >> 23;
  if (e < 102) return sign;  // below 2^-25: rounds to zero
  const uint32_t m = (a & 0x7fffff) | 0x800000;
  const uint32_t shift = 126 - e;
  uint32_t q = m >> shift;
  const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) ++q;
  return static_cast<uint16_t>(sign | q);
}

static inline uint16_t float_to_bfloat16_bits(float f) {
  const uint32_t x = float_bits(f);
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((x >> 16) | 0x40);  // NaN, quieted
  return static_cast<uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

static inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000) << 16;
  const uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return bits_float(sign | 0x7f800000 | (m << 13));
  if (e == 0) {
    // m * 2^-24, exact in float32 (a normal number for m > 0).
    return bits_float(sign | float_bits(static_cast<float>(m) * bits_float(0x33800000)));
  }
  return bits_float(sign | ((e + 112) << 23) | (m << 13));
}

static inline float bfloat16_bits_to_float(uint16_t h) { return bits_float(static_cast<uint32_t>(h) << 16); }

// Exact below 2^53; above, rounded to nearest even by the conversion
// instruction (the callers keep MXCSR at its default), as core/convert.h.
static inline double int64_to_double(int64_t v) { return static_cast<double>(v); }

// Integers, signed or not, to float32/float64, as core/numeric/convert.h: exact
// where the value fits the significand, else one rounding to nearest even
// by the conversion (Note [Which conversions the hardware may do]).
template <typename I, typename F>
static inline F integer_to_float(I v) {
  return static_cast<F>(v);
}

// float32 <-> float64, as core/numeric/convert.h: exact, or one rounding to
// nearest even by the conversion.
static inline double float_to_double(float f) { return static_cast<double>(f); }
static inline float double_to_float(double d) { return static_cast<float>(d); }

// int32 <-> int64, as core/numeric/convert.h: widened exactly; narrowed modulo
// 2^32 (the two's-complement wrap): the low 32 bits, read back as int32.
static inline int64_t int32_to_int64(int32_t v) { return v; }
static inline int32_t int64_to_int32(int64_t v) {
  const uint32_t low = static_cast<uint32_t>(v);
  int32_t r;
  std::memcpy(&r, &low, 4);
  return r;
}

// float32 to an integer type, as core/numeric/convert.h: truncated toward zero,
// saturated to the type's range, NaN to 0. The bounds, the type's minimum
// and its maximum plus one, are powers of two (or 0), exact in float32,
// and inside them the cast is defined.
template <typename I>
static inline I float_to_integer_saturating(float v) {
  constexpr float lo = static_cast<float>(std::numeric_limits<I>::min());
  constexpr float hi = static_cast<float>(std::numeric_limits<I>::max() / 2 + 1) * 2.0f;
  if (!(v == v)) return I(0);
  if (v <= lo) return std::numeric_limits<I>::min();
  if (v >= hi) return std::numeric_limits<I>::max();
  return static_cast<I>(v);
}

// Note [Float8 kernels on float32 bits]
// float32 -> float8 in 32-bit integer steps, the same in the scalar rule
// below and in every vector level (float8_lanes.h) but for one, so that
// no rounding mode or denormal flag of the host matters;
// test_copy_convert checks them against core's rounding (Note [Rounding
// to float8]).
// float32 -> float8, with a = |x| as bits:
// - a float8 normal (a at least the smallest normal's bits): rebias the
//   exponent in place and round the exponent|mantissa bits as one integer
//   to nearest even (a carry out of the mantissa bumps the exponent), then
//   clamp to the overflow pattern, +inf for e5m2 and the NaN for e4m3fn
//   (so e4m3fn's 464 rounds to 448 and anything above to NaN), which also
//   takes ±inf;
// - below it: the significand with its implicit bit, m < 2^24, in units of
//   the smallest float8 subnormal is m / 2^s with s = 151 - bias - kMant -
//   the exponent field, rounded the same way (at the smallest normal s is
//   the normal shift, and a carry encodes the smallest normal). s is
//   clamped to 31, where every m gives 0 as it must: from s = 25 on the
//   value is below half the smallest subnormal (float32 zero and
//   subnormals included). The vector levels take the cheaper float way:
//   |x| plus the power of two whose ulp is the smallest subnormal, added
//   with rounding to nearest even (given in the instruction at AVX-512;
//   MXCSR's default, which the drivers set, at AVX2), has the multiple
//   in its low bits;
// - NaN: e4m3fn's one NaN, or e5m2's quiet NaN with the top payload bit.
// float8 -> float32 is exact: a normal rebiased (e5m2's inf and NaNs
// rebiased twice, to the top exponent), a subnormal m as the float32 of
// the small integer m times 2^(1 - bias - kMant), a product with no
// rounding and no denormal; e4m3fn's NaN is 0x7ff00000 with its sign, as
// c10's. The vector levels convert float8 to float32 through float16
// (convert_kernels.inl's F8ToF32), exact too.
template <int kExpBits, int kMantBits, bool kHasInfinity>
struct Float8Bits {
  static constexpr int kMant = kMantBits;
  static constexpr bool kHasInf = kHasInfinity;
  static constexpr uint32_t kBias = (1u << (kExpBits - 1)) - 1;
  static constexpr int kShift = 23 - kMantBits;
  static constexpr uint32_t kMantMask = (1u << kMantBits) - 1;
  static constexpr uint32_t kRebias = (127u - kBias) << 23;
  static constexpr uint32_t kMinNormal = (127u - kBias + 1) << 23;
  static constexpr uint32_t kSubnormalShift = 151 - kBias - kMantBits;  // minus the exponent field
  // The overflow pattern, and the first of the patterns that are not
  // finite (e5m2: inf and NaNs; e4m3fn: its NaN).
  static constexpr uint32_t kOverflow = kHasInfinity ? ((1u << kExpBits) - 1) << kMantBits : 0x7fu;
  static constexpr uint32_t kQuietNaN = kHasInfinity ? kOverflow | (1u << (kMantBits - 1)) : 0x7fu;
  static constexpr float kSubnormalUnit = 1.0f / static_cast<float>(1u << (kBias + kMantBits - 1));
  // The float32 2^(23 + 1 - bias - kMant), whose ulp is the smallest subnormal.
  static constexpr uint32_t kSubnormalMagic = (127u + 24 - kBias - kMantBits) << 23;
  // The float32 bits of the largest finite value: the top exponent and
  // mantissa that are not inf or NaN (e4m3fn: 448, e5m2: 57344).
  static constexpr uint32_t kLargestFinite =
      ((127u - kBias + (1u << kExpBits) - (kHasInfinity ? 2u : 1u)) << 23) | ((kMantMask - (kHasInfinity ? 0u : 1u)) << kShift);
};
using E4M3Bits = Float8Bits<4, 3, false>;
using E5M2Bits = Float8Bits<5, 2, true>;

// (m + 2^(s-1) - 1 + lowest kept bit) >> s: m / 2^s rounded to nearest
// even, for m < 2^24 and 1 <= s <= 31.
static inline uint32_t round_shift_even(uint32_t m, uint32_t s) {
  return (m + (1u << (s - 1)) - 1 + ((m >> s) & 1)) >> s;
}

template <class B>
static inline uint8_t float_to_float8_bits(float f) {
  const uint32_t x = float_bits(f);
  const uint32_t sign = (x >> 24) & 0x80u, a = x & 0x7fffffffu;
  uint32_t r;
  if (a > 0x7f800000u) {
    r = B::kQuietNaN | (B::kHasInf ? (a >> B::kShift) & B::kMantMask : 0u);
  } else if (a >= B::kMinNormal) {
    r = round_shift_even(a, B::kShift) - (B::kRebias >> B::kShift);
    r = r < B::kOverflow ? r : B::kOverflow;
  } else {
    const uint32_t s = B::kSubnormalShift - (a >> 23);
    r = round_shift_even((a & 0x7fffffu) | 0x800000u, s < 31 ? s : 31);
  }
  return static_cast<uint8_t>(sign | r);
}

// The float32 bits of a float8 magnitude a >= kOverflow (inf or NaN):
// e5m2's rebiased twice, to the top exponent; e4m3fn's NaN as c10's.
template <class B>
static constexpr uint32_t float8_special_float_bits(uint32_t a) {
  return B::kHasInf ? (a << B::kShift) + 2 * B::kRebias : 0x7ff00000u;
}

template <class B>
static inline float float8_bits_to_float(uint8_t b) {
  const uint32_t sign = static_cast<uint32_t>(b & 0x80u) << 24, a = b & 0x7fu;
  uint32_t r;
  if (a >= B::kOverflow) {
    r = float8_special_float_bits<B>(a);
  } else if (a > B::kMantMask) {
    r = (a << B::kShift) + B::kRebias;
  } else {
    r = float_bits(static_cast<float>(a) * B::kSubnormalUnit);
  }
  return bits_float(sign | r);
}

}  // namespace cpu
}  // namespace st
