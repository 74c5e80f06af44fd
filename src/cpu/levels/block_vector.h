// The vector steps of the block rows (block_rows.inl): one whole block of
// contiguous elements and values, or a tile of blocks along an outer dim,
// quantized or dequantized over a level's vector traits V (vec_base.h,
// kBlockScale), bit for bit the rule of core/numeric/block_scaling.h.
// Included by block_rows.inl only, once per level; everything is in an
// unnamed namespace (see copy_kernels.inl).
//
// Note [Block rows in vector steps]
// A block is read once into registers as float32 bits (float16 and
// bfloat16 widen exactly). Its amax is the largest magnitude's bits, by an
// integer max (non-negative floats order as their bits); a block with a
// NaN or an infinity, or whose scale the vector steps cannot apply
// exactly, goes to the scalar rule whole, before anything is written, so
// the special cases have one implementation. The scale is the rule's own
// (mx_scale_exponent, nvfp4_scale_code), computed once per block.
// - MX elements: q = |x| · 2^-k by a float32 multiply, exact wherever the
//   result is a normal float32 (k <= 126 always holds for these sources,
//   checked anyway); a result below 2^-126 may round, but every element
//   grid's smallest nonzero half-step is far above that, so the code is 0
//   either way. q is capped at the grid's largest value (the rule's
//   saturation: a magnitude beyond it rounds to it or overflows to it),
//   then rounded to nearest even by integer steps: a normal q by adding
//   half an ulp of the grid less one plus the kept bit's lowest bit and
//   shifting; a subnormal one by the float32 sum q + 2^(23 + e_min - m)
//   whose ulp is the grid's subnormal step, rounded by the FPU (MXCSR at
//   its default, as the drivers keep it).
// - NVFP4 elements: the code of |x| / sg on E2M1 is the number of the
//   grid's seven midpoints t below it, a tie counting toward the even
//   code; |x| / sg > t is |x| > t · sg, compared exactly as float32 bits
//   when every t · sg is a float32 (always for g = 1: sg has 4 significant
//   bits); a block whose products are not, or whose sg is 0, goes to the
//   rule.
// - Dequantizing: the element's value (exact in float32) times the scale
//   by one float32 multiply. For MX into float32 that is the IEEE rounding
//   of the exact product, the rule's; into float16 it is exact unless
//   below 2^-126 (which float16 rounds to ±0 either way) or beyond
//   float32 (±inf either way), then rounded once by F16C; into bfloat16,
//   whose subnormals are float32's, only blocks with X >= 2^-100 (every
//   product normal, so exact) are taken. NVFP4's sg = s · g must have at
//   most 22 significant bits and keep every product normal, so that the
//   products are exact. bfloat16 rounds by integer steps (nearest even on
//   the dropped half).
// - Blocks along an outer dim (a block's elements are one element of each
//   of 32 rows, the lines adjacent): a tile of kLanes lines at a time,
//   lane l one line, so each row's bytes across the tile are one load and
//   a band of blocks is read row by row, once; the scales and the special
//   cases go per lane, and a lane the vector steps cannot take is redone
//   by the rule after the tile's stores.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/numeric/block_format.h"
#include "core/numeric/block_scaling.h"
#include "core/numeric/scalar_types.h"

