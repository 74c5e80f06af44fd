// The vector steps of the block rows (block_rows.inl): whole blocks of
// contiguous elements and values, one or a vector's width of them at a
// time, or bands of blocks along an outer dim, quantized or dequantized
// over a level's vector traits V (vec_base.h, kBlockScale), bit for bit
// the rule of core/numeric/block_scaling.h. Included by block_rows.inl
// only, once per level; everything is in an unnamed namespace (see
// copy_kernels.inl).
//
// Note [Block rows in vector steps]
// A block is read into registers as float32 bits (float16 and bfloat16
// widen exactly). Its amax is the largest magnitude's bits, by an integer
// max (non-negative floats order as their bits). The scales of kLanes
// blocks are computed at once, a block a lane; a block with a NaN or an
// infinity gets some code there and is redone whole by the scalar rule
// after the vector stores, so the special cases have one implementation.
// - MX scales: k = floor(log2 amax) - emax is amax's exponent field less
//   127 + emax (a float32 subnormal amax clamps to -127 either way), RCEIL
//   adding one where amax's fraction bits exceed the largest value's, as
//   mx_scale_exponent does on the exact double; k <= 126 for every finite
//   float32 amax, so 2^-k is a normal float32.
// - NVFP4 scales by bounds (Note [NVFP4 by bounds]): the code of amax /
//   (6g) is estimated from the float32 product amax · (1 / (6g)) (within
//   one code of the exact one where 6g is within 2^±100, else the rule's
//   nvfp4_scale_code lane by lane), then moved by comparing amax with the
//   bounds between the estimate's code and its neighbours.
// - MX elements: q = |x| · 2^-k by a float32 multiply, exact wherever the
//   result is a normal float32; a result below 2^-126 may round, but every
//   element grid's smallest nonzero half-step is far above that, so the
//   code is 0 either way. q is capped at the grid's largest value (the
//   rule's saturation: a magnitude beyond it rounds to it or overflows to
//   it), then rounded to nearest even by integer steps: a normal q by
//   adding half an ulp of the grid less one plus the kept bit's lowest bit
//   and shifting; a subnormal one by the float32 sum q + 2^(23 + e_min -
//   m) whose ulp is the grid's subnormal step, rounded by the FPU (MXCSR
//   at its default, as the drivers keep it).
// - NVFP4 elements: the code of |x| / sg on E2M1 is the number of the
//   grid's seven midpoints t below it, a tie counting toward the even
//   code: |x| compared with the bounds of t · sg, for every g; seven
//   compares, or on x86 (where a lookup of eight dwords in a register is
//   one instruction) three steps of a search of a block's bounds.
// - Dequantizing: the element's value (exact in float32) times the scale
//   by one float32 multiply. For MX into float32 that is the IEEE rounding
//   of the exact product, the rule's; into float16 it is exact unless
//   below 2^-126 (which float16 rounds to ±0 either way) or beyond
//   float32 (±inf either way), then rounded once by F16C; into bfloat16,
//   whose subnormals are float32's, only blocks with X >= 2^-100 (every
//   product normal, so exact) are taken. NVFP4's sg = s · g must have at
//   most 22 significant bits and keep every product normal, so that the
//   products are exact. bfloat16 rounds to nearest even by AVX512_BF16's
//   instruction where the CPU has it (it takes a subnormal as zero, and no
//   product here is one), else by integer steps. A block the vector steps
//   cannot take goes to the rule; an E4M3 NaN code becomes the positive
//   quiet NaN in its lane.
// - Blocks along an outer dim (a block's elements are one element of each
//   of 32 rows, the lines adjacent): a band of up to kBandLanes lines at a
//   time, lane l one line. Quantizing reads each of the band's rows across
//   the lines for the amaxes, then again (from L1 or L2) for the codes;
//   dequantizing writes each row across the lines. The runs along a row
//   are long enough for the hardware's prefetchers, where tiles of kLanes
//   lines (a run of 32 to 64 bytes a row) left the loads waiting on
//   memory; each band prefetches the next band's runs.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/macros.h"
#include "core/numeric/block_format.h"
#include "core/numeric/block_scaling.h"
#include "core/numeric/scalar_types.h"
#include "cpu/levels/nvfp4_bounds.h"

