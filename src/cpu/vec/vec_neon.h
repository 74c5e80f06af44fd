// The NEON level (AArch64's Advanced SIMD) of the vector traits (vec_base.h
// lists what a level provides): 16-byte vectors, register tiles and the
// conversions; no masks (partial tiles and conversion tails go element by
// element), no gathers, no streaming stores (STNP is a hint whose worth
// differs between cores, and nothing here could measure it: contiguous
// copies are memcpy, as at the portable level). Include only from
// the files of cpu/levels/neon/, which src/CMakeLists.txt builds for AArch64 targets.
//
// Everything used here is baseline ARMv8-A, the toolchain's default target,
// so the level needs no flags and no run-time check beyond the
// architecture: Advanced SIMD is in every AArch64 processor, and so are
// its float16 <-> float32 conversions (FCVTL, FCVTN). FEAT_FP16 (Linux's
// HWCAP_FPHP / HWCAP_ASIMDHP) adds float16 arithmetic, which no kernel uses.
//
// The conversions are bit-identical to convert_rules.h in the default
// floating-point environment that the drivers set (FPCR 0: round to
// nearest even, no flush to zero, no default NaN; core/numeric/float_env.h). Where
// an instruction differs from the rule (FCVTL quiets signalling NaNs; FMIN
// and FMAX are not x86's MINPS and MAXPS), the lines below say how the
// difference is undone.
#pragma once

#if !defined(__aarch64__) && !defined(_M_ARM64)
#error "vec_neon.h is the AArch64 level: include it only from cpu/levels/neon/"
#endif

#include <arm_neon.h>

#include <cstdint>
#include <cstring>

#include "cpu/vec/vec_base.h"

namespace st {
namespace cpu {
namespace {

struct VecNeon : VecBase, BytewiseParts<16> {
  static constexpr const char* kName = "neon";
  static constexpr int64_t kBytes = 16;
  static constexpr bool kRegisterTiles = true, kConvert = true;

  // Bytes, as x86's __m128i; each operation reads them as its lanes.
  using Vec = uint8x16_t;
  using Half = uint8x8_t;     // 8 bytes
  using Quarter = uint8x8_t;  // the low 4 bytes
  static uint32x4_t u32(Vec v) { return vreinterpretq_u32_u8(v); }
  static uint16x8_t u16(Vec v) { return vreinterpretq_u16_u8(v); }
  static uint64x2_t u64(Vec v) { return vreinterpretq_u64_u8(v); }
  static float32x4_t f32(Vec v) { return vreinterpretq_f32_u8(v); }
  static Vec bytes(uint32x4_t v) { return vreinterpretq_u8_u32(v); }
  static Vec bytes(int32x4_t v) { return vreinterpretq_u8_s32(v); }
  static Vec bytes(uint16x8_t v) { return vreinterpretq_u8_u16(v); }
  static Vec bytes(int64x2_t v) { return vreinterpretq_u8_s64(v); }
  static Vec bytes(uint64x2_t v) { return vreinterpretq_u8_u64(v); }
  static Vec bytes(float32x4_t v) { return vreinterpretq_u8_f32(v); }
  static Vec bytes(float64x2_t v) { return vreinterpretq_u8_f64(v); }

  static Vec load(const char* p) { return vld1q_u8(reinterpret_cast<const uint8_t*>(p)); }
  static void store(char* p, Vec v) { vst1q_u8(reinterpret_cast<uint8_t*>(p), v); }
  static void stream(char* p, Vec v) { store(p, v); }
  static void fence() {}
  static Vec zero() { return vdupq_n_u8(0); }

