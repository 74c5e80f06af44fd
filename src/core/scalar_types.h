// The element types that C++ lacks: float16, bfloat16 and a complex number
// that is a plain struct. Each is trivially copyable with the size and
// alignment of its dtype, so a tensor's bytes can be read as an array of
// them, on the host and in CUDA kernels.
//
// Widening to float is exact. Narrowing rounds once, from the exact value,
// to nearest even, from float and from double alike (API.md, Conversion
// rules; PyTorch narrows double through float, which rounds twice).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/float_bits.h"
#include "core/macros.h"

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
static_assert(sizeof(complex<float>) == 8 && alignof(complex<float>) == 8, "complex64 is 8 bytes");
static_assert(sizeof(complex<double>) == 16 && alignof(complex<double>) == 16, "complex128 is 16 bytes");
static_assert(std::is_trivially_copyable<Half>::value && std::is_trivially_copyable<BFloat16>::value &&
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

// An int64 has up to 63 significant bits: round them to bfloat16's 8
// directly (through float they would be rounded at 24 bits first).
ST_HOST_DEVICE ST_FORCE_INLINE BFloat16 int64_to_bfloat16(int64_t v) {
  const uint32_t sign = v < 0 ? 0x8000u : 0u;
  // Unsigned negation: |INT64_MIN| = 2^63 without signed overflow.
  const uint64_t magnitude = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
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

}  // namespace st
