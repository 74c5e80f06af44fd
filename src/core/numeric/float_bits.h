// Bit-level helpers for the element conversions: reinterpreting floats as
// their IEEE-754 bits, and rounding a wider binary format to a 16-bit one,
// or any number to an 8-bit, 6-bit or 4-bit one or to the MX scale
// float8_e8m0fnu, from its bits, once, to nearest even.
// Host and device code alike: no <cmath>, no hardware rounding modes,
// nothing nvcc device code lacks.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/macros.h"

namespace st {
namespace detail {

ST_HOST_DEVICE ST_FORCE_INLINE uint32_t float_to_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

ST_HOST_DEVICE ST_FORCE_INLINE float bits_to_float(uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}

ST_HOST_DEVICE ST_FORCE_INLINE uint64_t double_to_bits(double d) {
#if defined(__CUDA_ARCH__)
  return static_cast<uint64_t>(__double_as_longlong(d));
#else
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
#endif
}

ST_HOST_DEVICE ST_FORCE_INLINE double bits_to_double(uint64_t u) {
#if defined(__CUDA_ARCH__)
  return __longlong_as_double(static_cast<long long>(u));
#else
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
#endif
}

// Leading zeros of a nonzero 64-bit value.
ST_HOST_DEVICE ST_FORCE_INLINE int count_leading_zeros64(uint64_t u) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(u));
#else
  return leading_zeros64(u);
#endif
}

// m / 2^s rounded to nearest, ties to even; 1 <= s < bits of U.
template <typename U>
ST_HOST_DEVICE ST_FORCE_INLINE U round_shift_right_even(U m, int s) {
  const U quotient = m >> s;
  const U remainder = m & ((U(1) << s) - 1);
  const U half = U(1) << (s - 1);
  const bool up = (remainder > half) | ((remainder == half) & ((quotient & 1) != 0));
  return quotient + U(up);
}

// Rounds a binary floating-point number given by its bits (U: uint32_t for
// float, uint64_t for double) to a 16-bit format with kDstExp exponent bits
// and kDstMant mantissa bits (float16: 5/10, bfloat16: 8/7): one rounding
// from the exact value to nearest even, overflow to ±inf, NaN to a quiet NaN
// with the sign and the leading payload bits kept; magnitudes up to half the
// smallest subnormal become ±0 (the tie goes to the even zero).
//
// The normal case is the usual trick: rebias the exponent in place and
// round the exponent|mantissa bits as one integer, so a carry out of the
// mantissa bumps the exponent (65519.99 rounds to 65504, 65520 to inf).
template <typename U, int kSrcExp, int kSrcMant, int kDstExp, int kDstMant>
ST_HOST_DEVICE inline uint16_t round_to_16bit_float(U x) {
  constexpr int kSrcBits = 1 + kSrcExp + kSrcMant;
  static_assert(kSrcBits == 8 * sizeof(U), "the source format fills U");
  static_assert(1 + kDstExp + kDstMant == 16, "the target format has 16 bits");
  constexpr int kSrcBias = (1 << (kSrcExp - 1)) - 1;
  constexpr int kDstBias = (1 << (kDstExp - 1)) - 1;
  constexpr int kShift = kSrcMant - kDstMant;
  // Source subnormals lie far below half the target's smallest subnormal,
  // so the subnormal branch below only ever sees normal sources.
  constexpr int kZeroBelowExp = kSrcBias - kDstBias - kDstMant;
  static_assert(kShift > 0 && kZeroBelowExp > 0, "the source is wider in both fields");

  constexpr U kAbsMask = (U(1) << (kSrcBits - 1)) - 1;
  constexpr U kSrcInf = ((U(1) << kSrcExp) - 1) << kSrcMant;
  constexpr U kRebias = U(kSrcBias - kDstBias) << kSrcMant;
  // 2^(1 - kDstBias), the smallest normal of the target.
  constexpr U kMinNormal = U(kSrcBias - kDstBias + 1) << kSrcMant;
  // The largest finite target value plus half its ulp: from here up, round
  // to nearest even gives infinity (the largest finite mantissa is odd).
  constexpr U kOverflow =
      (U(kSrcBias + kDstBias) << kSrcMant) | (((U(1) << (kDstMant + 1)) - 1) << (kShift - 1));
  constexpr uint32_t kDstMantMask = (1u << kDstMant) - 1;
  constexpr uint32_t kDstInf = ((1u << kDstExp) - 1) << kDstMant;
  constexpr uint32_t kDstQuiet = 1u << (kDstMant - 1);

  const uint32_t sign = static_cast<uint32_t>(x >> (kSrcBits - 1)) << 15;
  const U a = x & kAbsMask;
  uint32_t r;
  if (ST_LIKELY(a - kMinNormal < kOverflow - kMinNormal)) {
    r = static_cast<uint32_t>(round_shift_right_even<U>(a - kRebias, kShift));
  } else if (a >= kOverflow) {
    r = a > kSrcInf ? (kDstInf | kDstQuiet | (static_cast<uint32_t>(a >> kShift) & kDstMantMask)) : kDstInf;
  } else {
    // Below the smallest normal: count in units of the smallest subnormal,
    // 2^(1 - kDstBias - kDstMant). A carry to 1 << kDstMant is the smallest
    // normal, encoded correctly by the same bits.
    const int e = static_cast<int>(a >> kSrcMant);
    const U m = (a & ((U(1) << kSrcMant) - 1)) | (U(1) << kSrcMant);
    r = e < kZeroBelowExp ? 0u
                          : static_cast<uint32_t>(round_shift_right_even<U>(
                                m, kSrcBias + kSrcMant + 1 - kDstBias - kDstMant - e));
  }
  return static_cast<uint16_t>(sign | r);
}

