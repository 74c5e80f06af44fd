// The row converters of ConvertKernelTable, written once over a level's
// vector traits V (vec_base.h lists them) and compiled once per level:
// convert_kernels_<level>.cpp includes its traits and this file and hands
// out convert_kernels<V>(). Every result is bit-identical to convert_rules.h.
// Everything is in an unnamed namespace (see copy_kernels.inl).
//
// A pair is one struct: its element types and scalar rule (Rule: for
// levels without its vector conversion and for tails where a level has no
// masks), and line<V>(...) over the traits (vec_lines.h says what a line
// gets); then one entry in kConvertKernels. A pair that only some levels
// can vectorize says which in `vectorized` (by default, every level with
// kConvert); the others convert it by the rule.
#pragma once

#include <cstring>
#include <type_traits>

#include "core/macros.h"
#include "cpu/levels/convert_kernel_table.h"
#include "cpu/levels/convert_rules.h"
#include "cpu/levels/float8_lanes.h"
#include "cpu/levels/stream_pages.h"
#include "cpu/levels/stream_settings.h"
#include "cpu/vec/vec_lines.h"

namespace st {
namespace cpu {
namespace {

template <typename F, typename T, T (*R)(F)>
struct Rule {
  using From = F;
  using To = T;
  static T rule(F v) { return R(v); }
  template <class V>
  static constexpr bool vectorized = V::kConvert;
};

struct F32ToF16 : Rule<float, uint16_t, float_to_half_bits> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    return V::concat(V::f32_to_f16(a), V::f32_to_f16(b));
  }
};

// float32 -> bfloat16 in the low 16 bits of each lane, by the rule's
// integer step: rounded to nearest even on the bits (which takes ±inf
// and what overflows to ±inf); a NaN keeps its top bits, quieted, where
// kNaNs says a lane may be one.
template <class V, bool kNaNs>
ST_FORCE_INLINE typename V::Vec bf16_lanes(typename V::Vec x) {
  const typename V::Vec high = V::template srl32<16>(x);
  const typename V::Vec rounded =
      V::template srl32<16>(V::add32(V::add32(x, V::splat32(0x7fff)), V::and32(high, V::splat32(1))));
  if constexpr (kNaNs) return V::select(V::unordered_f32(x, x), V::or32(high, V::splat32(0x40)), rounded);
  return rounded;
}

// A line with a NaN (rare in practice) takes the longer way.
struct F32ToBF16 : Rule<float, uint16_t, float_to_bfloat16_bits> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    if (ST_UNLIKELY(V::any32(V::unordered_f32(a, b)))) {
      return V::narrow_u32_u16(bf16_lanes<V, true>(a), bf16_lanes<V, true>(b));
    }
    return V::narrow_u32_u16(bf16_lanes<V, false>(a), bf16_lanes<V, false>(b));
  }
};

struct I64ToF64 : Rule<int64_t, double, int64_to_double> {
  template <class V>
  static typename V::Vec line(typename V::Vec v) {
    return V::i64_to_f64(v);
  }
};

struct U8ToF32 : Rule<uint8_t, float, integer_to_float<uint8_t, float>> {
  template <class V>
  static typename V::Vec line(typename V::Quarter q) {
    return V::i32_to_f32(V::widen_u8(q));
  }
};

// A vector of float16 words to two of float32: VCVTPH2PS or FCVTL, which
// quiet a signalling NaN; a vector holding one (rare in practice) takes
// the traits' f16_to_f32, which keeps it so, as the rule does.
template <class V>
ST_FORCE_INLINE VecLine<V, 2> f16_words_to_f32(typename V::Vec h) {
  const typename V::Vec a = V::and32(h, V::splat_u16(0x7fff));
  const typename V::Lanes16 signalling =
      V::andnot16(V::gt_u16(a, V::splat_u16(0x7c00)), V::gt_u16(a, V::splat_u16(0x7dff)));
  if (ST_UNLIKELY(V::any16(signalling))) return {{V::f16_to_f32(V::lo_half(h)), V::f16_to_f32(V::hi_half(h))}};
  return {{V::f16_to_f32_quieting(V::lo_half(h)), V::f16_to_f32_quieting(V::hi_half(h))}};
}