namespace st {
namespace cpu {
namespace {

namespace block_vec {

constexpr uint32_t kAbs32 = 0x7FFFFFFFu;
constexpr uint32_t kInf32 = 0x7F800000u;

inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The source dtypes whose elements widen to float32 exactly.
template <typename S>
struct Widens : std::integral_constant<bool, std::is_same<S, float>::value || std::is_same<S, BFloat16>::value ||
                                                 std::is_same<S, Half>::value> {};

// V::kBytes / 4 elements of S at p as float32 bits.
template <class V, typename S>
typename V::Vec load_f32(const char* p) {
  if constexpr (std::is_same<S, float>::value) {
    return V::load(p);
  } else if constexpr (std::is_same<S, BFloat16>::value) {
    return V::shl32(V::widen_u16(V::load_half(p)), 16);
  } else {
    return V::f16_to_f32_quieting(V::load_half(p));  // exact but for NaN, which goes to the rule
  }
}

// An MX element grid: m mantissa bits, bias, largest value, sign bit.
template <BlockFormat F>
struct MxGrid;
template <>
struct MxGrid<BlockFormat::MxFp8E4M3> {
  static constexpr int kMant = 3, kBias = 7, kSignShift = 24;
  static constexpr uint32_t kMaxBits = 0x43E00000u;  // 448
};
template <>
struct MxGrid<BlockFormat::MxFp4E2M1> {
  static constexpr int kMant = 1, kBias = 1, kSignShift = 28;
  static constexpr uint32_t kMaxBits = 0x40C00000u;  // 6
};

// The codes of the float32 lanes x, times 2^-k given as the float32 `scale`
// (Note [Block rows in vector steps]).
template <class V, class G>
typename V::Vec mx_codes(typename V::Vec x, typename V::Vec scale) {
  using Vec = typename V::Vec;
  constexpr int kShift = 23 - G::kMant;
  const Vec sign = V::template srl32<G::kSignShift>(V::and32(x, V::splat32(0x80000000u)));
  const Vec q = V::min_u32(V::f32_mul(V::and32(x, V::splat32(kAbs32)), scale), V::splat32(G::kMaxBits));
  const Vec half_less_one = V::splat32((1u << (kShift - 1)) - 1);
  const Vec rebiased = V::add32(q, V::splat32(static_cast<uint32_t>(G::kBias - 127) << 23));
  const Vec normal = V::template srl32<kShift>(
      V::add32(rebiased, V::add32(half_less_one, V::and32(V::template srl32<kShift>(q), V::splat32(1)))));
  const Vec magic = V::splat32(static_cast<uint32_t>(127 + 1 - G::kBias - G::kMant + 23) << 23);
  const Vec subnormal = V::sub32(V::f32_add_nearest(q, magic), magic);
  const Vec code = V::select(V::gt_s32(V::splat32(static_cast<uint32_t>(127 + 1 - G::kBias) << 23), q), subnormal,
                             normal);
  return V::or32(code, sign);
}

// Stores kLanes codes: a byte each, or two nibbles a byte (low first).
template <class V, bool kPacked>
void store_codes(char* p, typename V::Vec codes) {
  if constexpr (kPacked) {
    V::store_u8_of_u64(p, V::or32(codes, V::template srl64<28>(codes)));
  } else {
    V::store_u8_of_u32(p, codes);
  }
}

// The E2M1 magnitudes as float32 bits, by code & 7.
alignas(32) constexpr uint32_t kE2M1Bits[8] = {0x00000000u, 0x3F000000u, 0x3F800000u, 0x3FC00000u,
                                               0x40000000u, 0x40400000u, 0x40800000u, 0x40C00000u};

// FP4 codes (a dword each, below 16) as float32 values.
template <class V>
typename V::Vec fp4_value(typename V::Vec c) {
  return V::or32(V::lookup8_u32(kE2M1Bits, c), V::shl32(V::and32(c, V::splat32(8)), 28));
}

// kLanes FP4 codes from kLanes / 2 bytes at p (low nibble first), as float32 values.
template <class V>
typename V::Vec fp4_values(const char* p) {
  using Vec = typename V::Vec;
  const Vec w = V::widen_u8_u64(p);
  return fp4_value<V>(
      V::or32(V::and32(w, V::splat32(0x0F)), V::template sll64<28>(V::and32(w, V::splat32(0xF0)))));
}

// Stores kLanes float32 lanes as D: float32, float16 (F16C's rounding) or
// bfloat16 (nearest even by integer steps; no NaN reaches here).
template <class V, typename D>
void store_as(char* p, typename V::Vec v) {
  if constexpr (std::is_same<D, float>::value) {
    V::store(p, v);
  } else if constexpr (std::is_same<D, Half>::value) {
    V::store_half(p, V::f32_to_f16(v));
  } else {
    const typename V::Vec round = V::add32(V::splat32(0x7FFF), V::and32(V::template srl32<16>(v), V::splat32(1)));
    V::store_u16_of_u32(p, V::template srl32<16>(V::add32(v, round)));
  }
}

// A block of format F in level V's vectors of float32 lanes: kVecs of
// them, their codes kCodeBytes bytes each.
template <class V, BlockFormat F>
struct Shape {
  using Vec = typename V::Vec;
  static constexpr int kLanes = static_cast<int>(V::kBytes / 4);
  static constexpr int kBlock = static_cast<int>(BlockTraits<F>::kBlock);
  static_assert(kBlock % kLanes == 0, "a block is whole vectors");
  static constexpr int kVecs = kBlock / kLanes;
  static constexpr bool kPacked = BlockTraits<F>::kPacked;
  static constexpr int kCodeBytes = kPacked ? kLanes / 2 : kLanes;
};

// The formats and dtypes the vector steps take, at a level that has them.
template <class V, BlockFormat F, typename T>
constexpr bool kTakes = V::kBlockScale && Widens<T>::value &&
                        (F == BlockFormat::MxFp8E4M3 || F == BlockFormat::MxFp4E2M1 || F == BlockFormat::NvFp4);

// 2^(code - 127) as float32 bits, code 0 to 254.
inline uint32_t e8m0_bits(uint8_t code) { return code == 0 ? 0x00400000u : static_cast<uint32_t>(code) << 23; }

}  // namespace block_vec

// Whether level V quantizes blocks of format F from S in vector steps:
// block(), a whole block of contiguous elements and values (false, with
// nothing written, for a block it leaves to the rule); tile(), block b of
// kLanes adjacent lines whose elements, values and scales are each
// adjacent from one line to the next (blocks along an outer dim: lane l
// is line l), every lane the rule's bits.
template <class V, BlockFormat F, typename S, typename = void>
struct VectorQuantize : std::false_type {};

template <class V, BlockFormat F, typename S>
struct VectorQuantize<V, F, S, std::enable_if_t<block_vec::kTakes<V, F, S>>> : std::true_type {
  using Vec = typename V::Vec;
  using Shape = block_vec::Shape<V, F>;
  static constexpr int kLanes = Shape::kLanes, kBlock = Shape::kBlock;
  // The E2M1 midpoints; a tie goes to the even code above those marked.
  static constexpr double kMid[7] = {0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0};
  static constexpr bool kTieUp[7] = {false, true, false, true, false, true, false};

