// convert<To>(v): one element from any dtype to any other, by the
// conversion rules of include/stride.h (its Operators section), on the host
// and in CUDA kernels, with no undefined behaviour for any input:
//
// - integer -> integer: two's-complement wrap modulo 2^bits, signed or
//   unsigned target (as PyTorch and NumPy: int8 -1 -> uint16 65535);
// - float -> integer: truncate toward zero, NaN -> 0, out of range (±inf
//   included) saturates to the target's min / max (0 / max for unsigned);
// - any number -> float16 / bfloat16 / float32 / float64 / float8: one
//   rounding from the exact value to nearest even, overflow -> ±inf (for
//   float8_e4m3fn, which has no infinity, NaN: Note [Rounding to float8]),
//   NaN stays NaN;
// - any number -> float6: one rounding to nearest even, beyond the largest
//   (±inf included) ±largest, NaN +largest; -> float8_e8m0fnu: c10's rule
//   on the exact value (Note [Rounding to e8m0]);
// - float16 / bfloat16 / float8 / float6 / e8m0 -> anything: the exact
//   value (a float), then the rule of the target;
// - float4_e2m1fn_x2: only to itself (it holds pairs of values);
// - -> bool: nonzero (NaN is nonzero; complex when either part is);
//   bool -> number: 0 or 1;
// - complex -> real: the real part; real -> complex: imaginary part 0.
//
// Note [Which conversions the hardware may do]
// Where one IEEE conversion instruction already rounds once to nearest
// even (int -> float32/float64, float64 -> float32), the plain C++ cast is
// used: with IEC 559 types (asserted below) it is the IEEE operation on
// every supported host and device. uint64 -> float32/float64 is one such
// instruction with AVX-512 (VCVTUSI2SS/SD) and on CUDA (cvt.rn); without
// AVX-512, g++ and clang convert a value of 2^63 or more as
// (v >> 1 | (v & 1)) converted and then doubled: the halving is exact but
// for the lowest bit, kept as a sticky bit far below the rounding position
// (bit 40 or 11 of 64), so the one rounding sees the same nearer neighbour
// and the same tie as the exact value would, and doubling is exact; clang's
// double sequence adds two exact halves with one rounding. Smaller integers
// are converted as int64, exactly so. An integer -> float16 goes through
// float32: the float32 rounding is exact below 2^24 and monotone, and
// every value it rounds to 65520 or more becomes inf in float16 anyway, so
// no second rounding can change a result. int32/int64/uint32/uint64 ->
// bfloat16 would be rounded twice that way (2^24 + 2^16 + 1 ties in
// float32, then again in bfloat16), so it is rounded from the integer
// directly, and so is every integer -> float8 (Note [Rounding to float8]).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "core/macros.h"
#include "core/numeric/dtype_traits.h"
#include "core/numeric/scalar_types.h"

namespace st {

static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "float and double are IEEE 754 binary32 and binary64");

namespace detail {

template <typename T>
struct IntRange;
// Constants rather than std::numeric_limits calls, which device code
// cannot make without --expt-relaxed-constexpr.
#define ST_DEFINE_INT_RANGE_(T, LO, HI, BITS) \
  template <>                                 \
  struct IntRange<T> {                        \
    static constexpr T min = LO;              \
    static constexpr T max = HI;              \
    static constexpr int bits = BITS;         \
  };
ST_DEFINE_INT_RANGE_(uint8_t, 0, UINT8_MAX, 8)
ST_DEFINE_INT_RANGE_(int8_t, INT8_MIN, INT8_MAX, 8)
ST_DEFINE_INT_RANGE_(int16_t, INT16_MIN, INT16_MAX, 16)
ST_DEFINE_INT_RANGE_(int32_t, INT32_MIN, INT32_MAX, 32)
ST_DEFINE_INT_RANGE_(int64_t, INT64_MIN, INT64_MAX, 64)
ST_DEFINE_INT_RANGE_(uint16_t, 0, UINT16_MAX, 16)
ST_DEFINE_INT_RANGE_(uint32_t, 0, UINT32_MAX, 32)
ST_DEFINE_INT_RANGE_(uint64_t, 0, UINT64_MAX, 64)
#undef ST_DEFINE_INT_RANGE_

// Two's-complement wrap. The unsigned cast is reduction modulo 2^bits by
// definition; the way back to a signed type avoids the conversion of an
// out-of-range value (implementation-defined before C++20). Compilers
// reduce both to a plain move or sign extension.
template <typename To, typename From>
ST_HOST_DEVICE ST_FORCE_INLINE To wrap_integer(From v) {
  using U = typename std::make_unsigned<To>::type;
  const U u = static_cast<U>(v);
  if constexpr (std::is_signed<To>::value) {
    constexpr U kSignBit = static_cast<U>(U(1) << (IntRange<To>::bits - 1));
    return u < kSignBit ? static_cast<To>(u)
                        : static_cast<To>(static_cast<To>(static_cast<U>(u - kSignBit)) + IntRange<To>::min);
  } else {
    return u;
  }
}

// Truncation toward zero with saturation and NaN -> 0. The range bounds
// are powers of two (or 0), exact in F: -2^(bits-1) and 2^(bits-1) for
// signed, 0 and 2^bits for unsigned. hi is (max / 2 + 1) * 2, so that
// 2^64 for uint64 is never an integer (max + 1 would wrap to 0). Inside
// (lo, hi) the truncated value is in range, so the cast is defined; the
// selects keep it branch-free.
template <typename To, typename F>
ST_HOST_DEVICE ST_FORCE_INLINE To float_to_integer(F v) {
  constexpr F lo = static_cast<F>(IntRange<To>::min);
  constexpr F hi = static_cast<F>(IntRange<To>::max / 2 + 1) * F(2);
  F in_range = v > lo ? v : lo;  // NaN and v <= lo -> lo
  in_range = in_range < hi ? in_range : lo;
  To r = static_cast<To>(in_range);
  r = v >= hi ? To(IntRange<To>::max) : r;
  return v != v ? To(0) : r;
}

template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE bool is_nonzero(T v) {
  if constexpr (std::is_same<T, Half>::value || std::is_same<T, BFloat16>::value) {
    return (v.bits & 0x7FFFu) != 0;  // ±0 are the only zeros
  } else if constexpr (IsFloat8<T>::value) {
    return (v.bits & 0x7Fu) != 0;
  } else if constexpr (std::is_same<T, Float8_e8m0fnu>::value) {
    return true;  // 2^-127 at least, or NaN: never zero
  } else if constexpr (IsFloat6<T>::value) {
    return (v.bits & T::format::kMaxFinite) != 0;
  } else if constexpr (IsComplex<T>::value) {
    return (v.re != 0) | (v.im != 0);
  } else {
    return v != 0;  // NaN != 0
  }
}

}  // namespace detail