struct F16ToF32 : Rule<uint16_t, float, half_bits_to_float> {
  static constexpr int kVectors = 2;
  template <class V>
  static VecLine<V, 2> line(typename V::Vec h) {
    return f16_words_to_f32<V>(h);
  }
};

struct BF16ToF32 : Rule<uint16_t, float, bfloat16_bits_to_float> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::shl32(V::widen_u16(h), 16);
  }
};

// The lane helpers below, as those of float8_lanes.h, are forced inline:
// called several times per line, they were otherwise kept out of line,
// constants reloaded per call.
//
// A 16-bit float format: float16 (5 exponent bits, 10 mantissa bits) or
// bfloat16 (8, 7).
template <int kExpBits, int kMantBits>
struct Bits16 {
  static constexpr int kMant = kMantBits;
  static constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  static constexpr uint16_t kInf = static_cast<uint16_t>(((1u << kExpBits) - 1) << kMantBits);
  // The bits of m · 2^e, 0 < m < 16, in this format (subnormal or normal),
  // for the m and e it holds exactly.
  static constexpr uint16_t times_power(uint32_t m, int e) {
    int p = 0;  // the leading bit of m
    while ((m >> (p + 1)) != 0) ++p;
    const int field = e + p + kBias;
    if (field <= 0) return static_cast<uint16_t>(m << (e - 1 + kBias + kMantBits));
    return static_cast<uint16_t>((static_cast<uint32_t>(field) << kMantBits) |
                                 ((m << (kMantBits - p)) & ((1u << kMantBits) - 1)));
  }
  // A float32 NaN (bits x) as the 16-bit rule makes it: quiet, the top
  // payload bits kept (convert_rules.h).
  static constexpr uint16_t quiet_nan(uint32_t x) {
    return static_cast<uint16_t>(kInf | (1u << (kMantBits - 1)) | ((x & 0x7fffffu) >> (23 - kMantBits)));
  }
};
using HalfBits16 = Bits16<5, 10>;
using BFloat16Bits16 = Bits16<8, 7>;

// The thresholds of the count below: midpoint j less 1 for odd j.
struct Midpoints {
  uint16_t at[8];
};
template <class B, class S>
constexpr Midpoints midpoints() {
  Midpoints m{};
  for (int j = 0; j < (1 << B::kMant); ++j) {
    const uint32_t odd = 2u * static_cast<uint32_t>(j) + 1;
    m.at[j] = static_cast<uint16_t>(S::times_power(odd, -static_cast<int>(B::kBias) - B::kMant) - (j & 1));
  }
  return m;
}

// 16-bit float bits (format S) to the float8 magnitude's code in the low
// byte of each word (the sign goes in as the words are packed), by the
// steps of Note [Float8 kernels on float32 bits] on 16-bit words (one
// rounding: both formats have fewer significant bits than float32, and
// the rounding is the same integer step), except below the float8's
// smallest normal: there the result is a count of the rounding midpoints
// (j + 1/2) · the smallest subnormal that |x| passes, strictly for j even
// (a tie rounds down to the even j) and from the midpoint on for j odd
// (up to the even j + 1).
template <class V, class B, class S>
ST_FORCE_INLINE typename V::Vec f16_to_f8_magnitudes(typename V::Vec h) {
  using Vec = typename V::Vec;
  using Lanes16 = typename V::Lanes16;
  constexpr int kShift = S::kMant - B::kMant;
  constexpr uint16_t kRebias = static_cast<uint16_t>((S::kBias - static_cast<int>(B::kBias)) << S::kMant);
  constexpr uint16_t kMinNormal = static_cast<uint16_t>((S::kBias - static_cast<int>(B::kBias) + 1) << S::kMant);
  const Vec a = V::and32(h, V::splat_u16(0x7fff));
  // The rebias folded into the rounding constant, as in
  // f32_to_f8_magnitudes (float8_lanes.h): lanes below it wrap around and
  // are below the smallest normal, which the select below takes care of.
  static_assert(((kRebias >> kShift) & 1) == 0, "the rebias leaves the lowest kept bit alone");
  const Vec rounded = V::template srl16<kShift>(
      V::add16(V::add16(a, V::splat_u16(static_cast<uint16_t>((1u << (kShift - 1)) - 1u - kRebias))),
               V::and32(V::template srl16<kShift>(a), V::splat_u16(1))));
  // Zero and the subnormal range take 0 here (the comparison has its
  // constant second: GCC makes `kMinNormal > a` two steps at AVX2).
  const Lanes16 normal = V::gt_u16(a, V::splat_u16(kMinNormal - 1));
  Vec r = V::select16(normal, V::min_u16(rounded, V::splat_u16(static_cast<uint16_t>(B::kOverflow))), V::zero());
  // Right so far: normal lanes (but NaNs where the format keeps their
  // payload) and zeros. A line with another, rare in practice, takes the
  // longer way.
  Lanes16 done = normal;
  if constexpr (B::kHasInf) done = V::andnot16(done, V::gt_u16(a, V::splat_u16(S::kInf)));
  if (ST_UNLIKELY(V::any16_outside(done, a))) {
    constexpr Midpoints kMid = midpoints<B, S>();
    // Two running counts, for shorter dependency chains.
    Vec sub = V::zero(), sub_odd = V::zero();
    for (int j = 0; j < (1 << B::kMant); j += 2) {
      sub = V::count_gt_u16(sub, a, V::splat_u16(kMid.at[j]));
      sub_odd = V::count_gt_u16(sub_odd, a, V::splat_u16(kMid.at[j + 1]));
    }
    r = V::select16(normal, r, V::add16(sub, sub_odd));
    if constexpr (B::kHasInf) {
      const Vec quiet = V::or32(V::splat_u16(static_cast<uint16_t>(B::kQuietNaN)),
                                V::and32(V::template srl16<kShift>(a), V::splat_u16(static_cast<uint16_t>(B::kMantMask))));
      r = V::select16(V::gt_u16(a, V::splat_u16(S::kInf)), quiet, r);
    }
  }
  return r;
}