  static Vec magnitude(Vec x) { return V::and32(x, V::splat32(block_vec::kAbs32)); }

  // The scale code of a block whose largest magnitude is the float32 amax,
  // and what its elements need: 2^-k as float32 bits (MX), or the seven
  // thresholds as float32 bits to compare magnitudes with (NVFP4, at t +
  // lane, t stepping by `stride`). False for a block the rule takes.
  static bool scale_of(uint32_t amax_bits, const blocks::BlockParams& p, uint8_t* code, uint32_t* t, int stride) {
    if (amax_bits >= block_vec::kInf32) return false;  // NaN or ±inf
    float amax_f;
    std::memcpy(&amax_f, &amax_bits, sizeof amax_f);
    blocks::BlockAmax amax;
    amax.add(static_cast<double>(amax_f));
    if constexpr (F == BlockFormat::NvFp4) {
      *code = blocks::nvfp4_scale_code(amax, p.g);
      const double sg = static_cast<double>(float8_to_float(Float8_e4m3fn{*code})) * p.g;  // exact
      if (sg == 0.0) return false;
      for (int i = 0; i < 7; ++i) {
        const double bound = kMid[i] * sg;  // exact in float64
        const float f = static_cast<float>(bound);
        if (static_cast<double>(f) != bound) return false;
        t[i * stride] = block_vec::float_bits(f) - (kTieUp[i] ? 1u : 0u);
      }
    } else {
      const int k = blocks::mx_scale_exponent(amax, BlockTraits<F>::kEmax, BlockTraits<F>::kMaxFraction, p.rule);
      if (k > 126) return false;  // 2^-k not a normal float32, or the NaN block
      *code = blocks::mx_scale_code(k);
      *t = static_cast<uint32_t>(127 - k) << 23;
    }
    return true;
  }

  // The codes of the float32 lanes x, by what scale_of gave as vectors.
  static Vec codes(Vec x, const Vec* t) {
    if constexpr (F == BlockFormat::NvFp4) {
      const Vec a = magnitude(x);
      Vec code = V::template srl32<28>(V::and32(x, V::splat32(0x80000000u)));
      for (int j = 0; j < 7; ++j) code = V::select_sub32(V::gt_s32(a, t[j]), code, V::splat32(0xFFFFFFFFu), code);
      return code;
    } else {
      return block_vec::mx_codes<V, block_vec::MxGrid<F>>(x, t[0]);
    }
  }
  static constexpr int kThresholds = F == BlockFormat::NvFp4 ? 7 : 1;