  static Vec splat8(uint64_t v) { return bytes(vdupq_n_u64(v)); }
  static Vec splat16(const char* p) { return load(p); }
  // Reversed within each qword, then the qwords swapped.
  template <int E>
  static Vec reverse(Vec v) {
    if constexpr (E == 16) {
      return v;
    } else {
      Vec r = v;
      if constexpr (E == 1) r = vrev64q_u8(v);
      if constexpr (E == 2) r = bytes(vrev64q_u16(u16(v)));
      if constexpr (E == 4) r = bytes(vrev64q_u32(u32(v)));
      return vextq_u8(r, r, 8);
    }
  }
  // Elements 0, 2, 4, ... of the 32 bytes at p: one deinterleaving load.
  template <int E>
  static Vec every_second(const char* p) {
    const auto* q = reinterpret_cast<const uint8_t*>(p);
    if constexpr (E == 1) return vld2q_u8(q).val[0];
    if constexpr (E == 2) return bytes(vld2q_u16(reinterpret_cast<const uint16_t*>(q)).val[0]);
    if constexpr (E == 4) return bytes(vld2q_u32(reinterpret_cast<const uint32_t*>(q)).val[0]);
    if constexpr (E == 8) return bytes(vld2q_u64(reinterpret_cast<const uint64_t*>(q)).val[0]);
    return load(p);
  }

  // Register tiles: one 16-byte lane per vector, so the lanes stay put.
  static Vec unpacklo32(Vec a, Vec b) { return bytes(vzip1q_u32(u32(a), u32(b))); }
  static Vec unpackhi32(Vec a, Vec b) { return bytes(vzip2q_u32(u32(a), u32(b))); }
  static Vec unpacklo64(Vec a, Vec b) { return bytes(vzip1q_u64(u64(a), u64(b))); }
  static Vec unpackhi64(Vec a, Vec b) { return bytes(vzip2q_u64(u64(a), u64(b))); }
  static void transpose_lanes(Vec*) {}
  static Half load_half(const char* p) { return vld1_u8(reinterpret_cast<const uint8_t*>(p)); }
  static Quarter load_quarter(const char* p) {
    uint32_t w;
    std::memcpy(&w, p, 4);
    return vreinterpret_u8_u32(vdup_n_u32(w));
  }
  // Dword j is (a[j], b[j]) of 16-bit elements.
  static Vec zip2_epi16(Half a, Half b) {
    const uint16x4_t x = vreinterpret_u16_u8(a), y = vreinterpret_u16_u8(b);
    return bytes(vcombine_u16(vzip1_u16(x, y), vzip2_u16(x, y)));
  }
  // Dword j is (a[j], b[j], c[j], d[j]) of bytes.
  static Vec zip4_epi8(Quarter a, Quarter b, Quarter c, Quarter d) {
    const uint16x4_t ab = vreinterpret_u16_u8(vzip1_u8(a, b)), cd = vreinterpret_u16_u8(vzip1_u8(c, d));
    return bytes(vcombine_u16(vzip1_u16(ab, cd), vzip2_u16(ab, cd)));
  }

  // float16: FCVTN rounds by FPCR (nearest even) and makes a NaN the rule's
  // (sign | 0x7e00 | mantissa >> 13); FCVTL is exact but quiets a
  // signalling NaN, whose quiet bit is taken back off (the rule keeps a
  // NaN's bits): lanes with all exponent bits, a clear quiet bit and a
  // nonzero payload.
  static Half f32_to_f16(Vec v) { return vreinterpret_u8_f16(vcvt_f16_f32(f32(v))); }
  static Vec concat(Half lo, Half hi) { return vcombine_u8(lo, hi); }
  static Vec f16_to_f32_quieting(Half h) { return bytes(vcvt_f32_f16(vreinterpret_f16_u8(h))); }
  static Vec f16_to_f32(Half h) {
    const uint32x4_t f = u32(f16_to_f32_quieting(h));
    const uint32x4_t a = vandq_u32(vmovl_u16(vreinterpret_u16_u8(h)), vdupq_n_u32(0x7fff));
    const uint32x4_t signalling = vandq_u32(vcgtq_u32(a, vdupq_n_u32(0x7c00)), vcltq_u32(a, vdupq_n_u32(0x7e00)));
    return bytes(vbicq_u32(f, vandq_u32(signalling, vdupq_n_u32(0x00400000))));
  }
  // The dwords of a, then of b (each below 2^16), as 16-bit elements.
  static Vec narrow_u32_u16(Vec a, Vec b) { return bytes(vuzp1q_u16(u16(a), u16(b))); }
  static Vec widen_u8(Quarter q) { return bytes(vmovl_u16(vget_low_u16(vmovl_u8(q)))); }
  static Vec widen_u16(Half h) { return bytes(vmovl_u16(vreinterpret_u16_u8(h))); }
  static Vec shl32(Vec v, int n) { return bytes(vshlq_u32(u32(v), vdupq_n_s32(n))); }
  static Vec i32_to_f32(Vec v) { return bytes(vcvtq_f32_s32(vreinterpretq_s32_u8(v))); }