// float8 rules composed with the 16-bit ones (both exact where they must
// be: float16/bfloat16 -> float32 and float8 -> float32 are exact, so one
// rounding happens, as the core rules do).
template <class B>
inline uint8_t half_to_float8_bits(uint16_t h) {
  return float_to_float8_bits<B>(half_bits_to_float(h));
}
template <class B>
inline uint8_t bfloat16_to_float8_bits(uint16_t h) {
  return float_to_float8_bits<B>(bfloat16_bits_to_float(h));
}
template <class B>
inline uint16_t float8_to_half_bits(uint8_t b) {
  return float_to_half_bits(float8_bits_to_float<B>(b));
}
template <class B>
inline uint16_t float8_to_bfloat16_bits(uint8_t b) {
  return float_to_bfloat16_bits(float8_bits_to_float<B>(b));
}

template <class B>
struct F32ToF8 : Rule<float, uint8_t, float_to_float8_bits<B>> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b, typename V::Vec c, typename V::Vec d) {
    return f32_to_f8_line<V, B>(a, b, c, d);
  }
};

// float8 (format B) to a 16-bit float (format S), exactly: every float8 is
// a float16 and a bfloat16. The sign only moves, so a float8 b converts to
// kF8Magnitudes<B, S>.at[b & 0x7f] | (b & 0x80) << 8, the table made here
// from the formats' fields as the rules make each magnitude (float8 ->
// float32, then the 16-bit rule; test_copy_convert checks every code at
// every level against them): a normal code rebiased in place; a
// subnormal, m · 2^(1 - bias - mant), a normal of S (float16's subnormal
// from e5m2); inf as inf; a NaN as the 16-bit rule quiets the float8
// rule's float32 NaN.
struct alignas(64) Words128 {
  uint16_t at[128];
};
template <class B, class S>
struct F8To16 {
  static constexpr int kShift = S::kMant - B::kMant;
  static constexpr uint32_t kRebias = static_cast<uint32_t>(S::kBias - static_cast<int>(B::kBias)) << S::kMant;
  static constexpr bool normal(uint32_t c) { return c > B::kMantMask && c < B::kOverflow; }
  static constexpr uint16_t magnitude(uint32_t c) {
    if (normal(c)) return static_cast<uint16_t>((c << kShift) + kRebias);
    if (c >= B::kOverflow) {
      return B::kHasInf && c == B::kOverflow ? S::kInf : S::quiet_nan(float8_special_float_bits<B>(c));
    }
    return c == 0 ? 0 : S::times_power(c, 1 - static_cast<int>(B::kBias) - B::kMant);
  }
  // The float8 is S's top byte (e5m2 of float16: one exponent field), so
  // every magnitude is its code shifted, but a NaN's, which the rule quiets.
  static constexpr bool kTopByte = kShift == 8 && kRebias == 0;
  static constexpr uint16_t kQuietBit = 1u << (S::kMant - 1);
};
template <class B, class S>
constexpr Words128 f8_magnitudes() {
  Words128 t{};
  for (uint32_t c = 0; c < 128; ++c) t.at[c] = F8To16<B, S>::magnitude(c);
  return t;
}
template <class B, class S>
constexpr Words128 kF8Magnitudes = f8_magnitudes<B, S>();