namespace st {
namespace cpu {
namespace {

namespace block_vec {

constexpr uint32_t kAbs32 = 0x7FFFFFFFu;

// How far ahead of its run of blocks a run prefetches its elements: a
// single run (1 to 2 KiB) ahead is too near to hide memory's latency
// behind the arithmetic (docs/performance.md, the block-scaled formats).
constexpr int64_t kRunAhead = 8192;

// The lines a band of blocks along an outer dim takes at a time: each of
// its rows is then a run of 512 to 1024 bytes of elements, long enough for
// the hardware's prefetchers, and the band stays in L1 or L2 between its
// two passes.
constexpr int64_t kBandLanes = 256;

// One whole block quantized by the rule, for the blocks the vector steps
// leave to it (a NaN or an infinity): out of line, so that the rule's code
// does not crowd the vector loops around the call (inlined, it made them
// slower at AVX-512; docs/performance.md).
template <BlockFormat F, typename S>
ST_NOINLINE void quantize_by_rule(const char* src, int64_t src_step, char* values, int64_t value_step, char* scale,
                                  const blocks::BlockParams& p) {
  blocks::quantize_block<F, S>(src, src_step, BlockTraits<F>::kBlock, values, value_step, scale, p);
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

// kPerStore vectors of codes (a dword each) as one vector of values: 4
// of a byte a code, or 8 of two codes a byte (low nibble first).
template <class V, bool kPacked>
ST_FORCE_INLINE typename V::Vec pack_codes(const typename V::Vec* k) {
  if constexpr (kPacked) {
    // Two codes' bytes to one: the odd byte's low nibble beside the even one's.
    const auto pair = [](typename V::Vec b) {
      return V::or32(V::and32(b, V::splat32(0x000F000Fu)), V::and32(V::template srl32<4>(b), V::splat32(0x00F000F0u)));
    };
    return V::pack_u16_u8(pair(V::pack_u32_u8(k[0], k[1], k[2], k[3])), pair(V::pack_u32_u8(k[4], k[5], k[6], k[7])));
  } else {
    return V::pack_u32_u8(k[0], k[1], k[2], k[3]);
  }
}

// The E2M1 values as float32 bits, by code (bit 3 the sign).
alignas(64) constexpr uint32_t kE2M1Bits[16] = {
    0x00000000u, 0x3F000000u, 0x3F800000u, 0x3FC00000u, 0x40000000u, 0x40400000u, 0x40800000u, 0x40C00000u,
    0x80000000u, 0xBF000000u, 0xBF800000u, 0xBFC00000u, 0xC0000000u, 0xC0400000u, 0xC0800000u, 0xC0C00000u};

// FP4 codes (a dword each, in its low 4 bits; the bits above are ignored)
// as float32 values.
template <class V>
typename V::Vec fp4_value(typename V::Vec c) {
  return V::lookup16_u32(kE2M1Bits, c);
}

// Stores kLanes float32 lanes as D: float32, float16 (F16C's rounding) or
// bfloat16 (nearest even, by the level's instruction where it has one, else
// by integer steps; the lanes are the products of Note [Block rows in
// vector steps], never subnormal, and the only NaN is the positive quiet
// one, which both ways keep).
template <class V, typename D>
void store_as(char* p, typename V::Vec v) {
  if constexpr (std::is_same<D, float>::value) {
    V::store(p, v);
  } else if constexpr (std::is_same<D, Half>::value) {
    V::store_half(p, V::f32_to_f16(v));
  } else if constexpr (V::kBf16Store) {
    V::store_bf16(p, v);
  } else {
    const typename V::Vec round = V::add32(V::splat32(0x7FFF), V::and32(V::template srl32<16>(v), V::splat32(1)));
    V::store_u16_of_u32(p, V::template srl32<16>(V::add32(v, round)));
  }
}

// A block of format F in level V's vectors of float32 lanes: kVecs of
// them, their codes kCodeBytes bytes each, the block's kValueBytes.
template <class V, BlockFormat F>
struct Shape {
  using Vec = typename V::Vec;
  static constexpr int kLanes = static_cast<int>(V::kBytes / 4);
  static constexpr int kBlock = static_cast<int>(BlockTraits<F>::kBlock);
  static_assert(kBlock % kLanes == 0, "a block is whole vectors");
  static constexpr int kVecs = kBlock / kLanes;
  static constexpr bool kPacked = BlockTraits<F>::kPacked;
  static constexpr int kCodeBytes = kPacked ? kLanes / 2 : kLanes;
  static constexpr int kValueBytes = kPacked ? kBlock / 2 : kBlock;
};

// The formats and dtypes the vector steps take, at a level that has them.
template <class V, BlockFormat F, typename T>
constexpr bool kTakes = V::kBlockScale && V::kConvert && Widens<T>::value &&
                        (F == BlockFormat::MxFp8E4M3 || F == BlockFormat::MxFp4E2M1 || F == BlockFormat::NvFp4);

// What every block of a call of format F shares: the rule and g, and
// NVFP4's tables.
template <BlockFormat F>
struct Call {
  blocks::BlockParams params;
  const NvFp4Tables* nv;
  explicit Call(const blocks::BlockParams& p) : params(p), nv(F == BlockFormat::NvFp4 ? nvfp4_tables(p.g) : nullptr) {}
};

// 2^(code - 127) as float32 bits, code 0 to 254.
inline uint32_t e8m0_bits(uint8_t code) { return code == 0 ? 0x00400000u : static_cast<uint32_t>(code) << 23; }

}  // namespace block_vec

// Whether level V quantizes blocks of format F from S in vector steps:
// block(), a whole block of contiguous elements and values (false, with
// nothing written, for a block it leaves to the rule); group(), kLanes
// such blocks one after another; band(), block b of up to kBandLanes
// adjacent lines (blocks along an outer dim: lane l is line l); every
// block the rule's bits.
template <class V, BlockFormat F, typename S, typename = void>
struct VectorQuantize : std::false_type {};

template <class V, BlockFormat F, typename S>
struct VectorQuantize<V, F, S, std::enable_if_t<block_vec::kTakes<V, F, S>>> : std::true_type {
  using Vec = typename V::Vec;
  using Shape = block_vec::Shape<V, F>;
  static constexpr int kLanes = Shape::kLanes, kBlock = Shape::kBlock;
  static constexpr bool kNvFp4 = F == BlockFormat::NvFp4;
  static constexpr int kThresholds = kNvFp4 ? 7 : 1;
  static constexpr int kItem = static_cast<int>(sizeof(S));
  static constexpr int kValueBytes = Shape::kValueBytes;

