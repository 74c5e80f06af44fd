// The scalar conversion rules of the hot pairs, on bit patterns: the rules
// of core/scalar_types.h and core/convert.h (API.md: one rounding to
// nearest even from the exact value, overflow to +-inf, NaN stays NaN),
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

}  // namespace cpu
}  // namespace st