// The magnitudes that are not normal codes (inf and the NaNs, zero and the
// subnormals: kOverflow ... 127, 0 ... kMantMask, in a row modulo 128) by
// their codes less kOverflow, modulo 128: the first kSpecials entries.
template <class B>
constexpr uint32_t kSpecials = 128 - B::kOverflow + B::kMantMask + 1;
template <class B, class S>
constexpr Words16 f8_specials() {
  static_assert(kSpecials<B> <= 16, "a table of 16 words holds them");
  Words16 t{};
  for (uint32_t k = 0; k < kSpecials<B>; ++k) t.at[k] = kF8Magnitudes<B, S>.at[(k + B::kOverflow) & 0x7f];
  return t;
}
template <class B, class S>
constexpr Words16 kF8Specials = f8_specials<B, S>();

template <class B, class S>
constexpr bool top_byte_holds() {
  for (uint32_t c = 0; c < 128; ++c) {
    const uint32_t shifted = (c << 8) | (c > B::kOverflow ? F8To16<B, S>::kQuietBit : 0u);
    if (kF8Magnitudes<B, S>.at[c] != shifted) return false;
  }
  return true;
}

// float8 bits, zero-extended to words, to the 16-bit floats: a shift where
// the float8 is the top byte; else looked up whole where the level has
// permutes of 64 words, or rebiased in place, the special codes looked up
// (a byte shuffle each for their low and high bytes).
template <class V, class B, class S>
ST_FORCE_INLINE typename V::Vec f8_to_16_words(typename V::Vec w) {
  using Vec = typename V::Vec;
  using C = F8To16<B, S>;
  const Vec a = V::and32(w, V::splat_u16(0x7f));
  if constexpr (C::kTopByte) {
    static_assert(top_byte_holds<B, S>(), "the float8 is the top byte of its 16-bit format");
    const Vec shifted = V::template sll16<8>(w);
    return V::select16(V::gt_u16(a, V::splat_u16(B::kOverflow)), V::or32(shifted, V::splat_u16(C::kQuietBit)), shifted);
  } else {
    Vec magnitude;
    if constexpr (V::kWordTable) {
      magnitude = V::lookup128_u16(kF8Magnitudes<B, S>.at, w);
    } else {
      static_assert(V::kWordTable16, "a level with the conversions has a table of 128 or of 16 words");
      const Vec normal = V::add16(V::template sll16<C::kShift>(a), V::splat_u16(static_cast<uint16_t>(C::kRebias)));
      const Vec k = V::and32(V::add16(w, V::splat_u16(static_cast<uint16_t>(128 - B::kOverflow))), V::splat_u16(0x7f));
      magnitude =
          V::select16(V::gt_u16(k, V::splat_u16(kSpecials<B> - 1)), normal, V::lookup16_u16(kF8Specials<B, S>, k));
    }
    return V::or_and32(magnitude, V::template sll16<8>(w), V::splat_u16(0x8000));
  }
}