  using Call = block_vec::Call<F>;

  static Vec magnitude(Vec x) { return V::and32(x, V::splat32(block_vec::kAbs32)); }

  // The scale codes of kLanes blocks whose largest magnitudes are the
  // float32 bits `amax`, by the rule (Note [Block rows in vector steps]);
  // a lane with a NaN or an infinity gets some code from 0 to 255 (at
  // most 127 for NVFP4), which its caller leaves to the rule.
  static Vec scale_codes(Vec amax, const Call& c) {
    if constexpr (kNvFp4) {
      const block_vec::NvFp4Tables& t = *c.nv;
      if (!t.estimate) {  // the rule, lane by lane
        alignas(64) uint32_t a[kLanes], code[kLanes];
        V::store(reinterpret_cast<char*>(a), amax);
        for (int l = 0; l < kLanes; ++l) code[l] = block_vec::nvfp4_scale_code(a[l], t, c.params.g);
        return V::load(reinterpret_cast<const char*>(code));
      }
      // An estimate within one code of the exact one, then the bounds on either side.
      const Vec q = V::f32_mul(amax, V::splat32(t.inv_6g));
      const Vec normal = V::sub32(V::template srl32<20>(V::add32(q, V::splat32(1u << 19))), V::splat32(120u << 3));
      const Vec subnormal = V::f32_to_i32_nearest_clamped(V::f32_mul(q, V::splat_f32(512.0f)), 0.0f, 8.0f);
      Vec code = V::min_u32(V::select(V::gt_s32(V::splat32(121u << 23), q), subnormal, normal), V::splat32(126));
      const Vec above = V::lookup_u32(t.scale_bound + 1, code);
      const Vec below = V::lookup_u32(t.scale_bound, code);
      code = V::add_one32(V::gt_s32(amax, above), code);
      return V::select_sub32(V::gt_s32(amax, below), code, V::zero(), V::sub32(code, V::splat32(1)));
    } else {
      // floor(log2 amax) - emax (+1 by RCEIL where amax's fraction exceeds the largest value's), clamped at
      // -127, plus 127: a float32 subnormal amax gives 0 either way.
      constexpr uint32_t kFraction = BlockTraits<F>::kMaxFraction << 16;
      Vec e = V::template srl32<23>(amax);
      if (c.params.rule == ScaleRule::RCeil)
        e = V::add_one32(V::gt_s32(V::and32(amax, V::splat32(0x7FFFFFu)), V::splat32(kFraction)), e);
      const Vec emax = V::splat32(static_cast<uint32_t>(BlockTraits<F>::kEmax));
      return V::select(V::gt_s32(emax, e), V::zero(), V::sub32(e, emax));
    }
  }

