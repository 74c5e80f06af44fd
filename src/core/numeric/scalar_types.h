// The element types that C++ lacks: float16, bfloat16, the float8, float6
// and float4 formats, the MX scale and a complex number that is a plain struct. Each is trivially
// copyable with the size and alignment of its dtype, so a tensor's bytes
// can be read as an array of them, on the host and in CUDA kernels.
//
// Widening to float is exact. Narrowing rounds once, from the exact value,
// to nearest even, from float and from double alike (the conversion rules
// of include/stride.h; PyTorch narrows double through float, which rounds
// twice).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/macros.h"
#include "core/numeric/float_bits.h"

namespace st {

// IEEE 754 binary16: 1 sign, 5 exponent, 10 mantissa bits.
struct alignas(2) Half {
  uint16_t bits;

  ST_HOST_DEVICE static constexpr Half from_bits(uint16_t b) { return Half{b}; }
};

// The upper half of an IEEE binary32: 1 sign, 8 exponent, 7 mantissa bits.
struct alignas(2) BFloat16 {
  uint16_t bits;

  ST_HOST_DEVICE static constexpr BFloat16 from_bits(uint16_t b) { return BFloat16{b}; }
};

// OCP 8-bit floats (PyTorch's c10::Float8_e4m3fn and c10::Float8_e5m2):
// 1 sign bit, then e4m3fn: 4 exponent bits (bias 7), 3 mantissa bits, no
// infinity, NaN only at S.1111.111, largest 448; e5m2: 5 exponent bits
// (bias 15), 2 mantissa bits, IEEE-like (the upper byte of a float16),
// largest 57344. Both have subnormals.
struct alignas(1) Float8_e4m3fn {
  using format = detail::Float8Format<4, 3, false>;
  uint8_t bits;

  ST_HOST_DEVICE static constexpr Float8_e4m3fn from_bits(uint8_t b) { return Float8_e4m3fn{b}; }
};

struct alignas(1) Float8_e5m2 {
  using format = detail::Float8Format<5, 2, true>;
  uint8_t bits;

  ST_HOST_DEVICE static constexpr Float8_e5m2 from_bits(uint8_t b) { return Float8_e5m2{b}; }
};

// OCP MX v1.0's other element types. float8_e8m0fnu, the MX block scale:
// 2^(bits - 127), 0xFF NaN, no sign, zero or infinity (Note [Rounding to
// e8m0]). float6_e2m3fn and float6_e3m2fn: one value in the low 6 bits of a
// byte (sign, 2 or 3 exponent bits with bias 1 or 3, 3 or 2 mantissa bits;
// largest 7.5 and 28; no infinity or NaN), the high 2 bits written 0 and
// ignored when read. float4_e2m1fn_x2: two E2M1 values in a byte, the
// first in the low nibble; it holds pairs, not one number, so nothing
// converts to or from it (DTypeKind::Packed), and copies keep its bytes.
struct alignas(1) Float8_e8m0fnu {
  uint8_t bits;

  ST_HOST_DEVICE static constexpr Float8_e8m0fnu from_bits(uint8_t b) { return Float8_e8m0fnu{b}; }
};

struct alignas(1) Float6_e2m3fn {
  using format = detail::SaturatingFormat<2, 3>;
  uint8_t bits;

  ST_HOST_DEVICE static constexpr Float6_e2m3fn from_bits(uint8_t b) { return Float6_e2m3fn{b}; }
};

struct alignas(1) Float6_e3m2fn {
  using format = detail::SaturatingFormat<3, 2>;
  uint8_t bits;

  ST_HOST_DEVICE static constexpr Float6_e3m2fn from_bits(uint8_t b) { return Float6_e3m2fn{b}; }
};

struct alignas(1) Float4_e2m1fn_x2 {
  using format = detail::SaturatingFormat<2, 1>;  // of each nibble
  uint8_t bits;

