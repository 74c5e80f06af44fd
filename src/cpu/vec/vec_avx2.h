// The AVX2 level (with FMA, F16C, BMI2) of the vector traits (vec_base.h
// lists what a level provides): 32-byte vectors and register tiles; no
// masks, so partial tiles and conversion tails go element by element.
// Include only from the files of cpu/levels/avx2/, which carry the flags.
#pragma once

#if defined(__x86_64__)

#include <cstdint>
#include <cstring>

#include "cpu/vec/vec_base.h"
#include "cpu/vec/x86_intrinsics.h"

namespace st {
namespace cpu {
namespace {

struct VecAvx2 : VecBase, BytewiseParts<32>, PixelChannels3 {
  static constexpr const char* kName = "avx2";
  static constexpr int64_t kBytes = 32;
  static constexpr bool kStream = true, kRegisterTiles = true, kConvert = true;

  using Vec = __m256i;
  using Half = __m128i;
  using Quarter = __m128i;  // the low 8 bytes
  static Vec load(const char* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static void store(char* p, Vec v) { _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v); }
  static void stream(char* p, Vec v) { _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v); }
  static void fence() { _mm_sfence(); }
  static Vec zero() { return _mm256_setzero_si256(); }

  static Vec splat8(uint64_t v) { return _mm256_set1_epi64x(static_cast<long long>(v)); }
  static Vec splat16(const char* p) {
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  template <int E>
  static Vec reverse(Vec v) {
    if constexpr (E == 4) return _mm256_permutevar8x32_epi32(v, _mm256_set_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    if constexpr (E == 8) return _mm256_permute4x64_epi64(v, 0x1B);
    if constexpr (E == 16) return _mm256_permute2x128_si256(v, v, 0x01);
    // 1 and 2 bytes: reverse within each 16-byte lane, then swap the lanes.
    const __m128i lane = E == 2 ? _mm_set_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14)
                                : _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    const __m256i in_lane = _mm256_shuffle_epi8(v, _mm256_broadcastsi128_si256(lane));
    return _mm256_permute2x128_si256(in_lane, in_lane, 0x01);
  }
  // Elements 0, 2, 4, ... of the 64 bytes at p.
  template <int E>
  static Vec every_second(const char* p) {
    const __m256i a = load(p), b = load(p + 32);
    if constexpr (E == 4) {
      const __m256i idx = _mm256_set_epi32(6, 4, 2, 0, 6, 4, 2, 0);
      return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(a, idx), _mm256_permutevar8x32_epi32(b, idx), 0xF0);
    }
    if constexpr (E == 8) return _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(a, b), 0xD8);
    if constexpr (E == 16) return _mm256_permute2x128_si256(a, b, 0x20);
    // 1 and 2 bytes: keep the even elements of each pair, pack the halves.
    if constexpr (E == 2) {
      const __m256i lo = _mm256_blend_epi16(a, _mm256_setzero_si256(), 0xAA);
      const __m256i hi = _mm256_blend_epi16(b, _mm256_setzero_si256(), 0xAA);
      return _mm256_permute4x64_epi64(_mm256_packus_epi32(lo, hi), 0xD8);
    }
    const __m256i lo = _mm256_and_si256(a, _mm256_set1_epi16(0xFF)), hi = _mm256_and_si256(b, _mm256_set1_epi16(0xFF));
    return _mm256_permute4x64_epi64(_mm256_packus_epi16(lo, hi), 0xD8);
  }

