// scaled_convert<To, C>(x, scale, shift, saturate): one element of a scaled
// copy (include/stride.h, st_copy_scaled), on the host and in CUDA kernels.
//
// Note [The scaled copy's arithmetic]
// y = fma(convert<C>(x), scale, shift) in the compute type C (float, or
// double when either dtype is float64 or a 32/64-bit integer, so that every
// value of those converts exactly or with one rounding); one fused
// multiply-add rounds once, so the bits do not depend on the compiler's
// contraction choices, the instruction set or the device. Then R(y):
// - a floating dst: with `saturate`, y is clamped to ±(dst's largest
//   finite value) first (±inf included; NaN fails both comparisons and
//   stays NaN), then convert<To>(y), st_copy's rounding to nearest even;
// - an integer dst: rounded half to even by round_half_even below, which
//   uses only trunc and exact arithmetic (the caller's fesetround cannot
//   change it, unlike nearbyint or the add-2^23 trick), then clamped to
//   dst's range, NaN -> 0 (QuantizeLinear's rule; st_copy truncates);
// - bool: y != 0.
// The vector kernels reproduce it with an explicit round-to-nearest
// immediate, the CUDA kernels with these very functions.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/macros.h"
#include "core/numeric/convert.h"
#include "core/numeric/scalar_types.h"

namespace st {

// The compute type of a (dst, src) pair: the one statement of the rule
// (scaled_compute_type in core/scale_shift.h reads it at run time).
template <typename T>
struct NeedsDoubleCompute
    : std::integral_constant<bool, std::is_same<T, double>::value || std::is_same<T, int32_t>::value ||
                                       std::is_same<T, int64_t>::value || std::is_same<T, uint32_t>::value ||
                                       std::is_same<T, uint64_t>::value> {};
template <typename D, typename S>
using scaled_compute_t =
    typename std::conditional<NeedsDoubleCompute<D>::value || NeedsDoubleCompute<S>::value, double, float>::type;

#if ST_LIBC_FMAF_ROUNDS_TWICE
// MinGW-w64's fmaf (libmingwex 10) rounds twice: it differed from one
// rounding in 477,136 of 2,000,000 random cases, where glibc's and the FMA
// instruction of the vector kernels never do. Here the product of two
// floats is exact in double (48 bits); its sum with b is rounded to odd in
// double (rounded to nearest, then, when TwoSum's error says the sum was
// inexact and landed on an even mantissa, moved one step towards the exact
// value), and a sum rounded to odd with 29 bits to spare rounds to float
// as the exact value would (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", 2008).
// Needs round to nearest, which the kernels run in (core/numeric/float_env.h).
inline float fmaf_rounded_once(float x, float a, float b) {
  const double p = double(x) * double(a);
  const double s = p + double(b);
  if (!std::isfinite(s)) return float(s);
  const double b_part = s - p;
  const double err = (p - (s - b_part)) + (double(b) - b_part);  // s + err == p + b exactly
  uint64_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  if (err != 0 && (bits & 1) == 0) bits = (err > 0) == (s > 0) ? bits + 1 : bits - 1;
  double odd;
  std::memcpy(&odd, &bits, sizeof odd);
  return float(odd);
}
#endif

template <typename C>
ST_HOST_DEVICE ST_FORCE_INLINE C fused_multiply_add(C x, C a, C b) {
  if constexpr (std::is_same<C, float>::value) {
#if ST_LIBC_FMAF_ROUNDS_TWICE
    return fmaf_rounded_once(x, a, b);
#else
    return ::fmaf(x, a, b);
#endif
  } else {
    return ::fma(x, a, b);
  }
}

template <typename C>
ST_HOST_DEVICE ST_FORCE_INLINE C truncate(C x) {
  if constexpr (std::is_same<C, float>::value) {
    return ::truncf(x);
  } else {
    return ::trunc(x);
  }
}

// Nearest integer, ties to even, whatever the rounding mode. x - trunc(x)
// is exact (it only drops the integer bits), and so is t ± 1 wherever a
// fraction remains (|t| < 2^23 or 2^52). NaN and ±inf come back unchanged.
template <typename C>
ST_HOST_DEVICE ST_FORCE_INLINE C round_half_even(C x) {
  const C t = truncate(x);
  const C d = x - t;
  const C a = d < C(0) ? -d : d;
  const bool odd = t - C(2) * truncate(t * C(0.5)) != C(0);
  const C away = x < C(0) ? t - C(1) : t + C(1);
  return (a > C(0.5) || (a == C(0.5) && odd)) ? away : t;
}

// The dtypes scaled copies take (include/stride.h, st_copy_scaled): the
// real ones but the MX element and scale types of 0.3 (float6, e8m0 and
// float4_e2m1fn_x2, which are quantized by st_quantize_blocks instead).
template <typename T>
struct TakesScaledCopies
    : std::integral_constant<bool, !IsComplex<T>::value && !IsFloat6<T>::value &&
                                       !std::is_same<T, Float8_e8m0fnu>::value && !IsPacked<T>::value> {};

// The largest finite value of a floating dtype, as a double.
template <typename T>
struct LargestFinite;
template <>
struct LargestFinite<Half> {
  static constexpr double value = 65504.0;
};
template <>
struct LargestFinite<BFloat16> {
  static constexpr double value = 3.3895313892515355e38;  // 0x1.fep127
};
template <>
struct LargestFinite<Float8_e4m3fn> {
  static constexpr double value = 448.0;
};
template <>
struct LargestFinite<Float8_e5m2> {
  static constexpr double value = 57344.0;
};
template <>
struct LargestFinite<float> {
  static constexpr double value = 3.4028234663852886e38;  // FLT_MAX
};
template <>
struct LargestFinite<double> {
  static constexpr double value = 1.7976931348623157e308;  // DBL_MAX
};

// y rounded to the integer To (Note [The scaled copy's arithmetic]). The
// bounds are To's min and max converted to C (2^63 and 2^64 for the 64-bit
// ones, which no in-range value reaches), so the cast sees only values in
// range; the selects keep it branch-free.
template <typename To, typename C>
ST_HOST_DEVICE ST_FORCE_INLINE To scaled_to_integer(C y) {
  constexpr C lo = static_cast<C>(detail::IntRange<To>::min);
  constexpr C hi = static_cast<C>(detail::IntRange<To>::max);
  const C r = round_half_even(y);
  const C in = (r > lo && r < hi) ? r : C(0);  // NaN -> 0
  To v = static_cast<To>(in);
  v = r >= hi ? To(detail::IntRange<To>::max) : v;
  v = r <= lo ? To(detail::IntRange<To>::min) : v;
  return v;
}

// R(y) for any non-complex To.
template <typename To, typename C>
ST_HOST_DEVICE ST_FORCE_INLINE To scaled_result(C y, bool saturate) {
  if constexpr (std::is_same<To, bool>::value) {
    return y != C(0);
  } else if constexpr (std::is_integral<To>::value) {
    return scaled_to_integer<To>(y);
  } else {
    if (saturate) {
      constexpr C m = static_cast<C>(LargestFinite<To>::value);
      y = y > m ? m : (y < -m ? -m : y);
    }
    return convert<To>(y);
  }
}

template <typename To, typename C, typename From>
ST_HOST_DEVICE ST_FORCE_INLINE To scaled_convert(From x, C scale, C shift, bool saturate) {
  return scaled_result<To>(fused_multiply_add(convert<C>(x), scale, shift), saturate);
}

}  // namespace st
