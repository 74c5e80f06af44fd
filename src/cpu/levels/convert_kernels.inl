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

struct F32ToBF16 : Rule<float, uint16_t, float_to_bfloat16_bits> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    return V::narrow_u32_u16(V::bf16_round(a), V::bf16_round(b));
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

struct F16ToF32 : Rule<uint16_t, float, half_bits_to_float> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::f16_to_f32(h);
  }
};

struct BF16ToF32 : Rule<uint16_t, float, bfloat16_bits_to_float> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    return V::shl32(V::widen_u16(h), 16);
  }
};

// The lane helper below, as those of float8_lanes.h, is forced inline:
// called several times per line, it was otherwise kept out of line,
// constants reloaded per call.
//
// A 16-bit source format: float16 (5 exponent bits, 10 mantissa bits) or
// bfloat16 (8, 7).
template <int kExpBits, int kMantBits>
struct Bits16 {
  static constexpr int kMant = kMantBits;
  static constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  static constexpr uint16_t kInf = static_cast<uint16_t>(((1u << kExpBits) - 1) << kMantBits);
  // The bits of (2j + 1) · 2^e, j < 8, in this format (subnormal or normal).
  static constexpr uint16_t odd_times_power(int j, int e) {
    const uint32_t odd = 2u * static_cast<uint32_t>(j) + 1;
    int p = 0;  // the leading bit of odd
    while ((odd >> (p + 1)) != 0) ++p;
    const int field = e + p + kBias;
    if (field <= 0) return static_cast<uint16_t>(odd << (e - 1 + kBias + kMantBits));
    return static_cast<uint16_t>((static_cast<uint32_t>(field) << kMantBits) |
                                 ((odd << (kMantBits - p)) & ((1u << kMantBits) - 1)));
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
    m.at[j] = static_cast<uint16_t>(S::odd_times_power(j, -static_cast<int>(B::kBias) - B::kMant) - (j & 1));
  }
  return m;
}

// 16-bit float bits (format S) to float8 bits in the low byte of each
// word, by the steps of Note [Float8 kernels on float32 bits] on 16-bit
// words (one rounding: both formats have fewer significant bits than
// float32, and the rounding is the same integer step), except below the
// float8's smallest normal: there the result is a count of the rounding
// midpoints (j + 1/2) · the smallest subnormal that |x| passes, strictly
// for j even (a tie rounds down to the even j) and from the midpoint on
// for j odd (up to the even j + 1).
template <class V, class B, class S>
ST_FORCE_INLINE typename V::Vec f16_to_f8_words(typename V::Vec h) {
  using Vec = typename V::Vec;
  constexpr int kShift = S::kMant - B::kMant;
  constexpr uint16_t kRebias = static_cast<uint16_t>((S::kBias - static_cast<int>(B::kBias)) << S::kMant);
  constexpr uint16_t kMinNormal = static_cast<uint16_t>((S::kBias - static_cast<int>(B::kBias) + 1) << S::kMant);
  const Vec one = V::splat_u16(1);
  const Vec a = V::and32(h, V::splat_u16(0x7fff));
  // The rebias folded into the rounding constant, as in f32_to_f8_lanes
  // (float8_lanes.h): lanes below it wrap around and are below the
  // smallest normal, which the select below takes care of.
  static_assert(((kRebias >> kShift) & 1) == 0, "the rebias leaves the lowest kept bit alone");
  const Vec rounded = V::template srl16<kShift>(
      V::add16(V::add16(a, V::splat_u16(static_cast<uint16_t>((1u << (kShift - 1)) - 1u - kRebias))),
               V::and32(V::template srl16<kShift>(a), one)));
  const Vec normal = V::min_u16(rounded, V::splat_u16(static_cast<uint16_t>(B::kOverflow)));
  // Zero and the subnormal range take 0 here, and a line with a nonzero
  // magnitude below the smallest normal or a NaN, rare in practice, takes
  // the longer way.
  const typename V::Lanes16 below = V::gt_u16(V::splat_u16(kMinNormal), a);
  Vec r = V::select16(below, V::zero(), normal);
  const typename V::Lanes16 tiny = V::and16(below, V::gt_u16(a, V::zero()));
  const typename V::Lanes16 nan = V::gt_u16(a, V::splat_u16(S::kInf));
  if (ST_UNLIKELY(V::any16(V::or16(tiny, B::kHasInf ? nan : tiny)))) {
    constexpr Midpoints kMid = midpoints<B, S>();
    // Two running counts, for shorter dependency chains.
    Vec sub = V::zero(), sub_odd = V::zero();
    for (int j = 0; j < (1 << B::kMant); j += 2) {
      sub = V::count_gt_u16(sub, a, V::splat_u16(kMid.at[j]));
      sub_odd = V::count_gt_u16(sub_odd, a, V::splat_u16(kMid.at[j + 1]));
    }
    r = V::select16(tiny, V::add16(sub, sub_odd), r);
    if constexpr (B::kHasInf) {
      const Vec quiet = V::or32(V::splat_u16(static_cast<uint16_t>(B::kQuietNaN)),
                                V::and32(V::template srl16<kShift>(a), V::splat_u16(static_cast<uint16_t>(B::kMantMask))));
      r = V::select16(nan, quiet, r);
    }
  }
  return V::or_and32(r, V::template srl16<8>(h), V::splat_u16(0x80));  // the sign
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
    return V::pack_u32_u8(f32_to_f8_lanes<V, B>(a), f32_to_f8_lanes<V, B>(b), f32_to_f8_lanes<V, B>(c),
                          f32_to_f8_lanes<V, B>(d));
  }
};