// ---- float8 ----------------------------------------------------------------
//
// Note [Rounding to float8]
// Every conversion into a float8 format rounds the exact source value once:
// the value is first written exactly as m · 2^e with an integer m < 2^64 (a
// float's or double's significand and exponent, an integer's magnitude), and
// round_to_float8 takes it from there to nearest even. No conversion passes
// through float16 or float32 first, so no value is rounded twice: a float64
// just above a float8 tie stays above it. Overflow follows the format:
// float8_e5m2 is IEEE-like (a magnitude that rounds past 57344, that is
// 61440 or more, becomes ±inf); float8_e4m3fn has no infinity, so one that
// rounds past 448 (above 464) becomes NaN, as PyTorch's c10::Float8_e4m3fn.

// The layout of an 8-bit float: 1 sign bit, kExp exponent bits (bias
// 2^(kExp-1) - 1), kMant mantissa bits, subnormals. With kHasInfinity the
// top exponent holds ±inf (mantissa 0) and NaNs (IEEE); without it only
// S.1...1.1...1 is NaN and every other pattern of that exponent a number.
template <int kExpBits, int kMantBits, bool kHasInfinity>
struct Float8Format {
  static constexpr int kExp = kExpBits;
  static constexpr int kMant = kMantBits;
  static constexpr bool kHasInf = kHasInfinity;
  static constexpr int kBias = (1 << (kExp - 1)) - 1;
  static constexpr uint32_t kMantMask = (1u << kMant) - 1;
  static constexpr uint32_t kInfOrNaN = ((1u << kExp) - 1) << kMant;  // the top exponent field
  // What a magnitude beyond the largest finite one becomes: +inf, or the
  // NaN. The largest finite magnitude is the pattern just below it.
  static constexpr uint32_t kOverflow = kHasInfinity ? kInfOrNaN : (kInfOrNaN | kMantMask);
  static constexpr uint32_t kMaxFinite = kOverflow - 1;
  static constexpr uint32_t kSign = 0x80u;
  static constexpr int kMinNormalExp = 1 - kBias;
  static constexpr int kMaxFiniteExp = static_cast<int>(kMaxFinite >> kMant) - kBias;
  static_assert(1 + kExp + kMant == 8, "a float8 has 8 bits");

  // What ±inf and NaN (its top mantissa bits `payload`) become: ±inf, or
  // NaN for a format without infinity; NaN stays NaN with its sign (with
  // infinity: the quiet bit set and the top payload bit kept, as
  // round_to_16bit_float).
  ST_HOST_DEVICE static constexpr uint32_t special(bool negative, bool nan, uint32_t payload) {
    return (negative ? kSign : 0u) | (!nan || !kHasInf ? kOverflow : (kInfOrNaN | (1u << (kMant - 1)) | payload));
  }
};