// float8 to float32, exactly, through float16 (whose conversion to
// float32 the levels have): e5m2 as the top byte of a float16; e4m3fn's
// exponent and mantissa fields moved to float16's as they are, which is
// the value times 2^(7 - 15), subnormals too (float16's subnormals hold
// e4m3fn's shifted), scaled back exactly by a float32 product; its NaN
// made float16's NaN of the rule first (the code 0x7f shifted is 0x3f80,
// and 0x80 more sets bit 14: only it reaches 0x4000). A vector of float16
// words makes two of float32, so a line is two.
template <class B>
struct F8ToF32 : Rule<uint8_t, float, float8_bits_to_float<B>> {
  static constexpr int kVectors = 2;
  template <class V>
  static VecLine<V, 2> line(typename V::Half h) {
    using Vec = typename V::Vec;
    using C = F8To16<B, HalfBits16>;
    const Vec w = V::widen_u8_u16(h);
    if constexpr (C::kTopByte) {
      return f16_words_to_f32<V>(V::template sll16<8>(w));  // a NaN kept as it is, as the rule does
    } else {
      static_assert(C::kShift == 7 && B::kOverflow == 0x7f &&
                        (0x3f80 | 0x4000) == kF8Magnitudes<B, HalfBits16>.at[0x7f],
                    "e4m3fn: the sign moves from bit 7 to 15 as the code moves up 7, and its NaN is 0x7f");
      Vec y = V::template sll16<7>(V::add16(w, V::and32(w, V::splat_u16(0x80))));
      y = V::or_and32(y, V::add16(y, V::splat_u16(0x80)), V::splat_u16(0x4000));
      const Vec scale = V::splat_f32(static_cast<float>(1u << (HalfBits16::kBias - B::kBias)));
      return {{V::f32_mul(V::f16_to_f32_quieting(V::lo_half(y)), scale),
               V::f32_mul(V::f16_to_f32_quieting(V::hi_half(y)), scale)}};
    }
  }
};

// 16-bit floats to float8, on 16-bit words.
template <class B, bool kHalf>
struct F16ToF8 : Rule<uint16_t, uint8_t, kHalf ? half_to_float8_bits<B> : bfloat16_to_float8_bits<B>> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    using S = typename std::conditional<kHalf, HalfBits16, BFloat16Bits16>::type;
    return V::pack_u16_u8_signs(f16_to_f8_magnitudes<V, B, S>(a), f16_to_f8_magnitudes<V, B, S>(b), a, b);
  }
};

template <class B, bool kHalf>
struct F8ToF16 : Rule<uint8_t, uint16_t, kHalf ? float8_to_half_bits<B> : float8_to_bfloat16_bits<B>> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    using S = typename std::conditional<kHalf, HalfBits16, BFloat16Bits16>::type;
    return f8_to_16_words<V, B, S>(V::widen_u8_u16(h));
  }
};

struct U16ToF32 : Rule<uint16_t, float, integer_to_float<uint16_t, float>> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::i32_to_f32(V::widen_u16(h));
  }
};

struct U16ToF64 : Rule<uint16_t, double, integer_to_float<uint16_t, double>> {
  template <class V>
  static typename V::Vec line(typename V::Quarter q) {
    return V::u16_to_f64(q);
  }
};

struct U32ToF32 : Rule<uint32_t, float, integer_to_float<uint32_t, float>> {
  template <class V>
  static typename V::Vec line(typename V::Vec v) {
    return V::u32_to_f32(v);
  }
};

struct U32ToF64 : Rule<uint32_t, double, integer_to_float<uint32_t, double>> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::u32_to_f64(h);
  }
};

struct U64ToF64 : Rule<uint64_t, double, integer_to_float<uint64_t, double>> {
  template <class V>
  static typename V::Vec line(typename V::Vec v) {
    return V::u64_to_f64(v);
  }
};

// One rounding from 64 bits to float32 needs the level's instruction.
struct U64ToF32 : Rule<uint64_t, float, integer_to_float<uint64_t, float>> {
  template <class V>
  static constexpr bool vectorized = V::kConvert && V::kConvertU64ToF32;
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    return V::concat(V::u64_to_f32(a), V::u64_to_f32(b));
  }
};

struct I8ToF32 : Rule<int8_t, float, integer_to_float<int8_t, float>> {
  template <class V>
  static typename V::Vec line(typename V::Quarter q) {
    return V::i32_to_f32(V::widen_i8(q));
  }
};

struct I16ToF32 : Rule<int16_t, float, integer_to_float<int16_t, float>> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::i32_to_f32(V::widen_i16(h));
  }
};

struct I32ToF32 : Rule<int32_t, float, integer_to_float<int32_t, float>> {
  template <class V>
  static typename V::Vec line(typename V::Vec v) {
    return V::i32_to_f32_nearest(v);
  }
};