  // Integers to floats: exact, or one rounding by the conversion (SCVTF,
  // UCVTF: FPCR's nearest even, as the rule's own conversion); uint64 ->
  // float32 has no single rounding in a vector and goes by the rule (no
  // kConvertU64ToF32).
  static Vec i64_to_f64(Vec v) { return bytes(vcvtq_f64_s64(vreinterpretq_s64_u8(v))); }
  static Vec u16_to_f64(Quarter q) {
    return bytes(vcvtq_f64_u64(vmovl_u32(vget_low_u32(vmovl_u16(vreinterpret_u16_u8(q))))));
  }
  static Vec u32_to_f32(Vec v) { return bytes(vcvtq_f32_u32(u32(v))); }
  static Vec u32_to_f64(Half h) { return bytes(vcvtq_f64_u64(vmovl_u32(vreinterpret_u32_u8(h)))); }
  static Vec u64_to_f64(Vec v) { return bytes(vcvtq_f64_u64(u64(v))); }
  static Vec widen_i8(Quarter q) { return bytes(vmovl_s16(vget_low_s16(vmovl_s8(vreinterpret_s8_u8(q))))); }
  static Vec widen_i16(Half h) { return bytes(vmovl_s16(vreinterpret_s16_u8(h))); }
  static Vec i32_to_f32_nearest(Vec v) { return i32_to_f32(v); }
  static Vec i32_to_f64(Half h) { return bytes(vcvtq_f64_s64(vmovl_s32(vreinterpret_s32_u8(h)))); }

  // float32 <-> float64 as the scalar FCVT does (exact, or one rounding;
  // both quiet a signalling NaN, as the rule's own conversion does here).
  static Vec f32_to_f64(Half h) { return bytes(vcvt_f64_f32(vreinterpret_f32_u8(h))); }
  static Half f64_to_f32(Vec v) { return vreinterpret_u8_f32(vcvt_f32_f64(vreinterpretq_f64_u8(v))); }
  static Vec widen_i32_i64(Half h) { return bytes(vmovl_s32(vreinterpret_s32_u8(h))); }
  static Half narrow_i64_i32(Vec v) { return vreinterpret_u8_u32(vmovn_u64(u64(v))); }  // the low halves: the wrap
  // FCVTZS is the rule itself: toward zero, saturated, NaN to 0.
  static Vec f32_to_i32_saturating(Vec v) { return bytes(vcvtq_s32_f32(f32(v))); }
  // FCVTZU saturates to [0, 2^32) and takes NaN to 0; the minimum caps 255.
  static Vec f32_to_u8_lanes(Vec v) { return bytes(vminq_u32(vcvtq_u32_f32(f32(v)), vdupq_n_u32(255))); }