  // The same for one block, in scalar steps.
  static uint32_t scale_code(uint32_t amax, const Call& c) {
    if constexpr (kNvFp4) {
      return block_vec::nvfp4_scale_code(amax, *c.nv, c.params.g);
    } else {
      constexpr uint32_t kFraction = BlockTraits<F>::kMaxFraction << 16;
      const uint32_t e = (amax >> 23) + (c.params.rule == ScaleRule::RCeil && (amax & 0x7FFFFFu) > kFraction ? 1 : 0);
      constexpr uint32_t kEmax = static_cast<uint32_t>(BlockTraits<F>::kEmax);
      return e > kEmax ? e - kEmax : 0;
    }
  }

  // What codes() needs of scale codes `code`: the multiplier 2^-k as
  // float32 bits (MX; k = code - 127 <= 126 for every finite float32
  // amax, so 2^-k is a normal float32), or the bounds of the E2M1
  // midpoints (NVFP4), lane by lane.
  static void thresholds(Vec code, const Call& c, Vec* t) {
    if constexpr (kNvFp4) {
      const Vec at = V::shl32(code, 3);
      for (int j = 0; j < 7; ++j) t[j] = V::lookup_u32(&c.nv->element_bound[0][j], at);
    } else {
      t[0] = V::shl32(V::sub32(V::splat32(254), code), 23);
    }
  }
  // The same for one block's scale code, in every lane.
  static void thresholds(uint32_t code, const Call& c, Vec* t) {
    if constexpr (kNvFp4) {
      for (int j = 0; j < 7; ++j) t[j] = V::splat32(c.nv->element_bound[code][j]);
    } else {
      t[0] = V::splat32((254u - code) << 23);
    }
  }

  // The codes of the float32 lanes x, by their thresholds.
  static Vec codes(Vec x, const Vec* t) {
    if constexpr (kNvFp4) {
      const Vec a = magnitude(x);
      Vec code = V::template srl32<28>(V::and32(x, V::splat32(0x80000000u)));
      for (int j = 0; j < 7; ++j) code = V::add_one32(V::gt_s32(a, t[j]), code);
      return code;
    } else {
      return block_vec::mx_codes<V, block_vec::MxGrid<F>>(x, t[0]);
    }
  }