struct I32ToF64 : Rule<int32_t, double, integer_to_float<int32_t, double>> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::i32_to_f64(h);
  }
};

struct F32ToI32 : Rule<float, int32_t, float_to_integer_saturating<int32_t>> {
  template <class V>
  static typename V::Vec line(typename V::Vec v) {
    return V::f32_to_i32_saturating(v);
  }
};

struct F32ToU8 : Rule<float, uint8_t, float_to_integer_saturating<uint8_t>> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b, typename V::Vec c, typename V::Vec d) {
    return V::pack_u32_u8(V::f32_to_u8_lanes(a), V::f32_to_u8_lanes(b), V::f32_to_u8_lanes(c), V::f32_to_u8_lanes(d));
  }
};

struct I32ToI64 : Rule<int32_t, int64_t, int32_to_int64> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::widen_i32_i64(h);
  }
};

struct I64ToI32 : Rule<int64_t, int32_t, int64_to_int32> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    return V::concat(V::narrow_i64_i32(a), V::narrow_i64_i32(b));
  }
};

struct F32ToF64 : Rule<float, double, float_to_double> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::f32_to_f64(h);
  }
};

struct F64ToF32 : Rule<double, float, double_to_float> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    return V::concat(V::f64_to_f32(a), V::f64_to_f32(b));
  }
};

// n elements by the scalar rule.
template <class P>
void by_rule(char* d, const char* s, int64_t n) {
  using From = typename P::From;
  using To = typename P::To;
  for (int64_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, s + i * static_cast<int64_t>(sizeof(From)), sizeof(From));
    const To r = P::rule(v);
    std::memcpy(d + i * static_cast<int64_t>(sizeof(To)), &r, sizeof(To));
  }
}

// Fewer than a line of elements: one masked line, or by the rule.
template <class V, class P>
inline void part(char* d, const char* s, int64_t n) {
  if constexpr (V::kMasked) {
    Lines<V, P>::store_part(d, Lines<V, P>::line_part(s, n), n * Lines<V, P>::kOut);
  } else {
    by_rule<P>(d, s, n);
  }
}

// Streams need aligned vectors: the elements before the first one go
// through part(); so does the tail. Streamed lines go in the order
// stream_tuning() chose.
template <class V, class P>
void row(char* dst, const char* src, int64_t n, bool nt) {
  if constexpr (!P::template vectorized<V>) {
    by_rule<P>(dst, src, n);
  } else {
    using L = Lines<V, P>;
    int64_t i = 0;
    const uintptr_t at = reinterpret_cast<uintptr_t>(dst);
    if (nt && at % L::kOut == 0) {
      const int64_t head = ((V::kBytes - static_cast<int64_t>(at % V::kBytes)) % V::kBytes) / L::kOut;
      i = head < n ? head : n;
      if (i) part<V, P>(dst, src, i);
      const int64_t lines = (n - i) / L::kPer;
      char* d = dst + i * L::kOut;
      const char* s = src + i * L::kIn;
      // Widening rows write in order and without the prefetch: reading a
      // quarter or half of a line's bytes per line written, their reads
      // keep up unaided, and pages side by side measured slower
      // (docs/tuning.md, "Why"). Rows that prefetch write in order too: the
      // prefetches keep their reads in flight.
      const bool widens = L::kOut > L::kIn;
      const int64_t ahead = widens ? 0 : stream_prefetch_bytes();
      const int pages = widens || ahead > 0 ? 1 : stream_pages();
      for_each_unit(lines, L::kOutBytes, pages, [&](int64_t k) {
        prefetch_ahead<L::kInBytes>(s + k * L::kInBytes, ahead);
        L::store(d + k * L::kOutBytes, L::line(s + k * L::kInBytes), true);
      });
      i += lines * L::kPer;
      V::fence();
    } else {
      for (; i + L::kPer <= n; i += L::kPer) L::store(dst + i * L::kOut, L::line(src + i * L::kIn), false);
    }
    if (i < n) part<V, P>(dst + i * L::kOut, src + i * L::kIn, n - i);
  }
}

