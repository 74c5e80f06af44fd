// The AVX-512 level (F, BW, VL, DQ, plus the AVX2 set) of the vector traits
// (vec_base.h lists what a level provides): 64-byte vectors, masked
// parts, gathers and the tiny-dim permutes. Include only from the files of
// cpu/levels/avx512/ and avx512bf16/, which carry the flags.
#pragma once

#if defined(__x86_64__)

#include <cstdint>
#include <cstring>

#include "cpu/vec/vec_base.h"
#include "cpu/vec/x86_intrinsics.h"

namespace st {
namespace cpu {
namespace {

// A fixed permutation of up to four 16-dword vectors, for the kernels that
// move tiny dims (interleave / deinterleave of 2-4 rows): for n <= 4
// input vectors in[0..n) viewed as one flat array, output vector k takes
// lane l from flat[source(k, l)]; built once, applied as two masked
// two-source permutes.
struct SmallPermute {
  __m512i idx[4][2];
  __mmask16 mask[4][2];
  template <typename Source>
  void build(int outputs, Source source) {
    for (int k = 0; k < outputs; ++k) {
      alignas(64) int32_t lo[16], hi[16];
      unsigned mlo = 0, mhi = 0;
      for (int l = 0; l < 16; ++l) {
        const int f = source(k, l);
        lo[l] = f & 31;
        hi[l] = (f - 32) & 31;
        if (f < 32) mlo |= 1u << l;
        else mhi |= 1u << l;
      }
      idx[k][0] = _mm512_load_si512(lo);
      idx[k][1] = _mm512_load_si512(hi);
      mask[k][0] = static_cast<__mmask16>(mlo);
      mask[k][1] = static_cast<__mmask16>(mhi);
    }
  }
  // in must hold 4 vectors (unused ones may be anything).
  __m512i apply(int k, const __m512i* in) const {
    const __m512i a = _mm512_maskz_permutex2var_epi32(mask[k][0], in[0], idx[k][0], in[1]);
    const __m512i b = _mm512_maskz_permutex2var_epi32(mask[k][1], in[2], idx[k][1], in[3]);
    return _mm512_or_si512(a, b);
  }
};

struct VecAvx512 : VecBase, PixelChannels3 {
  static constexpr const char* kName = "avx512";
  static constexpr int64_t kBytes = 64;
  static constexpr bool kStream = true, kMasked = true, kGather = true;
  static constexpr bool kRegisterTiles = true, kSmallPermute = true, kConvert = true;

  using Vec = __m512i;
  using Half = __m256i;
  using Quarter = __m128i;
  static Vec load(const char* p) { return _mm512_loadu_si512(p); }
  static void store(char* p, Vec v) { _mm512_storeu_si512(p, v); }
  static void stream(char* p, Vec v) { _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v); }
  static void fence() { _mm_sfence(); }
  static Vec zero() { return _mm512_setzero_si512(); }