  ST_HOST_DEVICE static constexpr Float4_e2m1fn_x2 from_bits(uint8_t b) { return Float4_e2m1fn_x2{b}; }
};

template <typename T>
struct IsFloat6 {
  static constexpr bool value = false;
};
template <>
struct IsFloat6<Float6_e2m3fn> {
  static constexpr bool value = true;
};
template <>
struct IsFloat6<Float6_e3m2fn> {
  static constexpr bool value = true;
};

// An element type that holds several values, which no conversion reads.
template <typename T>
struct IsPacked {
  static constexpr bool value = std::is_same<T, Float4_e2m1fn_x2>::value;
};

template <typename T>
struct IsFloat8 {
  static constexpr bool value = false;
};
template <>
struct IsFloat8<Float8_e4m3fn> {
  static constexpr bool value = true;
};
template <>
struct IsFloat8<Float8_e5m2> {
  static constexpr bool value = true;
};

// Two T side by side, real part first, like C's `T _Complex` and
// std::complex<T>; aligned to its full size as PyTorch's c10::complex is, so
// a CUDA kernel moves one in a single load.
template <typename T>
struct alignas(2 * sizeof(T)) complex {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "complex holds float or double");
  using value_type = T;

  T re;
  T im;

  ST_HOST_DEVICE constexpr T real() const { return re; }
  ST_HOST_DEVICE constexpr T imag() const { return im; }
};

static_assert(sizeof(Half) == 2 && alignof(Half) == 2, "float16 is 2 bytes");
static_assert(sizeof(BFloat16) == 2 && alignof(BFloat16) == 2, "bfloat16 is 2 bytes");
static_assert(sizeof(Float8_e4m3fn) == 1 && sizeof(Float8_e5m2) == 1 && sizeof(Float8_e8m0fnu) == 1,
              "a float8 is 1 byte");
static_assert(sizeof(Float6_e2m3fn) == 1 && sizeof(Float6_e3m2fn) == 1 && sizeof(Float4_e2m1fn_x2) == 1,
              "a float6, and a pair of float4, take 1 byte");
static_assert(sizeof(complex<float>) == 8 && alignof(complex<float>) == 8, "complex64 is 8 bytes");
static_assert(sizeof(complex<double>) == 16 && alignof(complex<double>) == 16, "complex128 is 16 bytes");
static_assert(std::is_trivially_copyable<Half>::value && std::is_trivially_copyable<BFloat16>::value &&
                  std::is_trivially_copyable<Float8_e4m3fn>::value && std::is_trivially_copyable<Float8_e5m2>::value &&
                  std::is_trivially_copyable<Float8_e8m0fnu>::value &&
                  std::is_trivially_copyable<Float6_e2m3fn>::value &&
                  std::is_trivially_copyable<Float6_e3m2fn>::value &&
                  std::is_trivially_copyable<Float4_e2m1fn_x2>::value &&
                  std::is_trivially_copyable<complex<float>>::value &&
                  std::is_trivially_copyable<complex<double>>::value,
              "element types are copied as bytes");
static_assert(std::is_standard_layout<complex<float>>::value && std::is_standard_layout<complex<double>>::value,
              "re is at offset 0, im right after it");

// Exact.
ST_HOST_DEVICE ST_FORCE_INLINE float half_to_float(Half h) {
  const uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000u) << 16;
  const uint32_t a = h.bits & 0x7FFFu;
  uint32_t f;
  if (ST_LIKELY(a - 0x0400u < 0x7800u)) {
    f = (a << 13) + 0x38000000u;  // normal: exponent bias 15 -> 127
  } else if (a >= 0x7C00u) {
    f = (a << 13) | 0x7F800000u;  // inf, or NaN with its payload
  } else {
    // Zero or subnormal: a * 2^-24, exact in float and never subnormal there.
    f = detail::float_to_bits(static_cast<float>(a) * 0x1p-24f);
  }
  return detail::bits_to_float(sign | f);
}

// Exact.
ST_HOST_DEVICE ST_FORCE_INLINE float bfloat16_to_float(BFloat16 b) {
  return detail::bits_to_float(static_cast<uint32_t>(b.bits) << 16);
}

ST_HOST_DEVICE ST_FORCE_INLINE Half float_to_half(float f) {
  return Half{detail::round_to_16bit_float<uint32_t, 8, 23, 5, 10>(detail::float_to_bits(f))};
}

