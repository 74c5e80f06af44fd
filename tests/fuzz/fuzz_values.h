// Element values for the C API fuzz target, written independently of the
// library: encoding and decoding every dtype, and the converted value a copy
// must produce.
//
// The fuzzer keeps every tensor it checks inside a small domain: real and
// imaginary parts are multiples of 1/2 in [0, 100]. Every dtype but the
// float8 ones holds those values exactly (float16 and bfloat16 included;
// integers hold their truncation), so the conversion rules of
// include/stride.h reduce to: → bool is "either part nonzero", → integer
// truncates the real part, → float keeps the real part, → complex keeps
// both parts (a real source has imaginary 0). → float8 rounds the real
// part to 4 (e4m3fn) or 3 (e5m2) significant bits, to nearest even; the
// result is again a domain value (at most 96, a multiple of 1/2). → float6
// rounds likewise (4 or 3 significant bits) and saturates at 7.5 (e2m3)
// or 28 (e3m2): a domain value again. → float8_e8m0fnu follows c10's rule
// (the nearer power of two, ties up; 0 gives 2^-127), which can leave the
// domain (0 -> 2^-127, 96 -> 128): a copy into it is checked, and its
// destination then unchecked. float4_e2m1fn_x2 holds a pair of E2M1
// values, read as (re, im) = (low nibble, high nibble); it copies only to
// itself (converts()), so its values never meet another dtype's rules.
// Values outside the domain (from st_fill with any double) mark a storage
// unchecked instead of asking this file for saturation or rounding rules.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "stride.h"

namespace fuzz {

struct Value {
  double re = 0;
  double im = 0;
};

inline bool in_domain(double v) { return v >= 0 && v <= 100 && std::floor(v * 2) == v * 2; }

inline bool is_complex(st_dtype d) { return d == ST_COMPLEX64 || d == ST_COMPLEX128; }

inline size_t item_size(st_dtype d) {
  static const size_t sizes[21] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16, 2, 4, 8, 1, 1, 1, 1, 1, 1};
  return sizes[static_cast<int>(d)];
}

// Whether st_copy takes dst <- src: float4_e2m1fn_x2 copies only to itself.
inline bool converts(st_dtype dst, st_dtype src) {
  return dst == src || (dst != ST_FLOAT4_E2M1FN_X2 && src != ST_FLOAT4_E2M1FN_X2);
}

// Whether st_fill and st_zero take the dtype: one that holds one number.
inline bool fillable(st_dtype d) { return d != ST_FLOAT4_E2M1FN_X2; }

// Whether st_copy_scaled takes the dtype: real, and none of 0.3's MX dtypes.
inline bool scalable(st_dtype d) {
  return !is_complex(d) && d != ST_FLOAT8_E8M0FNU && d != ST_FLOAT4_E2M1FN_X2 && d != ST_FLOAT6_E2M3FN &&
         d != ST_FLOAT6_E3M2FN;
}

// IEEE binary16 from its bits (every class: the fuzzer may decode
// out-of-domain values too).
inline double half_to_double(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) {
    v = std::ldexp(mant, -24);
  } else if (exp == 31) {
    v = mant ? NAN : INFINITY;
  } else {
    v = std::ldexp(mant + 1024, exp - 25);
  }
  return sign ? -v : v;
}

// binary16 bits of a domain value (exactly representable: at most 8
// significant bits, exponent in range).
inline uint16_t domain_to_half(double v) {
  if (v == 0) return 0;
  int e;
  double m = std::frexp(v, &e);  // v = m * 2^e, m in [0.5, 1)
  const uint16_t mant = static_cast<uint16_t>((m * 2 - 1) * 1024);
  const uint16_t exp = static_cast<uint16_t>(e - 1 + 15);
  return static_cast<uint16_t>(exp << 10 | mant);
}