template <typename To, typename From>
ST_HOST_DEVICE ST_FORCE_INLINE To convert(From v) {
  static_assert(std::is_same<To, From>::value || !(IsPacked<To>::value || IsPacked<From>::value),
                "float4_e2m1fn_x2 converts to nothing else (dtype_dispatch.h's converts())");
  if constexpr (std::is_same<To, From>::value) {
    return v;
  } else if constexpr (IsComplex<From>::value) {
    if constexpr (IsComplex<To>::value) {
      using T = typename To::value_type;
      return To{convert<T>(v.re), convert<T>(v.im)};
    } else if constexpr (std::is_same<To, bool>::value) {
      return detail::is_nonzero(v);
    } else {
      return convert<To>(v.re);
    }
  } else if constexpr (IsComplex<To>::value) {
    using T = typename To::value_type;
    return To{convert<T>(v), T(0)};
  } else if constexpr (std::is_same<To, bool>::value) {
    return detail::is_nonzero(v);
  } else if constexpr (std::is_same<From, bool>::value) {
    return convert<To>(static_cast<uint8_t>(v ? 1 : 0));
  } else if constexpr (std::is_same<From, Half>::value) {
    return convert<To>(half_to_float(v));  // exact, so only the next step may round
  } else if constexpr (std::is_same<From, BFloat16>::value) {
    return convert<To>(bfloat16_to_float(v));
  } else if constexpr (IsFloat8<From>::value) {
    return convert<To>(float8_to_float(v));
  } else if constexpr (std::is_same<From, Float8_e8m0fnu>::value) {
    return convert<To>(e8m0_to_float(v));
  } else if constexpr (IsFloat6<From>::value) {
    return convert<To>(float6_to_float(v));
  } else if constexpr (std::is_same<To, Float8_e8m0fnu>::value) {
    if constexpr (std::is_same<From, double>::value) {
      return double_to_e8m0(v);
    } else if constexpr (std::is_same<From, float>::value) {
      return float_to_e8m0(v);
    } else {
      return integer_to_e8m0(v);
    }
  } else if constexpr (IsFloat6<To>::value) {
    if constexpr (std::is_same<From, double>::value) {
      return double_to_float6<To>(v);
    } else if constexpr (std::is_same<From, float>::value) {
      return float_to_float6<To>(v);
    } else {
      return integer_to_float6<To>(v);
    }
  } else if constexpr (IsFloat8<To>::value) {
    if constexpr (std::is_same<From, double>::value) {
      return double_to_float8<To>(v);
    } else if constexpr (std::is_same<From, float>::value) {
      return float_to_float8<To>(v);
    } else {
      return integer_to_float8<To>(v);
    }
  } else if constexpr (std::is_same<To, Half>::value) {
    if constexpr (std::is_same<From, double>::value) {
      return double_to_half(v);
    } else {
      // float itself, or an integer through float (Note [Which conversions
      // the hardware may do]).
      return float_to_half(static_cast<float>(v));
    }
  } else if constexpr (std::is_same<To, BFloat16>::value) {
    if constexpr (std::is_same<From, double>::value) {
      return double_to_bfloat16(v);
    } else if constexpr (std::is_same<From, float>::value || sizeof(From) <= 2) {
      return float_to_bfloat16(static_cast<float>(v));  // 8- and 16-bit integers are exact in float
    } else {
      return integer_to_bfloat16(is_negative(v), magnitude_of(v));
    }
  } else if constexpr (std::is_floating_point<To>::value) {
    return static_cast<To>(v);  // Note [Which conversions the hardware may do]
  } else if constexpr (std::is_floating_point<From>::value) {
    return detail::float_to_integer<To>(v);
  } else {
    return detail::wrap_integer<To>(v);
  }
}

}  // namespace st
