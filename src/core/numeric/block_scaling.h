// The rules of the block-scaled formats (include/stride.h, "Block-scaled
// formats"): a block's scale, each element's code, and the way back, for
// one block at a time, on the host and in CUDA kernels alike, so that the
// CPU's row kernels and the CUDA kernels run the same code.
//
// Note [Exact block scales]
// Every source dtype (float32, float16, bfloat16, float64) is exact as a
// double, so a block is read as doubles, and its amax is kept as the bits of
// the largest finite magnitude (non-negative doubles order as their bits),
// with NaN and infinity flagged apart. floor(log2 amax) is the position of
// its leading bit, read from the bits: never a float log2, which rounds
// 2^k - 1 ulp up to k. RCEIL's smallest k with amax <= max · 2^k is then
// floor(log2 amax) - emax, plus one when amax's significand (its bits
// after the leading one) exceeds max's (every max has emax as its own
// floor(log2)): exact, where TransformerEngine and cuBLAS compute the float32
// product amax · (1/max) and round it up to a power of two, with which it
// agrees for float32 sources. With X = 2^k, x / X is x's own significand
// with its exponent moved, so an element is rounded once from its exact
// value (round_to_float8 of core/numeric/float_bits.h), for every source
// dtype. NVFP4's two quotients, amax / (6 g) and x / (s g), are divisions
// in float64: the divisor is exact there (a product of at most 26 and 28
// significant bits), and a quotient rounded to float64's 53 bits lands on
// a midpoint of float8_e4m3fn's or E2M1's grid only if the exact quotient
// is that midpoint (a midpoint times the divisor has too few significant
// bits to differ from the dividend by less than the dividend's ulp), so the
// second rounding gives what rounding the exact quotient would.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/macros.h"
#include "core/numeric/block_format.h"
#include "core/numeric/convert.h"
#include "core/numeric/float_bits.h"
#include "core/numeric/scalar_types.h"

namespace st {
namespace blocks {

constexpr uint64_t kAbsMask = ~(uint64_t(1) << 63);
constexpr uint64_t kInfBits = uint64_t(0x7FF) << 52;
// The positive quiet NaN: what dequantizing writes for every NaN, so that the
// bits do not depend on which NaN operand the compiler's multiply keeps
// (x86 keeps the first, CUDA writes its canonical NaN).
constexpr uint64_t kQuietNaNBits = kInfBits | (uint64_t(1) << 51);

// A scale exponent that stands for the NaN block.
constexpr int kNaNExponent = 128;

// A source element as the double it equals exactly.
template <typename S>
ST_HOST_DEVICE ST_FORCE_INLINE double exact_double(S v) {
  return convert<double>(v);
}

// The largest |x| of a block (Note [Exact block scales]).
struct BlockAmax {
  uint64_t bits = 0;  // of the largest finite magnitude, a non-negative double
  bool nan = false;
  bool inf = false;