  // NVFP4's code of the float32 lanes x by three steps of a search of one
  // block's bounds (eight: the seven midpoints' and one never passed),
  // looked up in a register: fewer operations than seven compares where
  // such a lookup is one instruction (x86's vpermd).
  static constexpr bool kSearch = kNvFp4 && V::kBytes >= 32;
  static Vec codes_by_search(Vec x, const uint32_t* bounds) {
    const Vec a = magnitude(x);
    Vec code = V::select(V::gt_s32(a, V::splat32(bounds[3])), V::splat32(4), V::zero());
    code = V::select_sub32(V::gt_s32(a, V::lookup8_u32(bounds, V::add32(code, V::splat32(1)))), code,
                           V::splat32(0xFFFFFFFEu), code);
    code = V::add_one32(V::gt_s32(a, V::lookup8_u32(bounds, code)), code);
    return V::or32(code, V::template srl32<28>(V::and32(x, V::splat32(0x80000000u))));
  }

  // The codes of float32 lanes of one block whose scale code is `code`:
  // what they compare with (its bounds, or its thresholds) made once.
  struct BlockCoder {
    BlockCoder(uint32_t code, const Call& c) {
      if constexpr (kSearch) {
        bounds = c.nv->element_bound[code];
      } else {
        thresholds(code, c, t);
      }
    }
    Vec operator()(Vec x) const {
      if constexpr (kSearch) {
        return codes_by_search(x, bounds);
      } else {
        return codes(x, t);
      }
    }
    const uint32_t* bounds = nullptr;
    Vec t[kThresholds];
  };

  static Vec load_block(const char* src, int i) { return block_vec::load_f32<V, S>(src + i * kLanes * kItem); }

  // One whole block of contiguous elements and values; false, with
  // nothing written, for a block with a NaN or an infinity.
  static bool block(const char* src, char* values, char* scale, const Call& c) {
    Vec m = magnitude(load_block(src, 0));
    for (int i = 1; i < Shape::kVecs; ++i) m = V::max_u32(m, magnitude(load_block(src, i)));
    const uint32_t amax = V::hmax_u32(m);
    if (amax >= block_vec::kInf32) return false;
    const uint32_t code = scale_code(amax, c);
    *scale = static_cast<char>(code);
    const BlockCoder coder(code, c);
    for (int i = 0; i < Shape::kVecs; ++i)
      block_vec::store_codes<V, Shape::kPacked>(values + i * Shape::kCodeBytes, coder(load_block(src, i)));
    return true;
  }

  static constexpr bool kGroup = true, kQuantize = true;
  static constexpr int64_t kBandLanes = block_vec::kBandLanes;
  // kLanes whole blocks, one after another in the elements and in the
  // values, their scales `scale_step` bytes apart.
  static void group(const char* src, char* values, char* scales, int64_t scale_step, const Call& c) {
    Vec m[kLanes];
    for (int b = 0; b < kLanes; ++b) {
      const char* const e = src + b * kBlock * kItem;
      // The lines kRunAhead bytes on, so that their reads overlap the arithmetic.
      for (int k = 0; k < kBlock * kItem; k += 64) ST_PREFETCH(e + block_vec::kRunAhead + k);
      m[b] = magnitude(load_block(e, 0));
      for (int i = 1; i < Shape::kVecs; ++i) m[b] = V::max_u32(m[b], magnitude(load_block(e, i)));
    }
    const Vec a = V::hmax_u32_each(m);
    alignas(64) uint32_t amax[kLanes];
    V::store(reinterpret_cast<char*>(amax), a);
    const Vec code = scale_codes(a, c);
    alignas(64) uint32_t codes_of[kLanes];
    V::store(reinterpret_cast<char*>(codes_of), code);
    if (scale_step == 1) {
      V::store_u8_of_u32(scales, code);
    } else {
      for (int b = 0; b < kLanes; ++b) scales[b * scale_step] = static_cast<char>(codes_of[b]);
    }
    // Every block in vector steps, then those with a NaN or an infinity again by the rule.
    const bool special = V::any32(V::gt_s32(a, V::splat32(block_vec::kInf32 - 1)));
    // The run's kBlock vectors of codes, a whole vector of values at a
    // time, each block's thresholds made once for its vectors in the store.
    constexpr int kPerStore = Shape::kPacked ? 8 : 4;
    constexpr int kOfBlock = kPerStore < Shape::kVecs ? kPerStore : Shape::kVecs;
    for (int v0 = 0; v0 < kBlock; v0 += kPerStore) {
      // Unrolled, so that the codes stay in registers until they are packed.
      Vec k[kPerStore];
#pragma GCC unroll 8
      for (int u0 = 0; u0 < kPerStore; u0 += kOfBlock) {
        const BlockCoder coder(codes_of[(v0 + u0) / Shape::kVecs], c);
#pragma GCC unroll 8
        for (int u = u0; u < u0 + kOfBlock; ++u)
          k[u] = coder(block_vec::load_f32<V, S>(src + (v0 + u) * kLanes * kItem));
      }
      V::store(values + v0 * Shape::kCodeBytes, block_vec::pack_codes<V, Shape::kPacked>(k));
    }
    if (special)
      for (int b = 0; b < kLanes; ++b)
        if (amax[b] >= block_vec::kInf32)
          block_vec::quantize_by_rule<F, S>(src + b * kBlock * kItem, kItem, values + b * kValueBytes, 1,
                                            scales + b * scale_step, c.params);
  }