  // Register tiles.
  static Vec unpacklo32(Vec a, Vec b) { return _mm256_unpacklo_epi32(a, b); }
  static Vec unpackhi32(Vec a, Vec b) { return _mm256_unpackhi_epi32(a, b); }
  static Vec unpacklo64(Vec a, Vec b) { return _mm256_unpacklo_epi64(a, b); }
  static Vec unpackhi64(Vec a, Vec b) { return _mm256_unpackhi_epi64(a, b); }
  // The 2x2 matrix of 16-byte lanes: lane j of l[k] becomes lane k of l[j].
  static void transpose_lanes(Vec l[2]) {
    const Vec a = l[0], b = l[1];
    l[0] = _mm256_permute2x128_si256(a, b, 0x20);
    l[1] = _mm256_permute2x128_si256(a, b, 0x31);
  }
  static Half load_half(const char* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static Quarter load_quarter(const char* p) { return _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)); }
  // Dword j is (a[j], b[j]) of 16-bit elements.
  static Vec zip2_epi16(Half a, Half b) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(a, b)), _mm_unpackhi_epi16(a, b), 1);
  }
  // Dword j is (a[j], b[j], c[j], d[j]) of bytes.
  static Vec zip4_epi8(Quarter a, Quarter b, Quarter c, Quarter d) {
    const __m128i ab = _mm_unpacklo_epi8(a, b), cd = _mm_unpacklo_epi8(c, d);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi16(ab, cd)), _mm_unpackhi_epi16(ab, cd), 1);
  }

  // Conversions, bit-identical to convert_rules.h (see vec_avx512.h).
  static Half f32_to_f16(Vec v) { return _mm256_cvtps_ph(_mm256_castsi256_ps(v), kRoundNearest); }
  static Vec concat(Half lo, Half hi) { return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1); }
  // VCVTPH2PS: exact, but a signalling NaN comes out quiet.
  static Vec f16_to_f32_quieting(Half h) { return _mm256_castps_si256(_mm256_cvtph_ps(h)); }
  static Vec f16_to_f32(Half h) {
    const __m256i f = f16_to_f32_quieting(h);
    const __m256i a = _mm256_and_si256(_mm256_cvtepu16_epi32(h), _mm256_set1_epi32(0x7fff));
    const __m256i signalling = _mm256_and_si256(_mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7c00)),
                                                _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7e00), a));
    return _mm256_andnot_si256(_mm256_and_si256(signalling, _mm256_set1_epi32(0x00400000)), f);
  }
  static Vec narrow_u32_u16(Vec a, Vec b) { return _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xD8); }
  static Vec widen_u8(Quarter q) { return _mm256_cvtepu8_epi32(q); }
  static Vec widen_u16(Half h) { return _mm256_cvtepu16_epi32(h); }
  static Vec shl32(Vec v, int n) { return _mm256_slli_epi32(v, n); }
  static Vec i32_to_f32(Vec v) { return _mm256_castps_si256(_mm256_cvtepi32_ps(v)); }
  // hi * 2^32 + lo, both exact in float64, rounded once by the FMA.
  static Vec i64_to_f64(Vec x) {
    const __m128i hi32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(x, _mm256_set_epi32(7, 5, 3, 1, 7, 5, 3, 1)));
    const __m256d hi = _mm256_cvtepi32_pd(hi32);
    const __m256i lo_bits = _mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi64x(0xffffffff)),
                                            _mm256_set1_epi64x(0x4330000000000000));  // 2^52 + lo
    const __m256d lo = _mm256_sub_pd(_mm256_castsi256_pd(lo_bits), _mm256_set1_pd(4503599627370496.0));
    return _mm256_castpd_si256(_mm256_fmadd_pd(hi, _mm256_set1_pd(4294967296.0), lo));
  }

  // Unsigned integers to floats: exact, or one rounding (by the FMA, with
  // MXCSR at its default as the drivers keep it); uint64 -> float32 has no
  // single rounding here (no kConvertU64ToF32) and goes by the rule.
  static Vec u16_to_f64(Quarter q) { return _mm256_castpd_si256(_mm256_cvtepi32_pd(_mm_cvtepu16_epi32(q))); }
  // hi16 * 2^16 + lo16, both exact in float32.
  static Vec u32_to_f32(Vec v) {
    const __m256 hi = _mm256_cvtepi32_ps(_mm256_srli_epi32(v, 16));
    const __m256 lo = _mm256_cvtepi32_ps(_mm256_and_si256(v, _mm256_set1_epi32(0xffff)));
    return _mm256_castps_si256(_mm256_fmadd_ps(hi, _mm256_set1_ps(65536.0f), lo));
  }
  // Exact: v - 2^31 as int32, plus 2^31.
  static Vec u32_to_f64(Half h) {
    const __m256d biased = _mm256_cvtepi32_pd(_mm_xor_si128(h, _mm_set1_epi32(INT32_MIN)));
    return _mm256_castpd_si256(_mm256_add_pd(biased, _mm256_set1_pd(2147483648.0)));
  }
  // hi32 * 2^32 + lo32, each made exact from 2^52 + it, rounded once by the FMA.
  static Vec u64_to_f64(Vec x) {
    const __m256i magic = _mm256_set1_epi64x(0x4330000000000000);
    const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
    const __m256d hi = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(x, 32), magic)), two52);
    const __m256d lo = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi64x(0xffffffff)), magic)), two52);
    return _mm256_castpd_si256(_mm256_fmadd_pd(hi, _mm256_set1_pd(4294967296.0), lo));
  }

  // The signed integers and float32 <-> float64: exact, or one rounding
  // (MXCSR at its default, as above); float32 -> int32 / uint8 truncate
  // toward zero, saturate, and take NaN to 0.
  static Vec widen_i8(Quarter q) { return _mm256_cvtepi8_epi32(q); }
  static Vec widen_i16(Half h) { return _mm256_cvtepi16_epi32(h); }
  static Vec i32_to_f32_nearest(Vec v) { return _mm256_castps_si256(_mm256_cvtepi32_ps(v)); }
  static Vec i32_to_f64(Half h) { return _mm256_castpd_si256(_mm256_cvtepi32_pd(h)); }
  static Vec f32_to_f64(Half h) { return _mm256_castpd_si256(_mm256_cvtps_pd(_mm_castsi128_ps(h))); }
  static Vec widen_i32_i64(Half h) { return _mm256_cvtepi32_epi64(h); }
  // The low halves (the wrap), gathered into the low 16 bytes.
  static Half narrow_i64_i32(Vec v) {
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, _mm256_set_epi32(7, 5, 3, 1, 6, 4, 2, 0)));
  }
  static Half f64_to_f32(Vec v) { return _mm_castps_si128(_mm256_cvtpd_ps(_mm256_castsi256_pd(v))); }
  // VCVTTPS2DQ answers 0x80000000 for NaN and out of range: right below
  // -2^31; flipped to 0x7fffffff from 2^31 up; NaN lanes zeroed.
  static Vec f32_to_i32_saturating(Vec v) {
    const __m256 f = _mm256_castsi256_ps(v);
    const __m256i t = _mm256_cvttps_epi32(f);
    const __m256i high = _mm256_castps_si256(_mm256_cmp_ps(f, _mm256_set1_ps(2147483648.0f), _CMP_GE_OQ));
    const __m256i ordered = _mm256_castps_si256(_mm256_cmp_ps(f, f, _CMP_ORD_Q));
    return _mm256_and_si256(_mm256_xor_si256(t, high), ordered);
  }
  // Capped at 255 (MINPS answers its second operand for a NaN), then
  // truncated: a NaN, and what is below 0, give a negative int32 (or 0),
  // which pack_u32_u8's saturating packs make 0.
  static Vec f32_to_u8_lanes(Vec v) {
    return _mm256_cvttps_epi32(_mm256_min_ps(_mm256_set1_ps(255.0f), _mm256_castsi256_ps(v)));
  }

  // 32-bit lanes in integer steps, for the float8 conversions
  // (convert_kernels.inl); Lanes is a predicate per lane (all ones or 0).
  using Lanes = __m256i;
  static Vec splat32(uint32_t v) { return _mm256_set1_epi32(static_cast<int>(v)); }
  static Vec and32(Vec a, Vec b) { return _mm256_and_si256(a, b); }
  static Vec or32(Vec a, Vec b) { return _mm256_or_si256(a, b); }
  static Vec add32(Vec a, Vec b) { return _mm256_add_epi32(a, b); }
  template <int n>
  static Vec srl32(Vec v) {
    return _mm256_srli_epi32(v, n);
  }
  static Vec min_u32(Vec a, Vec b) { return _mm256_min_epu32(a, b); }
  // Signed a > b (the kernels compare values below 2^31).
  static Lanes gt_s32(Vec a, Vec b) { return _mm256_cmpgt_epi32(a, b); }
  // Lanes where a or b is a NaN (float32), and whether any lane is set.
  static Lanes unordered_f32(Vec a, Vec b) {
    return _mm256_castps_si256(_mm256_cmp_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b), _CMP_UNORD_Q));
  }
  static bool any32(Lanes m) { return !_mm256_testz_si256(m, m); }
  // By each lane's sign bit (VBLENDVPS): GCC keeps a byte blend's mask as
  // bytes, and makes a comparison with a constant first into two steps.
  static Vec select(Lanes m, Vec a, Vec b) {
    return _mm256_castps_si256(
        _mm256_blendv_ps(_mm256_castsi256_ps(b), _mm256_castsi256_ps(a), _mm256_castsi256_ps(m)));
  }
  // m ? a - b : c, and a | (b & c).
  static Vec select_sub32(Lanes m, Vec a, Vec b, Vec c) { return select(m, _mm256_sub_epi32(a, b), c); }
  // A true lane is all ones, -1: subtracting it adds one.
  static Vec add_one32(Lanes m, Vec v) { return _mm256_sub_epi32(v, m); }
  static Vec or_and32(Vec a, Vec b, Vec c) { return _mm256_or_si256(a, _mm256_and_si256(b, c)); }
  // Rounds by MXCSR, which the drivers keep at its default (nearest even).
  static Vec f32_add_nearest(Vec a, Vec b) {
    return _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  }
  static Vec f32_mul(Vec a, Vec b) {
    return _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  }
  // A float32 broadcast, and x * a + b rounded once: the scaled rows'
  // arithmetic (scaled_rows.inl).
  static Vec splat_f32(float v) { return _mm256_castps_si256(_mm256_set1_ps(v)); }
  static Vec f32_fma(Vec x, Vec a, Vec b) {
    return _mm256_castps_si256(
        _mm256_fmadd_ps(_mm256_castsi256_ps(x), _mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  }
  // The smaller float32 of a and b; b where either is NaN.
  static Vec f32_min(Vec a, Vec b) {
    return _mm256_castps_si256(_mm256_min_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  }
  // The larger float32 of a and b; b where either is NaN.
  static Vec f32_max(Vec a, Vec b) {
    return _mm256_castps_si256(_mm256_max_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  }
  // The low bytes of the dwords of a, b, c, d (each below 2^8; a negative
  // one gives 0), in order: the packs work within 16-byte lanes, the
  // permute puts the dwords back.
  static Vec pack_u32_u8(Vec a, Vec b, Vec c, Vec d) {
    return dwords_in_order(_mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d)));
  }
  // The same for signed dwords in -128 … 127.
  static Vec pack_i32_i8(Vec a, Vec b, Vec c, Vec d) {
    return dwords_in_order(_mm256_packs_epi16(_mm256_packs_epi32(a, b), _mm256_packs_epi32(c, d)));
  }
  // The low bytes of the dwords of a, b, c, d (each below 2^7), bit 7 the
  // sign of the dwords of sa, sb, sc, sd, in order: signed saturation
  // keeps a dword's sign through both packs.
  static Vec pack_u32_u8_signs(Vec a, Vec b, Vec c, Vec d, Vec sa, Vec sb, Vec sc, Vec sd) {
    const __m256i codes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    const __m256i signs = _mm256_packs_epi16(_mm256_packs_epi32(sa, sb), _mm256_packs_epi32(sc, sd));
    return dwords_in_order(_mm256_or_si256(codes, _mm256_and_si256(signs, _mm256_set1_epi8(INT8_MIN))));
  }
  static Vec dwords_in_order(Vec packed) {
    return _mm256_permutevar8x32_epi32(packed, _mm256_set_epi32(7, 3, 6, 2, 5, 1, 4, 0));
  }

  // x rounded half to even, NaN to 0, clamped to the integers [lo, hi]:
  // int32 lanes, for the scaled rows' quantizing.
  static Vec f32_to_i32_nearest_clamped(Vec x, float lo, float hi) {
    __m256 r = _mm256_round_ps(_mm256_castsi256_ps(x), kRoundNearest);
    r = _mm256_and_ps(r, _mm256_cmp_ps(r, r, _CMP_ORD_Q));  // NaN -> +0
    return _mm256_cvttps_epi32(_mm256_min_ps(_mm256_max_ps(r, _mm256_set1_ps(lo)), _mm256_set1_ps(hi)));
  }
  // Of 16 bytes, the k-th 8, which widen to a vector of 32-bit lanes.
  static Quarter quarter_of16(__m128i b, int k) { return k == 0 ? b : _mm_srli_si128(b, 8); }
  // 16-bit lanes, for 16-bit floats to float8 (values below 2^15 where
  // compared, so the signed comparison serves).
  using Lanes16 = __m256i;
  static Vec splat_u16(uint16_t v) { return _mm256_set1_epi16(static_cast<short>(v)); }
  static Vec add16(Vec a, Vec b) { return _mm256_add_epi16(a, b); }
  template <int n>
  static Vec srl16(Vec v) {
    return _mm256_srli_epi16(v, n);
  }
  static Vec min_u16(Vec a, Vec b) { return _mm256_min_epu16(a, b); }
  static Lanes16 gt_u16(Vec a, Vec b) { return _mm256_cmpgt_epi16(a, b); }
  // The lanes of a not in b; whether a word of v outside m's lanes is not
  // 0 (VPTEST's carry: v and not m, all 0); whether m has a lane.
  static Lanes16 andnot16(Lanes16 a, Lanes16 b) { return _mm256_andnot_si256(b, a); }
  static bool any16_outside(Lanes16 m, Vec v) { return !_mm256_testc_si256(m, v); }
  static bool any16(Lanes16 m) { return !_mm256_testz_si256(m, m); }
  static Vec select16(Lanes16 m, Vec a, Vec b) { return _mm256_blendv_epi8(b, a, m); }
  static Vec count_gt_u16(Vec q, Vec a, Vec t) { return _mm256_sub_epi16(q, _mm256_cmpgt_epi16(a, t)); }
  // The low bytes of the words of a, then of b (each below 2^7), bit 7 the
  // sign of the words of sa, then of sb (kept by a signed saturating pack).
  static Vec pack_u16_u8_signs(Vec a, Vec b, Vec sa, Vec sb) {
    const __m256i signs = _mm256_and_si256(_mm256_packs_epi16(sa, sb), _mm256_set1_epi8(INT8_MIN));
    return _mm256_permute4x64_epi64(_mm256_or_si256(_mm256_packus_epi16(a, b), signs), 0xD8);
  }
  // 16-bit words from bytes, and a vector's halves.
  static Vec widen_u8_u16(Half h) { return _mm256_cvtepu8_epi16(h); }
  template <int n>
  static Vec sll16(Vec v) {
    return _mm256_slli_epi16(v, n);
  }
  static Half lo_half(Vec v) { return _mm256_castsi256_si128(v); }
  static Half hi_half(Vec v) { return _mm256_extracti128_si256(v, 1); }
  // The block-scaled formats' steps (block_rows.inl).
  static constexpr bool kBlockScale = true;
  static Vec sub32(Vec a, Vec b) { return _mm256_sub_epi32(a, b); }
  static Vec max_u32(Vec a, Vec b) { return _mm256_max_epu32(a, b); }
  static uint32_t hmax_u32(Vec v) {
    __m256i m = _mm256_max_epu32(v, _mm256_permute2x128_si256(v, v, 0x01));
    m = _mm256_max_epu32(m, _mm256_shuffle_epi32(m, 0x4E));
    m = _mm256_max_epu32(m, _mm256_shuffle_epi32(m, 0xB1));
    return static_cast<uint32_t>(_mm256_cvtsi256_si32(m));
  }
  // The low bytes of the words of a, then of b (each word below 256).
  static Vec pack_u16_u8(Vec a, Vec b) { return _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8); }
  // Lane i: the largest dword of m[i], for 8 vectors. Halving steps,
  // each putting two vectors' halves side by side; the last leaves block
  // 2j + k at dword j of 128-bit lane k, which the permute puts in order.
  static Vec hmax_u32_each(const Vec* m) {
    __m256i a[4], c[2];
    for (int i = 0; i < 4; ++i)
      a[i] = _mm256_max_epu32(_mm256_permute2x128_si256(m[2 * i], m[2 * i + 1], 0x20),
                              _mm256_permute2x128_si256(m[2 * i], m[2 * i + 1], 0x31));
    for (int i = 0; i < 2; ++i)
      c[i] = _mm256_max_epu32(_mm256_unpacklo_epi64(a[2 * i], a[2 * i + 1]),
                              _mm256_unpackhi_epi64(a[2 * i], a[2 * i + 1]));
    const __m256 p = _mm256_castsi256_ps(c[0]), q = _mm256_castsi256_ps(c[1]);
    const __m256i d = _mm256_max_epu32(_mm256_castps_si256(_mm256_shuffle_ps(p, q, 0x88)),
                                       _mm256_castps_si256(_mm256_shuffle_ps(p, q, 0xDD)));
    return _mm256_permutevar8x32_epi32(d, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  }
  template <int n>
  static Vec srl64(Vec v) {
    return _mm256_srli_epi64(v, n);
  }
  template <int n>
  static Vec sll64(Vec v) {
    return _mm256_slli_epi64(v, n);
  }
  // Entry idx & 7 of eight dwords.
  static Vec lookup8_u32(const uint32_t* table, Vec idx) {
    return _mm256_permutevar8x32_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(table)), idx);
  }
  // Entry idx & 15 of sixteen dwords: a lookup in each half (by idx & 7),
  // one chosen by bit 3 moved to the sign bit that blendv reads.
  static Vec lookup16_u32(const uint32_t* table, Vec idx) {
    const __m256 lo = _mm256_castsi256_ps(lookup8_u32(table, idx));
    const __m256 hi = _mm256_castsi256_ps(lookup8_u32(table + 8, idx));
    return _mm256_castps_si256(_mm256_blendv_ps(lo, hi, _mm256_castsi256_ps(_mm256_slli_epi32(idx, 28))));
  }
  // Entry idx of a table of dwords, for each dword idx.
  static Vec lookup_u32(const uint32_t* table, Vec idx) {
    return _mm256_i32gather_epi32(reinterpret_cast<const int*>(table), idx, 4);
  }
  // kBytes / 8 bytes at p, one a qword.
  static Vec widen_u8_u64(const char* p) {
    int32_t b;
    std::memcpy(&b, p, sizeof b);
    return _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(b));
  }
  // kBytes / 4 bytes at p, one a dword.
  static Vec widen_u8_u32(const char* p) { return _mm256_cvtepu8_epi32(load_quarter(p)); }
  // The low byte of each dword (kBytes / 4 bytes), of each qword (kBytes /
  // 8), or the low word of each dword (kBytes / 2), stored at p.
  static void store_u8_of_u32(char* p, Vec v) {
    const __m256i lane_bytes = _mm256_shuffle_epi8(
        v, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8, 12, -1, -1, -1, -1,
                            -1, -1, -1, -1, -1, -1, -1, -1));
    const __m256i bytes = _mm256_permutevar8x32_epi32(lane_bytes, _mm256_setr_epi32(0, 4, 0, 0, 0, 0, 0, 0));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(bytes));
  }
  static void store_u8_of_u64(char* p, Vec v) {
    const __m256i lane_bytes = _mm256_shuffle_epi8(
        v, _mm256_setr_epi8(0, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 8, -1, -1, -1, -1, -1,
                            -1, -1, -1, -1, -1, -1, -1, -1, -1));
    const int32_t four = _mm_cvtsi128_si32(
        _mm_unpacklo_epi16(_mm256_castsi256_si128(lane_bytes), _mm256_extracti128_si256(lane_bytes, 1)));
    std::memcpy(p, &four, sizeof four);
  }
  static void store_u16_of_u32(char* p, Vec v) {
    const __m256i words = _mm256_permute4x64_epi64(_mm256_packus_epi32(v, v), 0x08);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm256_castsi256_si128(words));
  }
  static void store_half(char* p, Half h) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), h); }

  // Entry w for each word w below 16 (any word for one from 16 to 127):
  // the entries' low bytes by a byte shuffle whose index for a word's high
  // byte has bit 7 set (giving 0), their high bytes by one indexed by the
  // low byte, moved up.
  static constexpr bool kWordTable16 = true;
  static Vec lookup16_u16(const Words16& t, Vec w) {
    const __m256i lo = _mm256_shuffle_epi8(table_bytes(t, 0), _mm256_or_si256(w, _mm256_set1_epi16(INT16_MIN)));
    const __m256i hi = _mm256_shuffle_epi8(table_bytes(t, 8), w);
    return _mm256_or_si256(lo, _mm256_slli_epi16(hi, 8));
  }
  // The low (shift 0) or high (8) bytes of t's words, in both 16-byte lanes.
  static __m256i table_bytes(const Words16& t, int shift) {
    const auto b = [&](int k) { return static_cast<char>(static_cast<uint8_t>(t.at[k] >> shift)); };
    const __m128i x = _mm_setr_epi8(b(0), b(1), b(2), b(3), b(4), b(5), b(6), b(7), b(8), b(9), b(10), b(11), b(12),
                                    b(13), b(14), b(15));
    return _mm256_set_m128i(x, x);
  }
};

}  // namespace
}  // namespace cpu
}  // namespace st

#else
#include "cpu/vec/vec_scalar.h"  // not x86-64: the portable level stands in (vec_scalar.h)
#endif