// The layout of OCP's narrow floats without infinity or NaN (float6_e2m3fn,
// float6_e3m2fn and the E2M1 of float4_e2m1fn_x2): 1 sign bit above kExp
// exponent bits (bias 2^(kExp-1) - 1) and kMant mantissa bits, subnormals,
// every pattern a number, the largest all ones (OCP MX v1.0, section 5.3).
// Round_to_float8 takes it as it takes a Float8Format: a magnitude that
// rounds past the largest becomes the largest (kOverflow is kMaxFinite),
// the saturation OCP asks of conversions into these formats.
template <int kExpBits, int kMantBits>
struct SaturatingFormat {
  static constexpr int kExp = kExpBits;
  static constexpr int kMant = kMantBits;
  static constexpr bool kHasInf = false;
  static constexpr int kBias = (1 << (kExp - 1)) - 1;
  static constexpr uint32_t kMantMask = (1u << kMant) - 1;
  static constexpr uint32_t kMaxFinite = (1u << (kExp + kMant)) - 1;
  static constexpr uint32_t kOverflow = kMaxFinite;
  static constexpr uint32_t kSign = 1u << (kExp + kMant);
  static constexpr int kMinNormalExp = 1 - kBias;
  static constexpr int kMaxFiniteExp = static_cast<int>(kMaxFinite >> kMant) - kBias;
  static_assert(1 + kExp + kMant <= 8, "a narrow float fits a byte");

  // ±inf becomes ±largest and NaN +largest (ONNX's float4 Cast turns NaN
  // into +6; OCP leaves the choice to implementations).
  ST_HOST_DEVICE static constexpr uint32_t special(bool negative, bool nan, uint32_t) {
    return (negative && !nan ? kSign : 0u) | kMaxFinite;
  }
};

// The magnitude bits (sign excluded) of m · 2^e, m > 0, in a float8 or
// saturating format, rounded to nearest even (Note [Rounding to float8]).
template <typename Format>
ST_HOST_DEVICE inline uint32_t round_to_float8(uint64_t m, int e) {
  constexpr int kMant = Format::kMant;
  const int lz = count_leading_zeros64(m);
  const uint64_t n = m << lz;  // the value is n · 2^(e - lz), n in [2^63, 2^64)
  const int exp = e - lz + 63;  // floor(log2(value))
  if (exp >= Format::kMinNormalExp) {
    if (exp > Format::kMaxFiniteExp) return Format::kOverflow;
    // kMant + 1 significant bits, q in [2^kMant, 2^(kMant+1)]. The leading
    // bit of q adds one to the exponent field, and a rounding carry to
    // 2^(kMant+1) one more: the field is exp + bias.
    const uint32_t q = static_cast<uint32_t>(round_shift_right_even<uint64_t>(n, 63 - kMant));
    const uint32_t bits = (static_cast<uint32_t>(exp + Format::kBias - 1) << kMant) + q;
    // A carry past the largest finite value (at the largest exponent only)
    // lands on the overflow pattern or one above it.
    return bits < Format::kOverflow ? bits : Format::kOverflow;
  }
  // Below the smallest normal: the value in units of the smallest subnormal
  // 2^(kMinNormalExp - kMant) is n / 2^s. A carry into 2^kMant is the
  // smallest normal, encoded correctly by the same bits. Here
  // exp < kMinNormalExp, so s > 63 - kMant: s = 64 is [1/2, 1) (1/2 exactly
  // is a tie that goes to the even 0), beyond it less than 1/2.
  const int s = Format::kMinNormalExp - kMant - (e - lz);
  if (s >= 64) return s == 64 && n > (uint64_t(1) << 63) ? 1u : 0u;
  return static_cast<uint32_t>(round_shift_right_even<uint64_t>(n, s));
}

// A binary floating-point number given by its bits (U: uint32_t for float,
// uint64_t for double), taken apart: its sign and, unless its exponent
// field is all ones (±inf, NaN: `special`, with the mantissa bits in
// `mant`), its exact value m · 2^e (m = 0 for ±0).
template <typename U>
struct BinaryParts {
  bool negative;
  bool special;
  U mant;
  uint64_t m;
  int e;
};