  // Block b of `lanes` adjacent lines (a multiple of kLanes, at most
  // kBandLanes), whose elements, values and scales are each adjacent from
  // one line to the next (blocks along an outer dim: lane l is line l),
  // every lane the rule's bits. Each of the block's rows is read across
  // the lanes, once for the amax and once more, from the caches, for the
  // codes; the first read prefetches what the next band reads, `ahead`
  // bytes further.
  static void band(const char* src, int64_t src_step, char* values, int64_t value_row, int64_t value_step,
                   char* scales, int64_t scale_row, int64_t lanes, int64_t ahead, const Call& c) {
    alignas(64) uint32_t amax[kBandLanes];
    alignas(64) uint32_t t[kThresholds][kBandLanes];
    for (int64_t l = 0; l < lanes; l += kLanes) V::store(reinterpret_cast<char*>(amax + l), V::zero());
    for (int i = 0; i < kBlock; ++i) {
      const char* const row = src + i * src_step;
      for (int64_t l = 0; l < lanes; l += kLanes) {
        ST_PREFETCH(row + l * kItem + ahead);
        char* const m = reinterpret_cast<char*>(amax + l);
        V::store(m, V::max_u32(V::load(m), magnitude(block_vec::load_f32<V, S>(row + l * kItem))));
      }
    }
    for (int64_t l = 0; l < lanes; l += kLanes) {
      const Vec code = scale_codes(V::load(reinterpret_cast<const char*>(amax + l)), c);
      if (scale_row == 1) {
        V::store_u8_of_u32(scales + l, code);
      } else {
        alignas(64) uint32_t codes_of[kLanes];
        V::store(reinterpret_cast<char*>(codes_of), code);
        for (int k = 0; k < kLanes; ++k) scales[(l + k) * scale_row] = static_cast<char>(codes_of[k]);
      }
      Vec tv[kThresholds];
      thresholds(code, c, tv);
      for (int j = 0; j < kThresholds; ++j) V::store(reinterpret_cast<char*>(t[j] + l), tv[j]);
    }
    // Value byte j of every lane, a row of `lanes` bytes: stored in place
    // where the lines' values are adjacent too, else here and then written
    // line by line.
    alignas(64) char rows[kValueBytes][kBandLanes];
    // The byte of value row j of lanes l to l + kLanes, a dword each.
    const auto value_bytes = [&](const char* row, int64_t l) {
      Vec tv[kThresholds];
      for (int k = 0; k < kThresholds; ++k) tv[k] = V::load(reinterpret_cast<const char*>(t[k] + l));
      const char* const e = row + l * kItem;
      return Shape::kPacked ? V::or32(codes(block_vec::load_f32<V, S>(e), tv),
                                      V::shl32(codes(block_vec::load_f32<V, S>(e + src_step), tv), 4))
                            : codes(block_vec::load_f32<V, S>(e), tv);
    };
    for (int j = 0; j < kValueBytes; ++j) {
      const char* const row = src + (Shape::kPacked ? 2 * j : j) * src_step;
      char* const out = value_row == 1 ? values + j * value_step : rows[j];
      int64_t l = 0;
      for (; l + 4 * kLanes <= lanes; l += 4 * kLanes)  // a whole vector of bytes at a time
        V::store(out + l, V::pack_u32_u8(value_bytes(row, l), value_bytes(row, l + kLanes),
                                         value_bytes(row, l + 2 * kLanes), value_bytes(row, l + 3 * kLanes)));
      for (; l < lanes; l += kLanes) V::store_u8_of_u32(out + l, value_bytes(row, l));
    }
    if (value_row != 1)
      for (int64_t l = 0; l < lanes; ++l)
        for (int j = 0; j < kValueBytes; ++j) values[l * value_row + j * value_step] = rows[j][l];
    for (int64_t l = 0; l < lanes; ++l)
      if (amax[l] >= block_vec::kInf32)
        block_vec::quantize_by_rule<F, S>(src + l * kItem, src_step, values + l * value_row, value_step,
                                          scales + l * scale_row, c.params);
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
  static constexpr int kValueBytes = Shape::kValueBytes;
  static constexpr int64_t kBandLanes = block_vec::kBandLanes;
  static constexpr uint32_t kQuietNaN32 = 0x7FC00000u;  // as the rule's kQuietNaNBits, in float32
  static constexpr bool kGroup = true, kQuantize = false;

  using Call = block_vec::Call<F>;

  // The float32 bits every element of a block with scale `code` is
  // multiplied by; false for a block the rule takes.
  static bool factor_of(uint8_t code, const Call& c, uint32_t* factor) {
    if constexpr (F == BlockFormat::NvFp4) {
      *factor = c.nv->factor[code];
      return c.nv->factor_exact[code];
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
  // The values of kLanes codes (a dword each) times x: E4M3's NaN codes
  // as the positive quiet NaN.
  static Vec scaled(Vec code, Vec x) {
    if constexpr (Shape::kPacked) {
      return V::f32_mul(block_vec::fp4_value<V>(code), x);
    } else {
      const auto nan = V::gt_s32(V::and32(code, V::splat32(0x7F)), V::splat32(0x7E));
      return V::select(nan, V::splat32(kQuietNaN32), V::f32_mul(e4m3_values(code), x));
    }
  }
  // Vector i of a block's codes, a dword each (FP4: in the low 4 bits).
  static Vec codes_at(const char* values, int i) {
    if constexpr (Shape::kPacked) {
      // A byte's low nibble in its qword's low dword, its high one shifted
      // into the high dword; the bits above each nibble fp4_value ignores.
      const Vec w = V::widen_u8_u64(values + i * Shape::kCodeBytes);
      return V::or32(w, V::template sll64<28>(w));
    } else {
      return V::widen_u8_u32(values + i * Shape::kCodeBytes);
    }
  }

  // One whole block of contiguous elements and values; false, with
  // nothing written, for a block whose scale the vector steps cannot apply.
  static bool block(char* dst, const char* values, const char* scale, const Call& c) {
    uint32_t factor;
    if (!factor_of(*reinterpret_cast<const unsigned char*>(scale), c, &factor)) return false;
    const Vec x = V::splat32(factor);
    for (int i = 0; i < Shape::kVecs; ++i) block_vec::store_as<V, D>(dst + i * kOut, scaled(codes_at(values, i), x));
    return true;
  }

  // kLanes whole blocks, one after another in the elements and in the
  // values, their scales `scale_step` bytes apart.
  static void group(char* dst, const char* values, const char* scales, int64_t scale_step, const Call& c) {
    alignas(64) uint32_t factor[kLanes];
    bool vector = true;
    for (int b = 0; b < kLanes; ++b)
      vector = factor_of(static_cast<uint8_t>(scales[b * scale_step]), c, &factor[b]) && vector;
    constexpr int64_t kBlockBytes = kBlock * static_cast<int64_t>(sizeof(D));
    if (!vector) {
      // Block by block, some by the rule. Apart from the loop below, which
      // then calls nothing: a call there clobbers every vector register,
      // so the compiler made each block's constants again.
      for (int b = 0; b < kLanes; ++b)
        if (!block(dst + b * kBlockBytes, values + b * kValueBytes, scales + b * scale_step, c))
          blocks::dequantize_block<F, D>(dst + b * kBlockBytes, sizeof(D), kBlock, values + b * kValueBytes, 1,
                                         scales + b * scale_step, c.params);
      return;
    }
    for (int b = 0; b < kLanes; ++b) {
      const Vec x = V::splat32(factor[b]);
      for (int i = 0; i < Shape::kVecs; ++i)
        block_vec::store_as<V, D>(dst + b * kBlockBytes + i * kOut, scaled(codes_at(values + b * kValueBytes, i), x));
    }
  }

  // Block b of `lanes` adjacent lines, as VectorQuantize::band (`ahead`
  // of the values where the lines' values are adjacent): each of the
  // block's rows written across the lanes, the NaN codes as the
  // positive quiet NaN, the lanes whose scale the vector steps cannot
  // apply again by the rule.
  static void band(char* dst, int64_t dst_step, const char* values, int64_t value_row, int64_t value_step,
                   const char* scales, int64_t scale_row, int64_t lanes, int64_t ahead, const Call& c) {
    alignas(64) uint32_t factor[kBandLanes];
    bool by_rule[kBandLanes];
    bool any_by_rule = false;
    for (int64_t l = 0; l < lanes; ++l) {
      by_rule[l] = !factor_of(static_cast<uint8_t>(scales[l * scale_row]), c, &factor[l]);
      any_by_rule = any_by_rule || by_rule[l];
    }
    // Value byte j of every lane as a row of `lanes` bytes: in place where
    // the lines' values are adjacent too, else gathered here first.
    alignas(64) char gathered[kValueBytes][kBandLanes];
    if (value_row != 1)
      for (int64_t l = 0; l < lanes; ++l)
        for (int j = 0; j < kValueBytes; ++j) gathered[j][l] = values[l * value_row + j * value_step];
    for (int j = 0; j < kValueBytes; ++j) {
      const char* const row = value_row == 1 ? values + j * value_step : gathered[j];
      for (int64_t l = 0; l < lanes; l += kLanes) {
        if (value_row == 1) ST_PREFETCH(row + l + ahead);  // not the gathered copy
        const Vec b = V::widen_u8_u32(row + l);
        const Vec x = V::load(reinterpret_cast<const char*>(factor + l));
        char* const out = dst + l * static_cast<int64_t>(sizeof(D));
        if constexpr (Shape::kPacked) {
          block_vec::store_as<V, D>(out + 2 * j * dst_step, scaled(b, x));  // the high nibble ignored
          block_vec::store_as<V, D>(out + (2 * j + 1) * dst_step, scaled(V::template srl32<4>(b), x));
        } else {
          block_vec::store_as<V, D>(out + j * dst_step, scaled(b, x));
        }
      }
    }
    if (any_by_rule)
      for (int64_t l = 0; l < lanes; ++l)
        if (by_rule[l])
          blocks::dequantize_block<F, D>(dst + l * static_cast<int64_t>(sizeof(D)), dst_step, kBlock,
                                         values + l * value_row, value_step, scales + l * scale_row, c.params);
  }
};

}  // namespace
}  // namespace cpu
}  // namespace st