// uint8 pixels of 2-4 channels to float32 planes (NHWC -> NCHW), converted
// in registers and split into channels by the level's small permutes.
template <class V>
bool deinterleave(ConvertPair pair, char* dst, int64_t dst_col, const char* src, int64_t rows, int64_t cols, bool nt) {
  if (pair != ConvertPair::UInt8ToFloat32 || cols < 2 || cols > 4) return false;
  const bool stream = nt && (reinterpret_cast<uintptr_t>(dst) & 63) == 0 && (dst_col & 63) == 0;
  deinterleave_lines<V, U8ToF32>(dst, dst_col, src, rows, static_cast<int>(cols), stream);
  if (stream) V::fence();
  return true;
}

// uint8 pixels of 3 channels to float32 planes on a level without small
// permutes (AVX2, NEON): split into channels 16 pixels at a time by the
// level's byte shuffles (channels16, as the scaled copies' planes are), then
// widened and converted exactly. Without it such a copy converts into
// scratch and transposes three columns wide, tile by partial tile.
template <class V>
bool deinterleave3(ConvertPair pair, char* dst, int64_t dst_col, const char* src, int64_t rows, int64_t cols,
                   bool nt) {
  if (pair != ConvertPair::UInt8ToFloat32 || cols != 3) return false;
  using Vec = typename V::Vec;
  constexpr int64_t kLanes = V::kBytes / 4;
  const bool stream = nt && (reinterpret_cast<uintptr_t>(dst) & 63) == 0 && (dst_col & 63) == 0;
  const auto* pixels = reinterpret_cast<const unsigned char*>(src);
  int64_t i = 0;
  for (; i + 16 <= rows; i += 16) {
    typename V::Bytes16 channels[3];
    V::channels16(pixels + 3 * i, channels);
    for (int c = 0; c < 3; ++c) {
      for (int k = 0; k < 16 / kLanes; ++k) {
        const Vec y = U8ToF32::line<V>(V::quarter_of16(channels[c], k));
        char* d = dst + c * dst_col + (i + k * kLanes) * 4;
        if (stream) {
          V::stream(d, y);
        } else {
          V::store(d, y);
        }
      }
    }
  }
  for (; i < rows; ++i) {
    for (int c = 0; c < 3; ++c) {
      const float v = U8ToF32::rule(pixels[3 * i + c]);
      std::memcpy(dst + c * dst_col + i * 4, &v, 4);
    }
  }
  if (stream) V::fence();
  return true;
}

template <class V>
constexpr ConvertDeinterleaveFn fused_deinterleave() {
  if constexpr (V::kSmallPermute) {
    return deinterleave<V>;
  } else if constexpr (V::kConvert) {
    return deinterleave3<V>;
  } else {
    return nullptr;
  }
}

// In ConvertPair order.
template <class V>
constexpr ConvertKernelTable kConvertKernels = {
    V::kName,
    {row<V, F32ToF16>, row<V, F32ToBF16>, row<V, I64ToF64>, row<V, U8ToF32>, row<V, F16ToF32>, row<V, BF16ToF32>,
     row<V, F32ToF8<E4M3Bits>>, row<V, F32ToF8<E5M2Bits>>, row<V, F8ToF32<E4M3Bits>>, row<V, F8ToF32<E5M2Bits>>,
     row<V, F16ToF8<E4M3Bits, true>>, row<V, F16ToF8<E5M2Bits, true>>, row<V, F16ToF8<E4M3Bits, false>>,
     row<V, F16ToF8<E5M2Bits, false>>, row<V, F8ToF16<E4M3Bits, true>>, row<V, F8ToF16<E5M2Bits, true>>,
     row<V, F8ToF16<E4M3Bits, false>>, row<V, F8ToF16<E5M2Bits, false>>, row<V, U16ToF32>, row<V, U32ToF32>,
     row<V, U64ToF32>, row<V, U16ToF64>, row<V, U32ToF64>, row<V, U64ToF64>, row<V, I8ToF32>, row<V, I16ToF32>,
     row<V, I32ToF32>, row<V, I32ToF64>, row<V, F32ToI32>, row<V, F32ToU8>, row<V, F32ToF64>, row<V, F64ToF32>,
     row<V, I32ToI64>, row<V, I64ToI32>},
    fused_deinterleave<V>(),
};

// The level's kernel table, for its <level>_convert_kernels().
template <class V>
const ConvertKernelTable& convert_kernels() {
  return kConvertKernels<V>;
}

}  // namespace
}  // namespace cpu
}  // namespace st