  // Parts: a byte mask; the narrower loads take its low bits.
  using Mask = __mmask64;
  static Mask mask(int64_t n) { return n >= 64 ? ~Mask{0} : n <= 0 ? 0 : (Mask{1} << n) - 1; }
  static Vec load_part(const char* p, Mask m) { return _mm512_maskz_loadu_epi8(m, p); }
  static void store_part(char* p, Vec v, Mask m) { _mm512_mask_storeu_epi8(p, m, v); }
  static void copy_small(char* d, const char* s, int64_t n) { store_part(d, load_part(s, mask(n)), mask(n)); }
  static Half load_half(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static Half load_half_part(const char* p, Mask m) { return _mm256_maskz_loadu_epi8(static_cast<__mmask32>(m), p); }
  static Quarter load_quarter(const char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static Quarter load_quarter_part(const char* p, Mask m) { return _mm_maskz_loadu_epi8(static_cast<__mmask16>(m), p); }

  static Vec splat8(uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
  static Vec splat16(const char* p) {
    return _mm512_broadcast_i32x4(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  template <int E>
  static Vec reverse(Vec v) {
    if constexpr (E == 4) {
      return _mm512_permutexvar_epi32(_mm512_set_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), v);
    }
    if constexpr (E == 8) return _mm512_permutexvar_epi64(_mm512_set_epi64(0, 1, 2, 3, 4, 5, 6, 7), v);
    if constexpr (E == 16) return _mm512_shuffle_i64x2(v, v, 0x1B);
    if constexpr (E == 2) {
      return _mm512_permutexvar_epi16(
          _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
                           26, 27, 28, 29, 30, 31),
          v);
    }
    // Bytes: reverse within each 16-byte lane, then the lanes.
    const __m512i in_lane = _mm512_shuffle_epi8(
        v, _mm512_broadcast_i32x4(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)));
    return _mm512_shuffle_i64x2(in_lane, in_lane, 0x1B);
  }
  // Elements 0, 2, 4, ... of the 128 bytes at p.
  template <int E>
  static Vec every_second(const char* p) {
    const __m512i a = load(p), b = load(p + 64);
    if constexpr (E == 4) {
      return _mm512_permutex2var_epi32(a, _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0),
                                       b);
    }
    if constexpr (E == 8) return _mm512_permutex2var_epi64(a, _mm512_set_epi64(14, 12, 10, 8, 6, 4, 2, 0), b);
    if constexpr (E == 16) return _mm512_shuffle_i64x2(a, b, 0x88);
    if constexpr (E == 2) {
      return _mm512_permutex2var_epi16(a,
                                       _mm512_set_epi16(62, 60, 58, 56, 54, 52, 50, 48, 46, 44, 42, 40, 38, 36, 34, 32,
                                                        30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0),
                                       b);
    }
    // Bytes: keep the even bytes of each 16-bit pair, then pack the halves.
    const __m512i lo = _mm512_and_si512(a, _mm512_set1_epi16(0xFF)), hi = _mm512_and_si512(b, _mm512_set1_epi16(0xFF));
    const __m512i packed = _mm512_packus_epi16(lo, hi);  // per 16-byte lane: 8 of a, 8 of b
    return _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), packed);
  }

  // Gathers of 4- and 8-byte elements `step` bytes apart (32-bit indices
  // for 4-byte ones).
  template <int E>
  static bool can_gather(int64_t step) {
    if constexpr (E == 4) return step % 4 == 0 && step / 4 < (int64_t{1} << 26) && step / 4 > -(int64_t{1} << 26);
    return E == 8 && step % 8 == 0;
  }
  template <int E>
  static Vec gather_index(int64_t step) {
    if constexpr (E == 4) {
      return _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                _mm512_set1_epi32(static_cast<int>(step / 4)));
    }
    return _mm512_mullo_epi64(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(step / 8));
  }
  template <int E>
  static Vec gather(const char* p, Vec index) {
    if constexpr (E == 4) return _mm512_i32gather_epi32(index, p, 4);
    return _mm512_i64gather_epi64(index, p, 8);
  }