ST_HOST_DEVICE ST_FORCE_INLINE Half double_to_half(double d) {
  return Half{detail::round_to_16bit_float<uint64_t, 11, 52, 5, 10>(detail::double_to_bits(d))};
}

// bfloat16 has float's exponent range, so rounding the low 16 bits away is
// the whole story: adding 0x7FFF plus the kept lsb carries exactly when the
// dropped half is above the midpoint, or at it with an odd kept part; the
// carry runs into the exponent, up to infinity.
ST_HOST_DEVICE ST_FORCE_INLINE BFloat16 float_to_bfloat16(float f) {
  const uint32_t u = detail::float_to_bits(f);
  if (ST_UNLIKELY((u & 0x7FFFFFFFu) > 0x7F800000u)) {
    return BFloat16{static_cast<uint16_t>((u >> 16) | 0x0040u)};  // quiet NaN, sign and payload kept
  }
  return BFloat16{static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16)};
}

ST_HOST_DEVICE ST_FORCE_INLINE BFloat16 double_to_bfloat16(double d) {
  return BFloat16{detail::round_to_16bit_float<uint64_t, 11, 52, 8, 7>(detail::double_to_bits(d))};
}

// An integer's sign and magnitude; the unsigned negation gives
// |INT64_MIN| = 2^63 without signed overflow.
template <typename I>
ST_HOST_DEVICE ST_FORCE_INLINE bool is_negative(I v) {
  if constexpr (std::is_signed<I>::value) {
    return v < 0;
  } else {
    return false;
  }
}

template <typename I>
ST_HOST_DEVICE ST_FORCE_INLINE uint64_t magnitude_of(I v) {
  const uint64_t u = static_cast<uint64_t>(v);
  return is_negative(v) ? 0 - u : u;
}

// An integer of up to 64 significant bits (int64, uint64): round them to
// bfloat16's 8 directly (through float they would be rounded at 24 bits
// first). The value is at most 2^64, far below bfloat16's overflow.
ST_HOST_DEVICE ST_FORCE_INLINE BFloat16 integer_to_bfloat16(bool negative, uint64_t magnitude) {
  const uint32_t sign = negative ? 0x8000u : 0u;
  if (magnitude == 0) {
    return BFloat16{0};
  }
  const int lz = detail::count_leading_zeros64(magnitude);
  // Leading bit at bit 63; keep 8 significant bits: [0x80, 0x100].
  const uint32_t significand =
      static_cast<uint32_t>(detail::round_shift_right_even<uint64_t>(magnitude << lz, 56));
  // The leading bit of the significand adds one to the exponent field, and a
  // rounding carry to 0x100 one more: exponent (63 - lz) biased by 127.
  const uint32_t bits = (static_cast<uint32_t>(63 - lz + 127 - 1) << 7) + significand;
  return BFloat16{static_cast<uint16_t>(sign | bits)};
}

// Exact: every float8 value is a float.
ST_HOST_DEVICE ST_FORCE_INLINE float float8_to_float(Float8_e4m3fn v) {
  const uint32_t sign = static_cast<uint32_t>(v.bits & 0x80u) << 24;
  const uint32_t a = v.bits & 0x7Fu;
  uint32_t f;
  if (ST_LIKELY(a >= 0x08u && a != 0x7Fu)) {
    f = (a << 20) + (120u << 23);  // normal: exponent bias 7 -> 127, mantissa to the top
  } else if (a == 0x7Fu) {
    f = 0x7FF00000u;  // the NaN: a quiet NaN with the mantissa bits shifted up, as c10's
  } else {
    f = detail::float_to_bits(static_cast<float>(a) * 0x1p-9f);  // zero or subnormal: a * 2^-9, exact
  }
  return detail::bits_to_float(sign | f);
}

// Exact: float8_e5m2 is the upper byte of a float16, NaN payloads included.
ST_HOST_DEVICE ST_FORCE_INLINE float float8_to_float(Float8_e5m2 v) {
  return half_to_float(Half{static_cast<uint16_t>(v.bits << 8)});
}

