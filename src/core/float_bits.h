// Bit-level helpers for the element conversions: reinterpreting floats as
// their IEEE-754 bits, and rounding a wider binary format to a 16-bit one
// from its bits, once, to nearest even. Host and device code alike: no
// <cmath>, no hardware rounding modes, nothing nvcc device code lacks.
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

// Leading zeros of a nonzero 64-bit value.
ST_HOST_DEVICE ST_FORCE_INLINE int count_leading_zeros64(uint64_t u) {
#if defined(__CUDA_ARCH__)
  return __clzll(static_cast<long long>(u));
#else
  return __builtin_clzll(u);
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

}  // namespace detail
}  // namespace st