  // Register tiles.
  static Vec unpacklo32(Vec a, Vec b) { return _mm512_unpacklo_epi32(a, b); }
  static Vec unpackhi32(Vec a, Vec b) { return _mm512_unpackhi_epi32(a, b); }
  static Vec unpacklo64(Vec a, Vec b) { return _mm512_unpacklo_epi64(a, b); }
  static Vec unpackhi64(Vec a, Vec b) { return _mm512_unpackhi_epi64(a, b); }
  // The 4x4 matrix of 16-byte lanes: lane j of l[k] becomes lane k of l[j].
  static void transpose_lanes(Vec l[4]) {
    const __m512i v0 = _mm512_shuffle_i64x2(l[0], l[1], 0x44), v1 = _mm512_shuffle_i64x2(l[0], l[1], 0xEE);
    const __m512i v2 = _mm512_shuffle_i64x2(l[2], l[3], 0x44), v3 = _mm512_shuffle_i64x2(l[2], l[3], 0xEE);
    l[0] = _mm512_shuffle_i64x2(v0, v2, 0x88);
    l[1] = _mm512_shuffle_i64x2(v0, v2, 0xDD);
    l[2] = _mm512_shuffle_i64x2(v1, v3, 0x88);
    l[3] = _mm512_shuffle_i64x2(v1, v3, 0xDD);
  }
  // Dword j is (a[j], b[j]) of 16-bit elements.
  static Vec zip2_epi16(Half a, Half b) {
    const __m512i idx = _mm512_set_epi16(47, 15, 46, 14, 45, 13, 44, 12, 43, 11, 42, 10, 41, 9, 40, 8, 39, 7, 38, 6,
                                         37, 5, 36, 4, 35, 3, 34, 2, 33, 1, 32, 0);
    return _mm512_permutex2var_epi16(_mm512_castsi256_si512(a), idx, _mm512_castsi256_si512(b));
  }
  // Dword j is (a[j], b[j], c[j], d[j]) of bytes.
  static Vec zip4_epi8(Quarter a, Quarter b, Quarter c, Quarter d) {
    const __m128i ab_lo = _mm_unpacklo_epi8(a, b), ab_hi = _mm_unpackhi_epi8(a, b);
    const __m128i cd_lo = _mm_unpacklo_epi8(c, d), cd_hi = _mm_unpackhi_epi8(c, d);
    const __m256i lo = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(ab_lo, cd_lo)),
                                               _mm_unpackhi_epi16(ab_lo, cd_lo), 1);
    const __m256i hi = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(ab_hi, cd_hi)),
                                               _mm_unpackhi_epi16(ab_hi, cd_hi), 1);
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
  }

  // Tiny dims: built once per process for n = 2, 3, 4 (building costs
  // divisions that a tiny copy cannot afford on every call).
  static const SmallPermute& deinterleave_permute(int n) {
    static const SmallPermute tables[3] = {make_permute(2, false), make_permute(3, false), make_permute(4, false)};
    return tables[n - 2];
  }
  static const SmallPermute& interleave_permute(int n) {
    static const SmallPermute tables[3] = {make_permute(2, true), make_permute(3, true), make_permute(4, true)};
    return tables[n - 2];
  }
  // Deinterleave: output k takes elements k, k+n, k+2n, ...; interleave:
  // the inverse, output k's lane l is flat element 16k+l of n rows.
  static SmallPermute make_permute(int n, bool interleave) {
    SmallPermute p;
    if (interleave) {
      p.build(n, [n](int k, int l) { return (16 * k + l) % n * 16 + (16 * k + l) / n; });
    } else {
      p.build(n, [n](int k, int l) { return n * l + k; });
    }
    return p;
  }

  // Conversions, bit-identical to convert_rules.h: F16C-style instructions
  // with the rounding given in the instruction (never MXCSR's), bfloat16
  // rounding in integer arithmetic (AVX512_BF16's VCVTNEPS2BF16 would flush
  // subnormals and is not used).
  static Half f32_to_f16(Vec v) { return _mm512_cvt_roundps_ph(_mm512_castsi512_ps(v), kRoundNearest); }
  static Vec concat(Half lo, Half hi) { return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1); }
  // VCVTPH2PS, with the quiet bit it sets on signalling NaNs taken back off
  // (the scalar rule keeps a NaN's bits): lanes whose input has all exponent
  // bits, a clear quiet bit and a nonzero payload.
  static Vec f16_to_f32_quieting(Half h) { return _mm512_castps_si512(_mm512_cvtph_ps(h)); }
  static Vec f16_to_f32(Half h) {
    const __m512i f = f16_to_f32_quieting(h);
    const __m512i a = _mm512_and_si512(_mm512_cvtepu16_epi32(h), _mm512_set1_epi32(0x7fff));
    const __mmask16 signalling = _mm512_cmpgt_epu32_mask(a, _mm512_set1_epi32(0x7c00)) &
                                 _mm512_cmplt_epu32_mask(a, _mm512_set1_epi32(0x7e00));
    return _mm512_mask_andnot_epi32(f, signalling, _mm512_set1_epi32(0x00400000), f);
  }
  // The dwords of a, then of b (each below 2^16), as 16-bit elements.
  static Vec narrow_u32_u16(Vec a, Vec b) {
    return _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), _mm512_packus_epi32(a, b));
  }
  static Vec widen_u8(Quarter q) { return _mm512_cvtepu8_epi32(q); }
  static Vec widen_u16(Half h) { return _mm512_cvtepu16_epi32(h); }
  static Vec shl32(Vec v, int n) { return _mm512_slli_epi32(v, static_cast<unsigned>(n)); }
  static Vec i32_to_f32(Vec v) { return _mm512_castps_si512(_mm512_cvtepi32_ps(v)); }
  static Vec i64_to_f64(Vec v) { return _mm512_castpd_si512(_mm512_cvt_roundepi64_pd(v, kRoundNearest)); }

  // Unsigned integers to floats: exact (the 32-bit ones to float64, 16-bit
  // ones to either), or one rounding given in the instruction.
  static constexpr bool kConvertU64ToF32 = true;
  static Vec u16_to_f64(Quarter q) { return _mm512_castpd_si512(_mm512_cvtepi32_pd(_mm256_cvtepu16_epi32(q))); }
  static Vec u32_to_f32(Vec v) { return _mm512_castps_si512(_mm512_cvt_roundepu32_ps(v, kRoundNearest)); }
  static Vec u32_to_f64(Half h) { return _mm512_castpd_si512(_mm512_cvtepu32_pd(h)); }
  static Vec u64_to_f64(Vec v) { return _mm512_castpd_si512(_mm512_cvt_roundepu64_pd(v, kRoundNearest)); }
  static Half u64_to_f32(Vec v) { return _mm256_castps_si256(_mm512_cvt_roundepu64_ps(v, kRoundNearest)); }

  // The signed integers and float32 <-> float64: exact, or one rounding
  // given in the instruction; float32 -> int32 / uint8 truncate toward
  // zero, saturate, and take NaN to 0.
  static Vec widen_i8(Quarter q) { return _mm512_cvtepi8_epi32(q); }
  static Vec widen_i16(Half h) { return _mm512_cvtepi16_epi32(h); }
  static Vec i32_to_f32_nearest(Vec v) { return _mm512_castps_si512(_mm512_cvt_roundepi32_ps(v, kRoundNearest)); }
  static Vec i32_to_f64(Half h) { return _mm512_castpd_si512(_mm512_cvtepi32_pd(h)); }
  static Vec f32_to_f64(Half h) { return _mm512_castpd_si512(_mm512_cvtps_pd(_mm256_castsi256_ps(h))); }
  static Vec widen_i32_i64(Half h) { return _mm512_cvtepi32_epi64(h); }
  static Half narrow_i64_i32(Vec v) { return _mm512_cvtepi64_epi32(v); }  // the low halves: the wrap
  static Half f64_to_f32(Vec v) { return _mm256_castps_si256(_mm512_cvt_roundpd_ps(_mm512_castsi512_pd(v), kRoundNearest)); }
  // VCVTTPS2DQ answers 0x80000000 for NaN and out of range: right below
  // -2^31; flipped to 0x7fffffff from 2^31 up; NaN lanes zeroed.
  static Vec f32_to_i32_saturating(Vec v) {
    const __m512 f = _mm512_castsi512_ps(v);
    const __m512i t = _mm512_cvttps_epi32(f);
    const __m512i r = _mm512_mask_xor_epi32(t, _mm512_cmp_ps_mask(f, _mm512_set1_ps(2147483648.0f), _CMP_GE_OQ), t,
                                            _mm512_set1_epi32(-1));
    return _mm512_maskz_mov_epi32(_mm512_cmp_ps_mask(f, f, _CMP_ORD_Q), r);
  }
  // Capped at 255 (MINPS answers its second operand for a NaN), then
  // truncated: a NaN, and what is below 0, give a negative int32 (or 0),
  // which pack_u32_u8's saturating packs make 0.
  static Vec f32_to_u8_lanes(Vec v) {
    return _mm512_cvttps_epi32(_mm512_min_ps(_mm512_set1_ps(255.0f), _mm512_castsi512_ps(v)));
  }

  // 32-bit lanes in integer steps, for the float8 conversions
  // (convert_kernels.inl); Lanes is a predicate per lane.
  using Lanes = __mmask16;
  static Vec splat32(uint32_t v) { return _mm512_set1_epi32(static_cast<int>(v)); }
  static Vec and32(Vec a, Vec b) { return _mm512_and_si512(a, b); }
  static Vec or32(Vec a, Vec b) { return _mm512_or_si512(a, b); }
  static Vec add32(Vec a, Vec b) { return _mm512_add_epi32(a, b); }
  template <int n>
  static Vec srl32(Vec v) {
    return _mm512_srli_epi32(v, n);
  }
  static Vec min_u32(Vec a, Vec b) { return _mm512_min_epu32(a, b); }
  static Lanes gt_s32(Vec a, Vec b) { return _mm512_cmpgt_epi32_mask(a, b); }
  // Lanes where a or b is a NaN (float32), and whether any lane is set.
  static Lanes unordered_f32(Vec a, Vec b) {
    return _mm512_cmp_ps_mask(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), _CMP_UNORD_Q);
  }
  static bool any32(Lanes m) { return m != 0; }
  static Vec select(Lanes m, Vec a, Vec b) { return _mm512_mask_blend_epi32(m, b, a); }
  // m ? a - b : c, and a | (b & c): one instruction each.
  static Vec select_sub32(Lanes m, Vec a, Vec b, Vec c) { return _mm512_mask_sub_epi32(c, m, a, b); }
  static Vec add_one32(Lanes m, Vec v) { return _mm512_mask_sub_epi32(v, m, v, _mm512_set1_epi32(-1)); }
  static Vec or_and32(Vec a, Vec b, Vec c) { return _mm512_ternarylogic_epi32(a, b, c, 0xF8); }
  static Vec f32_add_nearest(Vec a, Vec b) {
    return _mm512_castps_si512(_mm512_add_round_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b), kRoundNearest));
  }
  static Vec f32_mul(Vec a, Vec b) {
    return _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
  }
  // The block-scaled formats' steps (block_rows.inl; vec_avx2.h says what each does).
  static constexpr bool kBlockScale = true;
  static Vec sub32(Vec a, Vec b) { return _mm512_sub_epi32(a, b); }
  static Vec max_u32(Vec a, Vec b) { return _mm512_max_epu32(a, b); }
  static uint32_t hmax_u32(Vec v) { return _mm512_reduce_max_epu32(v); }
  // The low bytes of the words of a, then of b (each word below 256).
  static Vec pack_u16_u8(Vec a, Vec b) {
    return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), _mm512_packus_epi16(a, b));
  }
  // Lane i: the largest dword of m[i], for 16 vectors. Halving steps,
  // each putting two vectors' halves side by side; the last leaves block
  // 4j + k at dword j of 128-bit lane k, which the permute puts in order.
  static Vec hmax_u32_each(const Vec* m) {
    __m512i a[8], b[4], c[2];
    for (int i = 0; i < 8; ++i)
      a[i] = _mm512_max_epu32(_mm512_shuffle_i32x4(m[2 * i], m[2 * i + 1], 0x44),
                              _mm512_shuffle_i32x4(m[2 * i], m[2 * i + 1], 0xEE));
    for (int i = 0; i < 4; ++i)
      b[i] = _mm512_max_epu32(_mm512_shuffle_i32x4(a[2 * i], a[2 * i + 1], 0x88),
                              _mm512_shuffle_i32x4(a[2 * i], a[2 * i + 1], 0xDD));
    for (int i = 0; i < 2; ++i)
      c[i] = _mm512_max_epu32(_mm512_unpacklo_epi64(b[2 * i], b[2 * i + 1]),
                              _mm512_unpackhi_epi64(b[2 * i], b[2 * i + 1]));
    const __m512 p = _mm512_castsi512_ps(c[0]), q = _mm512_castsi512_ps(c[1]);
    const __m512i d = _mm512_max_epu32(_mm512_castps_si512(_mm512_shuffle_ps(p, q, 0x88)),
                                       _mm512_castps_si512(_mm512_shuffle_ps(p, q, 0xDD)));
    return _mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), d);
  }
  template <int n>
  static Vec srl64(Vec v) {
    return _mm512_srli_epi64(v, n);
  }
  template <int n>
  static Vec sll64(Vec v) {
    return _mm512_slli_epi64(v, n);
  }
  static Vec lookup8_u32(const uint32_t* table, Vec idx) {
    const __m256i t = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(table));
    return _mm512_permutexvar_epi32(_mm512_and_si512(idx, _mm512_set1_epi32(7)), _mm512_zextsi256_si512(t));
  }
  static Vec lookup16_u32(const uint32_t* table, Vec idx) {
    return _mm512_permutexvar_epi32(idx, _mm512_loadu_si512(table));  // takes idx & 15
  }
  static Vec lookup_u32(const uint32_t* table, Vec idx) { return _mm512_i32gather_epi32(idx, table, 4); }
  static Vec widen_u8_u64(const char* p) {
    return _mm512_cvtepu8_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)));
  }
  static Vec widen_u8_u32(const char* p) { return _mm512_cvtepu8_epi32(load_quarter(p)); }
  static void store_u8_of_u32(char* p, Vec v) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi32_epi8(v));
  }
  static void store_u8_of_u64(char* p, Vec v) {
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm512_cvtepi64_epi8(v));
  }
  static void store_u16_of_u32(char* p, Vec v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtepi32_epi16(v));
  }
  static void store_half(char* p, Half h) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), h); }

  // A float32 broadcast, and x * a + b rounded once: the scaled rows'
  // arithmetic (scaled_rows.inl).
  static Vec splat_f32(float v) { return _mm512_castps_si512(_mm512_set1_ps(v)); }
  static Vec f32_fma(Vec x, Vec a, Vec b) {
    return _mm512_castps_si512(
        _mm512_fmadd_ps(_mm512_castsi512_ps(x), _mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
  }
  // The smaller float32 of a and b; b where either is NaN.
  static Vec f32_min(Vec a, Vec b) {
    return _mm512_castps_si512(_mm512_min_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
  }
  // The larger float32 of a and b; b where either is NaN.
  static Vec f32_max(Vec a, Vec b) {
    return _mm512_castps_si512(_mm512_max_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
  }
  // The low bytes of the dwords of a, b, c, d (each below 2^8; a negative
  // one gives 0), in order: the packs work within 16-byte lanes (lane l
  // holds dwords l of a, b, c, d), one permute puts the dwords back.
  static Vec pack_u32_u8(Vec a, Vec b, Vec c, Vec d) {
    return dwords_in_order(_mm512_packus_epi16(_mm512_packus_epi32(a, b), _mm512_packus_epi32(c, d)));
  }
  // The same for signed dwords in -128 … 127.
  static Vec pack_i32_i8(Vec a, Vec b, Vec c, Vec d) {
    return dwords_in_order(_mm512_packs_epi16(_mm512_packs_epi32(a, b), _mm512_packs_epi32(c, d)));
  }
  // The low bytes of the dwords of a, b, c, d (each below 2^7), bit 7 the
  // sign of the dwords of sa, sb, sc, sd, in order: signed saturation
  // keeps a dword's sign through both packs.
  static Vec pack_u32_u8_signs(Vec a, Vec b, Vec c, Vec d, Vec sa, Vec sb, Vec sc, Vec sd) {
    const __m512i codes = _mm512_packus_epi16(_mm512_packus_epi32(a, b), _mm512_packus_epi32(c, d));
    const __m512i signs = _mm512_packs_epi16(_mm512_packs_epi32(sa, sb), _mm512_packs_epi32(sc, sd));
    return dwords_in_order(or_and32(codes, signs, _mm512_set1_epi8(INT8_MIN)));
  }
  static Vec dwords_in_order(Vec packed) {
    return _mm512_permutexvar_epi32(_mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0), packed);
  }

  // x rounded half to even, NaN to 0, clamped to the integers [lo, hi]:
  // int32 lanes, for the scaled rows' quantizing. The clamp comes first
  // (rounding a clamped value gives the clamped rounding: the bounds are
  // integers), so that the conversion itself rounds, by its immediate, and
  // zeroes the NaN lanes by its mask.
  static Vec f32_to_i32_nearest_clamped(Vec x, float lo, float hi) {
    const __m512 f = _mm512_castsi512_ps(x);
    const __m512 c = _mm512_min_ps(_mm512_set1_ps(hi), _mm512_max_ps(_mm512_set1_ps(lo), f));
    return _mm512_maskz_cvt_roundps_epi32(_mm512_cmp_ps_mask(f, f, _CMP_ORD_Q), c, kRoundNearest);
  }
  // Of 16 bytes, the k-th 16 (all of them), which widen to a vector of
  // 32-bit lanes.
  static Quarter quarter_of16(__m128i b, int) { return b; }
  // 16-bit lanes, for 16-bit floats to float8.
  using Lanes16 = __mmask32;
  static Vec splat_u16(uint16_t v) { return _mm512_set1_epi16(static_cast<short>(v)); }
  static Vec add16(Vec a, Vec b) { return _mm512_add_epi16(a, b); }
  template <int n>
  static Vec srl16(Vec v) {
    return _mm512_srli_epi16(v, n);
  }
  static Vec min_u16(Vec a, Vec b) { return _mm512_min_epu16(a, b); }
  static Lanes16 gt_u16(Vec a, Vec b) { return _mm512_cmpgt_epu16_mask(a, b); }
  // The lanes of a not in b; whether a word of v outside m's lanes is not 0;
  // whether m has a lane.
  static Lanes16 andnot16(Lanes16 a, Lanes16 b) { return static_cast<Lanes16>(a & ~b); }
  static bool any16_outside(Lanes16 m, Vec v) {
    return _mm512_mask_test_epi16_mask(static_cast<Lanes16>(~m), v, v) != 0;
  }
  static bool any16(Lanes16 m) { return m != 0; }
  static Vec select16(Lanes16 m, Vec a, Vec b) { return _mm512_mask_blend_epi16(m, b, a); }
  // q plus 1 in the lanes where a > t.
  static Vec count_gt_u16(Vec q, Vec a, Vec t) {
    return _mm512_mask_add_epi16(q, _mm512_cmpgt_epu16_mask(a, t), q, _mm512_set1_epi16(1));
  }
  // The low bytes of the words of a, then of b (each below 2^7), bit 7 the
  // sign of the words of sa, then of sb (kept by a signed saturating
  // pack): the packs work within 16-byte lanes, one permute puts the
  // qwords back.
  static Vec pack_u16_u8_signs(Vec a, Vec b, Vec sa, Vec sb) {
    const __m512i bytes = or_and32(_mm512_packus_epi16(a, b), _mm512_packs_epi16(sa, sb), _mm512_set1_epi8(INT8_MIN));
    return _mm512_permutexvar_epi64(_mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0), bytes);
  }
  // 16-bit words from bytes, and a vector's halves.
  static Vec widen_u8_u16(Half h) { return _mm512_cvtepu8_epi16(h); }
  template <int n>
  static Vec sll16(Vec v) {
    return _mm512_slli_epi16(v, n);
  }
  static Half lo_half(Vec v) { return _mm512_castsi512_si256(v); }
  static Half hi_half(Vec v) { return _mm512_extracti64x4_epi64(v, 1); }
  // A table of 128 words looked up by the low 7 bits of each word of w
  // (the permutes read 6 bits, bit 6 picks the pair).
  static constexpr bool kWordTable = true;
  static Vec lookup128_u16(const uint16_t* table, Vec w) {
    const char* t = reinterpret_cast<const char*>(table);
    const __m512i low = _mm512_permutex2var_epi16(load(t), w, load(t + 64));
    const __m512i high = _mm512_permutex2var_epi16(load(t + 128), w, load(t + 192));
    return _mm512_mask_blend_epi16(_mm512_test_epi16_mask(w, _mm512_set1_epi16(64)), low, high);
  }
};

}  // namespace
}  // namespace cpu
}  // namespace st

#else
#include "cpu/vec/vec_scalar.h"  // not x86-64: the portable level stands in (vec_scalar.h)
#endif