// Rounded once from the exact value (Note [Rounding to float8] in
// core/numeric/float_bits.h): float and double from their bits, integers from
// their magnitude.
template <typename F8>
ST_HOST_DEVICE ST_FORCE_INLINE F8 float_to_float8(float f) {
  return F8{detail::binary_to_float8<typename F8::format, uint32_t, 8, 23>(detail::float_to_bits(f))};
}

template <typename F8>
ST_HOST_DEVICE ST_FORCE_INLINE F8 double_to_float8(double d) {
  return F8{detail::binary_to_float8<typename F8::format, uint64_t, 11, 52>(detail::double_to_bits(d))};
}

template <typename F8, typename I>
ST_HOST_DEVICE ST_FORCE_INLINE F8 integer_to_float8(I v) {
  return F8{detail::integer_to_float8<typename F8::format>(is_negative(v), magnitude_of(v))};
}

// Exact: 2^(bits - 127), a float32 subnormal for 0x00 (2^-127); 0xFF is NaN.
ST_HOST_DEVICE ST_FORCE_INLINE float e8m0_to_float(Float8_e8m0fnu v) {
  const uint32_t f = v.bits == 0xFFu ? 0x7FC00000u : v.bits == 0 ? 0x00400000u : static_cast<uint32_t>(v.bits) << 23;
  return detail::bits_to_float(f);
}

// Exact: the value of a saturating format's bits (sign at Format::kSign;
// bits above it ignored), as a float.
template <typename Format>
ST_HOST_DEVICE ST_FORCE_INLINE float narrow_to_float(uint32_t bits) {
  const uint32_t sign = (bits & Format::kSign) != 0 ? 0x80000000u : 0u;
  const uint32_t a = bits & Format::kMaxFinite;
  const uint32_t field = a >> Format::kMant;
  uint32_t f;
  if (field != 0) {
    f = ((field + 127u - static_cast<uint32_t>(Format::kBias)) << 23) |
        ((a & Format::kMantMask) << (23 - Format::kMant));
  } else {
    // Zero or subnormal: a * 2^(1 - bias - kMant), exact and normal in float.
    constexpr uint32_t kUnit = static_cast<uint32_t>(127 + 1 - Format::kBias - Format::kMant) << 23;
    f = detail::float_to_bits(static_cast<float>(a) * detail::bits_to_float(kUnit));
  }
  return detail::bits_to_float(sign | f);
}

template <typename F6>
ST_HOST_DEVICE ST_FORCE_INLINE float float6_to_float(F6 v) {
  return narrow_to_float<typename F6::format>(v.bits);
}

// Rounded once from the exact value (Note [Rounding to e8m0]).
ST_HOST_DEVICE ST_FORCE_INLINE Float8_e8m0fnu float_to_e8m0(float f) {
  return Float8_e8m0fnu{detail::binary_to_e8m0<uint32_t, 8, 23>(detail::float_to_bits(f))};
}

ST_HOST_DEVICE ST_FORCE_INLINE Float8_e8m0fnu double_to_e8m0(double d) {
  return Float8_e8m0fnu{detail::binary_to_e8m0<uint64_t, 11, 52>(detail::double_to_bits(d))};
}

template <typename I>
ST_HOST_DEVICE ST_FORCE_INLINE Float8_e8m0fnu integer_to_e8m0(I v) {
  const uint64_t m = magnitude_of(v);
  return Float8_e8m0fnu{m == 0 ? uint8_t(0) : detail::round_to_e8m0(m, 0)};
}

// Rounded once from the exact value to nearest even, saturating, NaN to
// +max (detail::special_in).
template <typename F6>
ST_HOST_DEVICE ST_FORCE_INLINE F6 float_to_float6(float f) {
  return F6{detail::binary_to_float8<typename F6::format, uint32_t, 8, 23>(detail::float_to_bits(f))};
}

template <typename F6>
ST_HOST_DEVICE ST_FORCE_INLINE F6 double_to_float6(double d) {
  return F6{detail::binary_to_float8<typename F6::format, uint64_t, 11, 52>(detail::double_to_bits(d))};
}

template <typename F6, typename I>
ST_HOST_DEVICE ST_FORCE_INLINE F6 integer_to_float6(I v) {
  return F6{detail::integer_to_float8<typename F6::format>(is_negative(v), magnitude_of(v))};
}

}  // namespace st