  static bool block(const char* src, char* values, char* scale, const blocks::BlockParams& p) {
    Vec x[Shape::kVecs];
    Vec m = V::zero();
    for (int i = 0; i < Shape::kVecs; ++i) {
      x[i] = block_vec::load_f32<V, S>(src + i * kLanes * static_cast<int>(sizeof(S)));
      m = V::max_u32(m, magnitude(x[i]));
    }
    uint8_t code;
    uint32_t t[kThresholds];
    if (!scale_of(V::hmax_u32(m), p, &code, t, 1)) return false;
    *reinterpret_cast<unsigned char*>(scale) = code;
    Vec tv[kThresholds];
    for (int j = 0; j < kThresholds; ++j) tv[j] = V::splat32(t[j]);
    for (int i = 0; i < Shape::kVecs; ++i)
      block_vec::store_codes<V, Shape::kPacked>(values + i * Shape::kCodeBytes, codes(x[i], tv));
    return true;
  }

  static void tile(const char* src, int64_t src_step, char* values, int64_t value_row, int64_t value_step,
                   char* scales, int64_t scale_row, const blocks::BlockParams& p) {
    Vec x[kBlock];
    Vec m = V::zero();
    for (int i = 0; i < kBlock; ++i) {
      x[i] = block_vec::load_f32<V, S>(src + i * src_step);
      m = V::max_u32(m, magnitude(x[i]));
    }
    alignas(64) uint32_t amax[kLanes];
    alignas(64) uint32_t t[kThresholds][kLanes] = {};
    uint8_t code[kLanes];
    bool by_rule[kLanes];
    V::store(reinterpret_cast<char*>(amax), m);
    for (int l = 0; l < kLanes; ++l) by_rule[l] = !scale_of(amax[l], p, &code[l], &t[0][l], kLanes);
    Vec tv[kThresholds];
    for (int j = 0; j < kThresholds; ++j) tv[j] = V::load(reinterpret_cast<const char*>(t[j]));
    // Value byte j of every lane: a row of kLanes bytes, stored as one
    // where the lines' values are adjacent too, else gathered here and
    // written line by line.
    constexpr int kValues = Shape::kPacked ? kBlock / 2 : kBlock;
    alignas(64) char rows[kValues][kLanes];
    for (int j = 0; j < kValues; ++j) {
      const Vec byte = Shape::kPacked ? V::or32(codes(x[2 * j], tv), V::shl32(codes(x[2 * j + 1], tv), 4))
                                      : codes(x[j], tv);
      V::store_u8_of_u32(value_row == 1 ? values + j * value_step : rows[j], byte);
    }
    for (int l = 0; l < kLanes; ++l) {
      char* const v = values + l * value_row;
      if (by_rule[l]) {
        blocks::quantize_block<F, S>(src + l * static_cast<int64_t>(sizeof(S)), src_step, kBlock, v, value_step,
                                     scales + l * scale_row, p);
        continue;
      }
      scales[l * scale_row] = static_cast<char>(code[l]);
      if (value_row != 1)
        for (int j = 0; j < kValues; ++j) v[j * value_step] = rows[j][l];
    }
  }
};

// The same for dequantizing into D.
template <class V, BlockFormat F, typename D, typename = void>
struct VectorDequantize : std::false_type {};

template <class V, BlockFormat F, typename D>
struct VectorDequantize<V, F, D, std::enable_if_t<block_vec::kTakes<V, F, D>>> : std::true_type {
  using Vec = typename V::Vec;
  using Shape = block_vec::Shape<V, F>;
  static constexpr int kLanes = Shape::kLanes, kBlock = Shape::kBlock;
  static constexpr int kOut = kLanes * static_cast<int>(sizeof(D));

  // The float32 bits every element of a block with scale `code` is
  // multiplied by; false for a block the rule takes.
  static bool factor_of(uint8_t code, double g, uint32_t* factor) {
    if constexpr (F == BlockFormat::NvFp4) {
      if ((code & 0x7F) == 0x7F) return false;  // NaN scale
      const double sg = static_cast<double>(float8_to_float(Float8_e4m3fn{code})) * g;  // exact
      const float f = static_cast<float>(sg);
      *factor = block_vec::float_bits(f);
      // At most 22 significant bits, and every product normal and finite (or sg 0).
      const bool exact = static_cast<double>(f) == sg && (*factor & 3u) == 0;
      return exact && (sg == 0.0 || (sg >= 0x1p-125 && sg <= 0x1p124));
    } else {
      *factor = block_vec::e8m0_bits(code);
      if (code == 0xFF) return false;  // NaN scale
      return !(std::is_same<D, BFloat16>::value && code < 127 - 100);
    }
  }