template <class B>
struct F8ToF32 : Rule<uint8_t, float, float8_bits_to_float<B>> {
  template <class V>
  static typename V::Vec line(typename V::Quarter q) {
    return f8_lanes_to_f32<V, B>(V::widen_u8(q));
  }
};

// 16-bit floats to float8, on 16-bit words.
template <class B, bool kHalf>
struct F16ToF8 : Rule<uint16_t, uint8_t, kHalf ? half_to_float8_bits<B> : bfloat16_to_float8_bits<B>> {
  template <class V>
  static typename V::Vec line(typename V::Vec a, typename V::Vec b) {
    using S = typename std::conditional<kHalf, HalfBits16, BFloat16Bits16>::type;
    return V::pack_u16_u8(f16_to_f8_words<V, B, S>(a), f16_to_f8_words<V, B, S>(b));
  }
};

// The 16-bit float of each float8 magnitude (the low 7 bits), by the rule:
// the sign only moves (the rule keeps it for zeros and NaNs too), so a
// float8 b converts to words[b & 0x7f] | (b & 0x80) << 8. Zero until
// make_line_tables() fills them (below).
template <class B, bool kHalf>
alignas(64) uint16_t g_f8_magnitudes[128] = {};

template <class B, bool kHalf>
void fill_f8_magnitudes() {
  for (int b = 0; b < 128; ++b) {
    g_f8_magnitudes<B, kHalf>[b] =
        kHalf ? float8_to_half_bits<B>(static_cast<uint8_t>(b)) : float8_to_bfloat16_bits<B>(static_cast<uint8_t>(b));
  }
}

// float8 to 16-bit floats: looked up in the table where the level has word
// permutes (four table vectors, two permutes and a blend a line, against
// two float32 conversions and two roundings); else through float32,
// exactly, then the 16-bit rule.
template <class B, bool kHalf>
struct F8ToF16 : Rule<uint8_t, uint16_t, kHalf ? float8_to_half_bits<B> : float8_to_bfloat16_bits<B>> {
  template <class V>
  static typename V::Vec line(typename V::Half h) {
    if constexpr (V::kWordTable) {
      const typename V::Vec w = V::widen_u8_u16(h);
      const typename V::Vec magnitude = V::lookup128_u16(g_f8_magnitudes<B, kHalf>, w);
      return V::or_and32(magnitude, V::template sll16<8>(w), V::splat_u16(0x8000));
    }
    const typename V::Vec lo = f8_lanes_to_f32<V, B>(V::widen_u8(V::lo_quarter(h)));
    const typename V::Vec hi = f8_lanes_to_f32<V, B>(V::widen_u8(V::hi_quarter(h)));
    if constexpr (kHalf) {
      return V::concat(V::f32_to_f16(lo), V::f32_to_f16(hi));
    } else {
      return V::narrow_u32_u16(V::bf16_round(lo), V::bf16_round(hi));
    }
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
    V::store_part(d, Lines<V, P>::line_part(s, n), V::mask(n * Lines<V, P>::kOut));
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
      for_each_unit(lines, V::kBytes, pages, [&](int64_t k) {
        prefetch_ahead<L::kInBytes>(s + k * L::kInBytes, ahead);
        V::stream(d + k * V::kBytes, L::line(s + k * L::kInBytes));
      });
      i += lines * L::kPer;
      V::fence();
    } else {
      for (; i + L::kPer <= n; i += L::kPer) V::store(dst + i * L::kOut, L::line(src + i * L::kIn));
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

// The tables a level's lines read, filled when its kernel table is first
// asked for rather than when the library loads: this file is compiled with
// its level's instruction flags, and code run at load time would run them
// on any processor (ctest build.isa_objects_run_nothing_at_load).
template <class V>
bool make_line_tables() {
  if constexpr (V::kWordTable) {
    fill_f8_magnitudes<E4M3Bits, true>();
    fill_f8_magnitudes<E5M2Bits, true>();
    fill_f8_magnitudes<E4M3Bits, false>();
    fill_f8_magnitudes<E5M2Bits, false>();
  }
  return true;
}

// The level's kernel table, for its <level>_convert_kernels(): every row
// converter is reached through it, so its line tables are made first.
template <class V>
const ConvertKernelTable& convert_kernels() {
  static const bool made = make_line_tables<V>();
  (void)made;
  return kConvertKernels<V>;
}

}  // namespace
}  // namespace cpu
}  // namespace st