  ST_HOST_DEVICE ST_FORCE_INLINE void add(double x) {
    const uint64_t a = detail::double_to_bits(x) & kAbsMask;
    nan |= a > kInfBits;
    inf |= a == kInfBits;
    bits = (a < kInfBits && a > bits) ? a : bits;
  }
  // The amax of the union of two parts of a block.
  ST_HOST_DEVICE ST_FORCE_INLINE void merge(const BlockAmax& o) {
    nan |= o.nan;
    inf |= o.inf;
    bits = o.bits > bits ? o.bits : bits;
  }
};

// A finite non-negative double, given by its bits, as m · 2^e (m = 0 for zero).
struct Exact {
  uint64_t m;
  int e;
};
ST_HOST_DEVICE ST_FORCE_INLINE Exact exact_magnitude(uint64_t abs_bits) {
  const int field = static_cast<int>(abs_bits >> 52);
  const uint64_t mant = abs_bits & ((uint64_t(1) << 52) - 1);
  return field == 0 ? Exact{mant, -1074} : Exact{mant | (uint64_t(1) << 52), field - 1075};
}

// ---- MX --------------------------------------------------------------------

// k of the block's scale X = 2^k by `rule`, clamped below at -127; or
// kNaNExponent for a block with a NaN or ±inf, or whose k exceeds 127.
// emax and max_fraction: the format's (BlockFormatInfo).
ST_HOST_DEVICE inline int mx_scale_exponent(const BlockAmax& a, int emax, uint32_t max_fraction, ScaleRule rule) {
  if (a.nan || a.inf) return kNaNExponent;
  if (a.bits == 0) return -127;
  const Exact x = exact_magnitude(a.bits);
  const int lz = detail::count_leading_zeros64(x.m);
  int k = x.e + 63 - lz - emax;  // floor(log2 amax) - emax
  if (rule == ScaleRule::RCeil) {
    const uint64_t fraction = (x.m << lz) << 1;  // amax's significand after its leading bit, left-aligned
    k += fraction > (static_cast<uint64_t>(max_fraction) << 57) ? 1 : 0;
  }
  if (k < -127) return -127;
  return k > 127 ? kNaNExponent : k;
}

ST_HOST_DEVICE ST_FORCE_INLINE uint8_t mx_scale_code(int k) {
  return k == kNaNExponent ? uint8_t(0xFF) : static_cast<uint8_t>(k + 127);
}

// The code of an element of a NaN block: every bit but the sign set (the
// NaN of E4M3 and E5M2, +largest of FP6, FP4 and INT8).
template <BlockFormat F>
struct NaNCode {
  using Format = typename BlockTraits<F>::Format;
  static constexpr uint8_t value = static_cast<uint8_t>(Format::kSign - 1);
};
template <>
struct NaNCode<BlockFormat::MxInt8> {
  static constexpr uint8_t value = 0x7F;
};

// The code of a finite x / 2^k on the format's grid: rounded once to
// nearest even, ±largest beyond the largest, the sign kept (-0 too, but
// in MXINT8, whose integers have no -0).
template <BlockFormat F>
ST_HOST_DEVICE inline uint8_t mx_element(double x, int k) {
  const uint64_t bits = detail::double_to_bits(x);
  const bool negative = (bits >> 63) != 0;
  const Exact v = exact_magnitude(bits & kAbsMask);
  if constexpr (F == BlockFormat::MxInt8) {
    // code = x / 2^k · 2^6, an integer of at most 128 by the choice of k.
    const int s = v.e - k + 6;
    uint64_t q;
    if (v.m == 0 || s <= -64) {
      q = 0;
    } else if (s >= 0) {
      q = s >= 8 ? 128 : v.m << s;  // the value is below 2^8 here: m < 2^(8 - s)
    } else {
      q = detail::round_shift_right_even<uint64_t>(v.m, -s);
    }
    const uint32_t code = q > 127 ? 127u : static_cast<uint32_t>(q);
    return static_cast<uint8_t>(negative ? 256u - code : code);  // two's complement; -0 is 0
  } else {
    using Format = typename BlockTraits<F>::Format;
    uint32_t mag = v.m == 0 ? 0u : detail::round_to_float8<Format>(v.m, v.e - k);
    mag = mag == Format::kOverflow ? Format::kMaxFinite : mag;  // E4M3's NaN, E5M2's inf: saturate
    return static_cast<uint8_t>((negative ? Format::kSign : 0u) | mag);
  }
}

// The value of an element code, exact.
template <BlockFormat F>
ST_HOST_DEVICE ST_FORCE_INLINE double element_value(uint8_t code) {
  using Element = typename BlockTraits<F>::Element;
  if constexpr (F == BlockFormat::MxInt8) {
    return static_cast<double>(static_cast<int>(code) - ((code & 0x80) != 0 ? 256 : 0)) * 0.015625;  // code · 2^-6
  } else if constexpr (IsFloat8<Element>::value) {
    return static_cast<double>(float8_to_float(Element{code}));
  } else {
    return static_cast<double>(narrow_to_float<typename BlockTraits<F>::Format>(code));
  }
}

// 2^(code - 127), NaN for 0xFF.
ST_HOST_DEVICE ST_FORCE_INLINE double mx_scale_value(uint8_t code) {
  return code == 0xFF ? detail::bits_to_double(kQuietNaNBits)
                      : static_cast<double>(e8m0_to_float(Float8_e8m0fnu{code}));
}

// ---- NVFP4 -------------------------------------------------------------------

using E4M3Format = Float8_e4m3fn::format;
using E2M1Format = Float4_e2m1fn_x2::format;

// The block scale s's float8_e4m3fn code: amax / (6 g) rounded once to
// nearest even, 448 beyond, no lower clamp; 0x7F (NaN) for a block with a
// NaN, 448 (0x7E) for one with ±inf and no NaN.
ST_HOST_DEVICE inline uint8_t nvfp4_scale_code(const BlockAmax& a, double g) {
  if (a.nan) return 0x7F;
  if (a.inf) return 0x7E;
  const double q = detail::bits_to_double(a.bits) / (6.0 * g);
  const uint8_t c = detail::binary_to_float8<E4M3Format, uint64_t, 11, 52>(detail::double_to_bits(q));
  return c == E4M3Format::kOverflow ? static_cast<uint8_t>(E4M3Format::kMaxFinite) : c;
}

// An element's E2M1 code (a nibble) for x in a block without NaN, whose
// scale times g is sg: ±6 for ±inf, ±0 when sg is 0, else x / sg rounded
// once to nearest even, ±6 beyond.
ST_HOST_DEVICE inline uint8_t nvfp4_element(double x, double sg) {
  const uint64_t bits = detail::double_to_bits(x);
  const uint8_t sign = (bits >> 63) != 0 ? static_cast<uint8_t>(E2M1Format::kSign) : uint8_t(0);
  if ((bits & kAbsMask) == kInfBits) return static_cast<uint8_t>(sign | E2M1Format::kMaxFinite);
  if (sg == 0.0) return sign;
  return detail::binary_to_float8<E2M1Format, uint64_t, 11, 52>(detail::double_to_bits(x / sg));
}

// ---- One block ---------------------------------------------------------------

// An element of T at p, which may be unaligned on the host (memory wrapped
// by a caller); the CUDA kernels see element-aligned memory only (the
// driver stages the rest).
template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE T load_element(const char* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const T*>(p);
#else
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
#endif
}

template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE void store_element(char* p, T v) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<T*>(p) = v;
#else
  std::memcpy(p, &v, sizeof v);
#endif
}

// Where a block's values lie: the code of element i at values + i ·
// value_step, or for the FP4 formats in the nibble i % 2 (low first) of
// the byte at values + (i / 2) · value_step. An FP4 block starts at an
// even element and has an even count, so it writes whole bytes.
template <bool kPacked, typename Code>
ST_HOST_DEVICE ST_FORCE_INLINE void put_codes(char* values, int64_t value_step, int64_t count, const Code& code) {
  unsigned char* out = reinterpret_cast<unsigned char*>(values);
  if constexpr (kPacked) {
    for (int64_t i = 0; i < count; i += 2)
      out[(i >> 1) * value_step] = static_cast<unsigned char>(code(i) | (code(i + 1) << 4));
  } else {
    for (int64_t i = 0; i < count; ++i) out[i * value_step] = code(i);
  }
}

template <bool kPacked>
ST_HOST_DEVICE ST_FORCE_INLINE uint8_t get_code(const char* values, int64_t value_step, int64_t i) {
  if constexpr (kPacked) {
    const unsigned char b = reinterpret_cast<const unsigned char*>(values)[(i >> 1) * value_step];
    return static_cast<uint8_t>((i & 1) != 0 ? b >> 4 : b & 0x0F);
  } else {
    return reinterpret_cast<const unsigned char*>(values)[i * value_step];
  }
}

template <typename S>
ST_HOST_DEVICE ST_FORCE_INLINE double read_source(const char* p) {
  return exact_double(load_element<S>(p));
}

// What every block of a call shares.
struct BlockParams {
  ScaleRule rule;
  double g;  // NVFP4's global scale, 1 for 0
};

// What a block's element values are multiplied by: its scale (times g for
// NVFP4), exact; NaN for MX's NaN scale.
template <BlockFormat F>
ST_HOST_DEVICE ST_FORCE_INLINE double block_factor(uint8_t scale_code, const BlockParams& p) {
  return BlockTraits<F>::kNvFp4 ? static_cast<double>(float8_to_float(Float8_e4m3fn{scale_code})) * p.g
                                : mx_scale_value(scale_code);
}

// A block's scale once its amax is known: the scale's code and what each
// element's code needs (MX's k, NVFP4's s·g), or that the block is a NaN
// block, whose elements all take NaNCode.
struct BlockScale {
  uint8_t code;
  bool nan;
  int k;      // MX
  double sg;  // NVFP4, exact
};

template <BlockFormat F>
ST_HOST_DEVICE inline BlockScale block_scale(const BlockAmax& amax, const BlockParams& p) {
  if constexpr (BlockTraits<F>::kNvFp4) {
    const uint8_t s = nvfp4_scale_code(amax, p.g);
    return BlockScale{s, amax.nan, 0, amax.nan ? 0.0 : block_factor<F>(s, p)};
  } else {
    const int k = mx_scale_exponent(amax, BlockTraits<F>::kEmax, BlockTraits<F>::kMaxFraction, p.rule);
    return BlockScale{mx_scale_code(k), k == kNaNExponent, k, 0.0};
  }
}

// The code of element x of a block whose scale is `s`.
template <BlockFormat F>
ST_HOST_DEVICE ST_FORCE_INLINE uint8_t element_code(const BlockScale& s, double x) {
  if (s.nan) return NaNCode<F>::value;
  if constexpr (BlockTraits<F>::kNvFp4) {
    return nvfp4_element(x, s.sg);
  } else {
    return mx_element<F>(x, s.k);
  }
}

// Quantizes one block of `count` elements (1 to the block length) of a
// line, element i of the source (type S) at src + i · src_step: its scale
// to *scale, its values as put_codes places them.
template <BlockFormat F, typename S>
ST_HOST_DEVICE inline void quantize_block(const char* src, int64_t src_step, int64_t count, char* values,
                                          int64_t value_step, char* scale, const BlockParams& p) {
  BlockAmax amax;
  for (int64_t i = 0; i < count; ++i) amax.add(read_source<S>(src + i * src_step));
  const BlockScale s = block_scale<F>(amax, p);
  *reinterpret_cast<unsigned char*>(scale) = s.code;
  put_codes<BlockTraits<F>::kPacked>(values, value_step, count, [&](int64_t i) {
    return element_code<F>(s, read_source<S>(src + i * src_step));
  });
}

// An element's value times its block's factor, exact, rounded once to D;
// every NaN is the positive quiet NaN.
template <BlockFormat F, typename D>
ST_HOST_DEVICE ST_FORCE_INLINE D element_out(uint8_t code, double factor) {
  const double v = element_value<F>(code) * factor;
  return convert<D>(v == v ? v : detail::bits_to_double(kQuietNaNBits));
}

// Dequantizes one block (values placed as put_codes places them): element
// i of dst (type D) at dst + i · dst_step becomes element_out of its code.
template <BlockFormat F, typename D>
ST_HOST_DEVICE inline void dequantize_block(char* dst, int64_t dst_step, int64_t count, const char* values,
                                            int64_t value_step, const char* scale, const BlockParams& p) {
  const double x = block_factor<F>(*reinterpret_cast<const unsigned char*>(scale), p);
  for (int64_t i = 0; i < count; ++i) {
    const uint8_t code = get_code<BlockTraits<F>::kPacked>(values, value_step, i);
    store_element<D>(dst + i * dst_step, element_out<F, D>(code, x));
  }
}

}  // namespace blocks
}  // namespace st