  // E4M3 codes (a dword each, NaN codes aside) as float32 values.
  static Vec e4m3_values(Vec c) {
    const Vec mag = V::and32(c, V::splat32(0x7F));
    const Vec normal = V::add32(V::shl32(mag, 20), V::splat32(120u << 23));
    const Vec subnormal = V::f32_mul(V::i32_to_f32(mag), V::splat_f32(0x1p-9f));
    return V::or32(V::select(V::gt_s32(V::splat32(8), mag), subnormal, normal),
                   V::shl32(V::and32(c, V::splat32(0x80)), 24));
  }
  static Vec nan_codes(Vec m, Vec c) { return V::max_u32(m, V::and32(c, V::splat32(0x7F))); }

  static bool block(char* dst, const char* values, const char* scale, const blocks::BlockParams& p) {
    uint32_t factor;
    if (!factor_of(*reinterpret_cast<const unsigned char*>(scale), p.g, &factor)) return false;
    const Vec x = V::splat32(factor);
    if constexpr (Shape::kPacked) {
      for (int i = 0; i < Shape::kVecs; ++i)
        block_vec::store_as<V, D>(dst + i * kOut,
                                  V::f32_mul(block_vec::fp4_values<V>(values + i * Shape::kCodeBytes), x));
    } else {
      // A NaN code anywhere sends the block to the rule before anything is written.
      Vec c[Shape::kVecs];
      Vec m = V::zero();
      for (int i = 0; i < Shape::kVecs; ++i) {
        c[i] = V::widen_u8_u32(values + i * Shape::kCodeBytes);
        m = nan_codes(m, c[i]);
      }
      if (V::hmax_u32(m) == 0x7F) return false;
      for (int i = 0; i < Shape::kVecs; ++i)
        block_vec::store_as<V, D>(dst + i * kOut, V::f32_mul(e4m3_values(c[i]), x));
    }
    return true;
  }

  static void tile(char* dst, int64_t dst_step, const char* values, int64_t value_row, int64_t value_step,
                   const char* scales, int64_t scale_row, const blocks::BlockParams& p) {
    alignas(64) uint32_t factor[kLanes];
    bool by_rule[kLanes];
    for (int l = 0; l < kLanes; ++l)
      by_rule[l] = !factor_of(static_cast<uint8_t>(scales[l * scale_row]), p.g, &factor[l]);
    const Vec x = V::load(reinterpret_cast<const char*>(factor));
    // Value byte j of every lane as a row of kLanes bytes: in place where
    // the lines' values are adjacent too, else gathered here first.
    constexpr int kValues = Shape::kPacked ? kBlock / 2 : kBlock;
    alignas(64) char gathered[kValues][kLanes];
    if (value_row != 1)
      for (int l = 0; l < kLanes; ++l)
        for (int j = 0; j < kValues; ++j) gathered[j][l] = values[l * value_row + j * value_step];
    const auto row = [&](int j) {
      return V::widen_u8_u32(value_row == 1 ? values + j * value_step : gathered[j]);
    };
    if constexpr (Shape::kPacked) {
      for (int j = 0; j < kValues; ++j) {
        const Vec b = row(j);
        block_vec::store_as<V, D>(dst + 2 * j * dst_step,
                                  V::f32_mul(block_vec::fp4_value<V>(V::and32(b, V::splat32(0x0F))), x));
        block_vec::store_as<V, D>(dst + (2 * j + 1) * dst_step,
                                  V::f32_mul(block_vec::fp4_value<V>(V::template srl32<4>(b)), x));
      }
    } else {
      Vec m = V::zero();
      for (int j = 0; j < kValues; ++j) {
        const Vec c = row(j);
        m = nan_codes(m, c);
        block_vec::store_as<V, D>(dst + j * dst_step, V::f32_mul(e4m3_values(c), x));
      }
      alignas(64) uint32_t largest[kLanes];
      V::store(reinterpret_cast<char*>(largest), m);
      for (int l = 0; l < kLanes; ++l) by_rule[l] = by_rule[l] || largest[l] == 0x7F;
    }
    for (int l = 0; l < kLanes; ++l) {
      if (by_rule[l])
        blocks::dequantize_block<F, D>(dst + l * static_cast<int64_t>(sizeof(D)), dst_step, kBlock,
                                       values + l * value_row, value_step, scales + l * scale_row, p);
    }
  }
};

}  // namespace
}  // namespace cpu
}  // namespace st