  // 32-bit lanes in integer steps, for the float8 conversions
  // (convert_kernels.inl); Lanes is a predicate per lane (all ones or 0).
  using Lanes = uint32x4_t;
  static Vec splat32(uint32_t v) { return bytes(vdupq_n_u32(v)); }
  static Vec and32(Vec a, Vec b) { return vandq_u8(a, b); }
  static Vec or32(Vec a, Vec b) { return vorrq_u8(a, b); }
  static Vec add32(Vec a, Vec b) { return bytes(vaddq_u32(u32(a), u32(b))); }
  template <int n>
  static Vec srl32(Vec v) {
    return bytes(vshrq_n_u32(u32(v), n));
  }
  static Vec min_u32(Vec a, Vec b) { return bytes(vminq_u32(u32(a), u32(b))); }
  static Lanes gt_s32(Vec a, Vec b) { return vcgtq_s32(vreinterpretq_s32_u8(a), vreinterpretq_s32_u8(b)); }
  // Lanes where a or b is a NaN (float32: not equal to itself), and
  // whether any lane is set.
  static Lanes unordered_f32(Vec a, Vec b) {
    return vmvnq_u32(vandq_u32(vceqq_f32(f32(a), f32(a)), vceqq_f32(f32(b), f32(b))));
  }
  static bool any32(Lanes m) { return vmaxvq_u32(m) != 0; }
  static Vec select(Lanes m, Vec a, Vec b) { return bytes(vbslq_u32(m, u32(a), u32(b))); }
  // m ? a - b : c, and a | (b & c).
  static Vec select_sub32(Lanes m, Vec a, Vec b, Vec c) { return select(m, bytes(vsubq_u32(u32(a), u32(b))), c); }
  // A true lane is all ones, -1: subtracting it adds one.
  static Vec add_one32(Lanes m, Vec v) { return bytes(vsubq_u32(u32(v), m)); }
  static Vec or_and32(Vec a, Vec b, Vec c) { return vorrq_u8(a, vandq_u8(b, c)); }
  // Rounds by FPCR, which the drivers keep at its default (nearest even).
  static Vec f32_add_nearest(Vec a, Vec b) { return bytes(vaddq_f32(f32(a), f32(b))); }
  static Vec f32_mul(Vec a, Vec b) { return bytes(vmulq_f32(f32(a), f32(b))); }
  // The block-scaled formats' steps (block_rows.inl; vec_avx2.h says what each does).
  static constexpr bool kBlockScale = true;
  static Vec sub32(Vec a, Vec b) { return bytes(vsubq_u32(u32(a), u32(b))); }
  static Vec max_u32(Vec a, Vec b) { return bytes(vmaxq_u32(u32(a), u32(b))); }
  static uint32_t hmax_u32(Vec v) { return vmaxvq_u32(u32(v)); }
  static Vec pack_u16_u8(Vec a, Vec b) { return vuzp1q_u8(a, b); }
  // Lane i: the largest dword of m[i], for 4 vectors, by pairwise maxima.
  static Vec hmax_u32_each(const Vec* m) {
    return bytes(vpmaxq_u32(vpmaxq_u32(u32(m[0]), u32(m[1])), vpmaxq_u32(u32(m[2]), u32(m[3]))));
  }
  template <int n>
  static Vec srl64(Vec v) {
    return bytes(vshrq_n_u64(u64(v), n));
  }
  template <int n>
  static Vec sll64(Vec v) {
    return bytes(vshlq_n_u64(u64(v), n));
  }
  // Dword idx & 7 of eight: TBL over the 32 bytes, byte k of a lane from
  // byte 4 (idx & 7) + k.
  static Vec lookup8_u32(const uint32_t* table, Vec idx) {
    const char* const bytes_at = reinterpret_cast<const char*>(table);
    const uint8x16x2_t t = {{load(bytes_at), load(bytes_at + 16)}};
    const uint32x4_t at = vmulq_n_u32(vshlq_n_u32(vandq_u32(u32(idx), vdupq_n_u32(7)), 2), 0x01010101u);
    return vqtbl2q_u8(t, bytes(vaddq_u32(at, vdupq_n_u32(0x03020100u))));
  }
  static Vec lookup16_u32(const uint32_t* table, Vec idx) {
    const char* const bytes_at = reinterpret_cast<const char*>(table);
    const uint8x16x4_t t = {{load(bytes_at), load(bytes_at + 16), load(bytes_at + 32), load(bytes_at + 48)}};
    const uint32x4_t at = vmulq_n_u32(vshlq_n_u32(vandq_u32(u32(idx), vdupq_n_u32(15)), 2), 0x01010101u);
    return vqtbl4q_u8(t, bytes(vaddq_u32(at, vdupq_n_u32(0x03020100u))));
  }
  static Vec lookup_u32(const uint32_t* table, Vec idx) {
    const uint32x4_t i = u32(idx);
    uint32x4_t r = vdupq_n_u32(table[vgetq_lane_u32(i, 0)]);
    r = vsetq_lane_u32(table[vgetq_lane_u32(i, 1)], r, 1);
    r = vsetq_lane_u32(table[vgetq_lane_u32(i, 2)], r, 2);
    r = vsetq_lane_u32(table[vgetq_lane_u32(i, 3)], r, 3);
    return bytes(r);
  }
  static Vec widen_u8_u64(const char* p) {
    uint16_t two;
    std::memcpy(&two, p, sizeof two);
    const uint16x8_t w = vmovl_u8(vcreate_u8(two));
    return bytes(vmovl_u32(vget_low_u32(vmovl_u16(vget_low_u16(w)))));
  }
  static Vec widen_u8_u32(const char* p) { return widen_u8(load_quarter(p)); }
  static void store_u8_of_u32(char* p, Vec v) {
    const uint16x4_t w = vmovn_u32(u32(v));
    const uint32_t four = vget_lane_u32(vreinterpret_u32_u8(vmovn_u16(vcombine_u16(w, w))), 0);
    std::memcpy(p, &four, sizeof four);
  }
  static void store_u8_of_u64(char* p, Vec v) {
    p[0] = static_cast<char>(vgetq_lane_u8(v, 0));
    p[1] = static_cast<char>(vgetq_lane_u8(v, 8));
  }
  static void store_u16_of_u32(char* p, Vec v) {
    vst1_u8(reinterpret_cast<uint8_t*>(p), vreinterpret_u8_u16(vmovn_u32(u32(v))));
  }
  static void store_half(char* p, Half h) { vst1_u8(reinterpret_cast<uint8_t*>(p), h); }