inline double bfloat16_to_double(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline uint16_t domain_to_bfloat16(double v) {
  const float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return static_cast<uint16_t>(bits >> 16);  // the low half is zero for a domain value
}

// A float8 pattern's value (every class): `mant` mantissa bits, exponent
// bias `bias`; e5m2 (mant 2) has IEEE inf and NaN, e4m3fn (mant 3) only the
// NaN S.1111.111.
inline double float8_to_double(uint8_t b, int mant, int bias) {
  const int sign = b >> 7, exp = (b & 0x7f) >> mant, m = b & ((1 << mant) - 1);
  double v;
  if (mant == 2 && exp == 31) {
    v = m ? NAN : INFINITY;
  } else if (mant == 3 && (b & 0x7f) == 0x7f) {
    v = NAN;
  } else if (exp == 0) {
    v = std::ldexp(m, 1 - bias - mant);
  } else {
    v = std::ldexp(m + (1 << mant), exp - bias - mant);
  }
  return sign ? -v : v;
}

// A domain value rounded to `mant` + 1 significant bits, ties to even
// (nearbyint in the default rounding mode); domain values lie far inside
// both float8 ranges, so neither subnormals nor overflow arise.
inline double round_to_float8(double v, int mant) {
  if (v == 0) return 0;
  int e;
  std::frexp(v, &e);  // 2^(e-1) <= v < 2^e
  const double scale = std::ldexp(1.0, mant + 1 - e);
  return std::nearbyint(v * scale) / scale;
}

// float8 (or float6, float4) bits of a value it holds (non-negative).
inline uint8_t domain_to_float8(double v, int mant, int bias) {
  if (v == 0) return 0;
  const double min_normal = std::ldexp(1.0, 1 - bias);
  if (v < min_normal) return static_cast<uint8_t>(v / std::ldexp(1.0, 1 - bias - mant));  // a subnormal
  int e;
  const double m = std::frexp(v, &e);  // v = m * 2^e, m in [0.5, 1)
  const int mantissa = static_cast<int>((m * 2 - 1) * (1 << mant));
  return static_cast<uint8_t>((e - 1 + bias) << mant | mantissa);
}

// A float6 or E2M1 pattern's value (`bits` holds sign, exponent and
// mantissa; no inf or NaN).
inline double small_float_to_double(uint8_t b, int exp_bits, int mant, int bias) {
  const int sign = (b >> (exp_bits + mant)) & 1, exp = (b >> mant) & ((1 << exp_bits) - 1), m = b & ((1 << mant) - 1);
  const double v = exp == 0 ? std::ldexp(m, 1 - bias - mant) : std::ldexp(m + (1 << mant), exp - bias - mant);
  return sign ? -v : v;
}

// c10's e8m0 rule on a value (include/stride.h): the nearer power of two
// in linear space, ties up; 2^-127 at the least, NaN for ±inf, NaN, and
// 2^128 or more. The sign is ignored.
inline double to_e8m0(double v) {
  if (std::isnan(v) || std::isinf(v)) return NAN;
  const double a = std::fabs(v);
  if (a <= std::ldexp(1.0, -127)) return std::ldexp(1.0, -127);
  if (a < std::ldexp(1.0, -126)) return std::ldexp(1.0, -126);
  int e;
  const double m = std::frexp(a, &e);  // a = m · 2^e, m in [0.5, 1)
  const int k = e - 1 + (m >= 0.75 ? 1 : 0);
  return k >= 128 ? NAN : std::ldexp(1.0, k);
}

// The nearer E2M1 value of a non-negative domain value, ties to even, 6 beyond.
inline double to_e2m1(double v) { return std::fmin(round_to_float8(v, 1), 6.0); }

inline uint8_t e2m1_code(double v) {
  const bool negative = std::signbit(v);
  return static_cast<uint8_t>((negative ? 8 : 0) | domain_to_float8(std::fabs(v), 1, 1));
}

template <typename T>
T load(const unsigned char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
void store(unsigned char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

inline Value decode(st_dtype d, const unsigned char* p) {
  switch (d) {
    case ST_BOOL: return {p[0] != 0 ? 1.0 : 0.0, 0};
    case ST_UINT8: return {static_cast<double>(p[0]), 0};
    case ST_INT8: return {static_cast<double>(load<int8_t>(p)), 0};
    case ST_INT16: return {static_cast<double>(load<int16_t>(p)), 0};
    case ST_INT32: return {static_cast<double>(load<int32_t>(p)), 0};
    case ST_INT64: return {static_cast<double>(load<int64_t>(p)), 0};
    case ST_FLOAT16: return {half_to_double(load<uint16_t>(p)), 0};
    case ST_BFLOAT16: return {bfloat16_to_double(load<uint16_t>(p)), 0};
    case ST_FLOAT32: return {load<float>(p), 0};
    case ST_FLOAT64: return {load<double>(p), 0};
    case ST_COMPLEX64: return {load<float>(p), load<float>(p + 4)};
    case ST_COMPLEX128: return {load<double>(p), load<double>(p + 8)};
    case ST_UINT16: return {static_cast<double>(load<uint16_t>(p)), 0};
    case ST_UINT32: return {static_cast<double>(load<uint32_t>(p)), 0};
    case ST_UINT64: return {static_cast<double>(load<uint64_t>(p)), 0};
    case ST_FLOAT8_E4M3FN: return {float8_to_double(p[0], 3, 7), 0};
    case ST_FLOAT8_E5M2: return {float8_to_double(p[0], 2, 15), 0};
    case ST_FLOAT8_E8M0FNU: return {p[0] == 0xFF ? NAN : std::ldexp(1.0, p[0] - 127), 0};
    case ST_FLOAT4_E2M1FN_X2:
      return {small_float_to_double(p[0] & 0xF, 2, 1, 1), small_float_to_double(p[0] >> 4, 2, 1, 1)};
    case ST_FLOAT6_E2M3FN: return {small_float_to_double(p[0] & 0x3F, 2, 3, 1), 0};
    case ST_FLOAT6_E3M2FN: return {small_float_to_double(p[0] & 0x3F, 3, 2, 3), 0};
  }
  return {};
}

// What converting a domain value to `d` gives (include/stride.h, conversion
// rules).
inline Value convert(Value v, st_dtype d) {
  switch (d) {
    case ST_BOOL: return {(v.re != 0 || v.im != 0) ? 1.0 : 0.0, 0};
    case ST_UINT8:
    case ST_INT8:
    case ST_INT16:
    case ST_INT32:
    case ST_INT64:
    case ST_UINT16:
    case ST_UINT32:
    case ST_UINT64: return {std::trunc(v.re), 0};
    case ST_FLOAT8_E4M3FN: return {round_to_float8(v.re, 3), 0};
    case ST_FLOAT8_E5M2: return {round_to_float8(v.re, 2), 0};
    case ST_FLOAT8_E8M0FNU: return {to_e8m0(v.re), 0};
    case ST_FLOAT4_E2M1FN_X2: return {to_e2m1(v.re), to_e2m1(v.im)};  // its own values only (initialize_storage)
    case ST_FLOAT6_E2M3FN: return {std::fmin(round_to_float8(v.re, 3), 7.5), 0};
    case ST_FLOAT6_E3M2FN: return {std::fmin(round_to_float8(v.re, 2), 28.0), 0};
    case ST_FLOAT16:
    case ST_BFLOAT16:
    case ST_FLOAT32:
    case ST_FLOAT64: return {v.re, 0};
    case ST_COMPLEX64:
    case ST_COMPLEX128: return v;
  }
  return {};
}

// Writes a domain value (already converted to `d`) at p.
inline void encode(st_dtype d, unsigned char* p, Value v) {
  switch (d) {
    case ST_BOOL: p[0] = v.re != 0 ? 1 : 0; break;
    case ST_UINT8: p[0] = static_cast<uint8_t>(v.re); break;
    case ST_INT8: store<int8_t>(p, static_cast<int8_t>(v.re)); break;
    case ST_INT16: store<int16_t>(p, static_cast<int16_t>(v.re)); break;
    case ST_INT32: store<int32_t>(p, static_cast<int32_t>(v.re)); break;
    case ST_INT64: store<int64_t>(p, static_cast<int64_t>(v.re)); break;
    case ST_FLOAT16: store<uint16_t>(p, domain_to_half(v.re)); break;
    case ST_BFLOAT16: store<uint16_t>(p, domain_to_bfloat16(v.re)); break;
    case ST_FLOAT32: store<float>(p, static_cast<float>(v.re)); break;
    case ST_FLOAT64: store<double>(p, v.re); break;
    case ST_COMPLEX64:
      store<float>(p, static_cast<float>(v.re));
      store<float>(p + 4, static_cast<float>(v.im));
      break;
    case ST_COMPLEX128:
      store<double>(p, v.re);
      store<double>(p + 8, v.im);
      break;
    case ST_UINT16: store<uint16_t>(p, static_cast<uint16_t>(v.re)); break;
    case ST_UINT32: store<uint32_t>(p, static_cast<uint32_t>(v.re)); break;
    case ST_UINT64: store<uint64_t>(p, static_cast<uint64_t>(v.re)); break;
    case ST_FLOAT8_E4M3FN: p[0] = domain_to_float8(v.re, 3, 7); break;
    case ST_FLOAT8_E5M2: p[0] = domain_to_float8(v.re, 2, 15); break;
    case ST_FLOAT8_E8M0FNU: {
      int e;
      std::frexp(v.re, &e);  // a power of two 2^(e-1)
      p[0] = static_cast<uint8_t>(e - 1 + 127);
      break;
    }
    case ST_FLOAT4_E2M1FN_X2: p[0] = static_cast<uint8_t>(e2m1_code(v.re) | e2m1_code(v.im) << 4); break;
    case ST_FLOAT6_E2M3FN: p[0] = domain_to_float8(v.re, 3, 1); break;
    case ST_FLOAT6_E3M2FN: p[0] = domain_to_float8(v.re, 2, 3); break;
  }
}

inline bool same_value(Value a, Value b) { return a.re == b.re && a.im == b.im; }

}  // namespace fuzz