template <typename U, int kSrcExp, int kSrcMant>
ST_HOST_DEVICE ST_FORCE_INLINE BinaryParts<U> split_binary(U x) {
  constexpr int kSrcBits = 1 + kSrcExp + kSrcMant;
  static_assert(kSrcBits == 8 * sizeof(U), "the source format fills U");
  constexpr int kSrcBias = (1 << (kSrcExp - 1)) - 1;
  constexpr uint32_t kSrcMaxField = (1u << kSrcExp) - 1;
  constexpr U kSrcMantMask = (U(1) << kSrcMant) - 1;
  const uint32_t field = static_cast<uint32_t>(x >> kSrcMant) & kSrcMaxField;
  const U mant = x & kSrcMantMask;
  BinaryParts<U> p{(x >> (kSrcBits - 1)) != 0, field == kSrcMaxField, mant, static_cast<uint64_t>(mant),
                   1 - kSrcBias - kSrcMant};  // zero, or a subnormal: mant · 2^(1 - bias - kSrcMant)
  if (field != 0) {
    p.m |= uint64_t(1) << kSrcMant;
    p.e = static_cast<int>(field) - kSrcBias - kSrcMant;
  }
  return p;
}

// A binary floating-point number given by its bits as the bits of a float8
// or saturating format (the sign at Format::kSign): its exact significand
// and exponent rounded once (round_to_float8), ±inf and NaN as
// Format::special says.
template <typename Format, typename U, int kSrcExp, int kSrcMant>
ST_HOST_DEVICE inline uint8_t binary_to_float8(U x) {
  const BinaryParts<U> p = split_binary<U, kSrcExp, kSrcMant>(x);
  uint32_t r;
  if (ST_UNLIKELY(p.special)) {
    const uint32_t payload = static_cast<uint32_t>(p.mant >> (kSrcMant - Format::kMant)) & Format::kMantMask;
    r = Format::special(p.negative, p.mant != 0, payload);
  } else {
    r = (p.negative ? Format::kSign : 0u) | (p.m == 0 ? 0u : round_to_float8<Format>(p.m, p.e));
  }
  return static_cast<uint8_t>(r);
}

// An integer given by its sign and magnitude, as float8 or saturating bits.
template <typename Format>
ST_HOST_DEVICE inline uint8_t integer_to_float8(bool negative, uint64_t magnitude) {
  const uint32_t sign = negative ? Format::kSign : 0u;
  return static_cast<uint8_t>(sign | (magnitude == 0 ? 0u : round_to_float8<Format>(magnitude, 0)));
}

// ---- float8_e8m0fnu, the OCP MX scale ---------------------------------------
//
// Note [Rounding to e8m0]
// float8_e8m0fnu holds 2^(b - 127) for b = 0..254 and NaN for 0xFF; it has
// no sign, no zero and no infinity. Every conversion into it follows
// PyTorch's c10 fp8e8m0fnu_from_fp32_value, applied to the exact value (c10
// rounds a float64 to float32 first; here, as for float8, nothing is
// rounded twice): the sign is ignored; NaN and ±inf give 0xFF; a magnitude
// up to 2^-127, zero included, gives 0x00; one strictly between 2^-127 and
// 2^-126 gives 0x01; otherwise, with 2^e <= |x| < 2^(e+1), e + 127, plus
// one when |x| >= 1.5 · 2^e (the nearer power of two in linear space, ties
// up, which is c10's round-to-nearest-even on the implicit bit, always 1
// there), and 255 or more is the NaN 0xFF (no saturation).

// The e8m0 bits of m · 2^e, m > 0.
ST_HOST_DEVICE inline uint8_t round_to_e8m0(uint64_t m, int e) {
  const int lz = count_leading_zeros64(m);
  const uint64_t n = m << lz;   // the value is n · 2^(e - lz), n in [2^63, 2^64)
  const int exp = e - lz + 63;  // floor(log2(value))
  if (exp < -127) return 0x00;
  if (exp == -127) return n > (uint64_t(1) << 63) ? 0x01 : 0x00;
  const int code = exp + 127 + static_cast<int>((n >> 62) & 1);  // the bit below the leading one: >= 1.5 · 2^exp
  return code >= 255 ? 0xFF : static_cast<uint8_t>(code);
}

// A binary floating-point number given by its bits as e8m0 bits.
template <typename U, int kSrcExp, int kSrcMant>
ST_HOST_DEVICE inline uint8_t binary_to_e8m0(U x) {
  const BinaryParts<U> p = split_binary<U, kSrcExp, kSrcMant>(x);
  if (ST_UNLIKELY(p.special)) return 0xFF;
  return p.m == 0 ? uint8_t(0x00) : round_to_e8m0(p.m, p.e);
}

}  // namespace detail
}  // namespace st