  // A float32 broadcast, and x * a + b rounded once: the scaled rows'
  // arithmetic (scaled_rows.inl).
  static Vec splat_f32(float v) { return bytes(vdupq_n_f32(v)); }
  static Vec f32_fma(Vec x, Vec a, Vec b) { return bytes(vfmaq_f32(f32(b), f32(x), f32(a))); }
  // The smaller float32 of a and b; b where either is NaN (and of two
  // zeros): x86's MINPS, which the kernels are written to, by a compare
  // and a select (FMIN would answer the NaN, FMINNM the number).
  static Vec f32_min(Vec a, Vec b) { return bytes(vbslq_f32(vcltq_f32(f32(a), f32(b)), f32(a), f32(b))); }
  // The larger float32 of a and b; b where either is NaN.
  static Vec f32_max(Vec a, Vec b) { return bytes(vbslq_f32(vcgtq_f32(f32(a), f32(b)), f32(a), f32(b))); }
  // The low bytes of the dwords of a, b, c, d (each in the range of the
  // byte type, so that the low byte is the value), in order.
  static Vec pack_u32_u8(Vec a, Vec b, Vec c, Vec d) {
    return vuzp1q_u8(bytes(vuzp1q_u16(u16(a), u16(b))), bytes(vuzp1q_u16(u16(c), u16(d))));
  }
  static Vec pack_i32_i8(Vec a, Vec b, Vec c, Vec d) { return pack_u32_u8(a, b, c, d); }
  // The low bytes of the dwords of a, b, c, d (each below 2^7), bit 7 the
  // sign of the dwords of sa, sb, sc, sd (their top bytes' bit 7), in order.
  static Vec pack_u32_u8_signs(Vec a, Vec b, Vec c, Vec d, Vec sa, Vec sb, Vec sc, Vec sd) {
    const Vec tops = vuzp2q_u8(bytes(vuzp2q_u16(u16(sa), u16(sb))), bytes(vuzp2q_u16(u16(sc), u16(sd))));
    return vbslq_u8(vdupq_n_u8(0x80), tops, pack_u32_u8(a, b, c, d));
  }

  // x rounded half to even, NaN to 0, clamped to the integers [lo, hi]:
  // FCVTNS rounds to nearest even whatever FPCR says, saturates and takes
  // NaN to 0; the clamp follows on the integers.
  static Vec f32_to_i32_nearest_clamped(Vec x, float lo, float hi) {
    const int32x4_t r = vcvtnq_s32_f32(f32(x));
    return bytes(vminq_s32(vmaxq_s32(r, vdupq_n_s32(static_cast<int32_t>(lo))), vdupq_n_s32(static_cast<int32_t>(hi))));
  }
  // Pixels of 3 uint8 channels (scaled_rows.inl's planes): the 16 pixels
  // at p (48 bytes) into each channel's 16 bytes, one deinterleaving load.
  using Bytes16 = uint8x16_t;
  static void channels16(const unsigned char* p, Bytes16 out[3]) {
    const uint8x16x3_t c = vld3q_u8(p);
    out[0] = c.val[0];
    out[1] = c.val[1];
    out[2] = c.val[2];
  }
  // Of 16 bytes, the k-th 4, which widen to a vector of 32-bit lanes.
  static Quarter quarter_of16(Bytes16 b, int k) {
    switch (k) {
      case 0: return vget_low_u8(b);
      case 1: return vget_low_u8(vextq_u8(b, b, 4));
      case 2: return vget_high_u8(b);
      default: return vget_high_u8(vextq_u8(b, b, 4));
    }
  }

  // 16-bit lanes, for 16-bit floats to float8.
  using Lanes16 = uint16x8_t;
  static Vec splat_u16(uint16_t v) { return bytes(vdupq_n_u16(v)); }
  static Vec add16(Vec a, Vec b) { return bytes(vaddq_u16(u16(a), u16(b))); }
  template <int n>
  static Vec srl16(Vec v) {
    return bytes(vshrq_n_u16(u16(v), n));
  }
  static Vec min_u16(Vec a, Vec b) { return bytes(vminq_u16(u16(a), u16(b))); }
  static Lanes16 gt_u16(Vec a, Vec b) { return vcgtq_u16(u16(a), u16(b)); }
  // The lanes of a not in b; whether a word of v outside m's lanes is not 0;
  // whether m has a lane.
  static Lanes16 andnot16(Lanes16 a, Lanes16 b) { return vbicq_u16(a, b); }
  static bool any16_outside(Lanes16 m, Vec v) { return vmaxvq_u16(vbicq_u16(u16(v), m)) != 0; }
  static bool any16(Lanes16 m) { return vmaxvq_u16(m) != 0; }
  static Vec select16(Lanes16 m, Vec a, Vec b) { return bytes(vbslq_u16(m, u16(a), u16(b))); }
  // q plus 1 in the lanes where a > t (the comparison's all ones is -1).
  static Vec count_gt_u16(Vec q, Vec a, Vec t) { return bytes(vsubq_u16(u16(q), vcgtq_u16(u16(a), u16(t)))); }
  // The low bytes of the words of a, then of b (each below 2^7), bit 7 the
  // sign of the words of sa, then of sb (their high bytes' bit 7).
  static Vec pack_u16_u8_signs(Vec a, Vec b, Vec sa, Vec sb) {
    return vbslq_u8(vdupq_n_u8(0x80), vuzp2q_u8(sa, sb), vuzp1q_u8(a, b));
  }
  // 16-bit words from bytes, and a vector's halves.
  static Vec widen_u8_u16(Half h) { return bytes(vmovl_u8(h)); }
  template <int n>
  static Vec sll16(Vec v) {
    return bytes(vshlq_n_u16(u16(v), n));
  }
  static Half lo_half(Vec v) { return vget_low_u8(v); }
  static Half hi_half(Vec v) { return vget_high_u8(v); }
  // Entry w for each word w below 16 (any word for one from 16 to 127):
  // t's 32 bytes are one table, word k's bytes at 2k and 2k + 1
  // (little-endian), looked up by one TBL.
  static constexpr bool kWordTable16 = true;
  static Vec lookup16_u16(const Words16& t, Vec w) {
    const uint8_t* b = reinterpret_cast<const uint8_t*>(t.at);
    const uint8x16x2_t table = {{vld1q_u8(b), vld1q_u8(b + 16)}};
    return vqtbl2q_u8(table, bytes(vmlaq_n_u16(vdupq_n_u16(0x0100), u16(w), 0x0202)));
  }
};

}  // namespace
}  // namespace cpu
}  // namespace st
