// The AVX2 + FMA rows of cpu/scaled_rows.h (AVX-512 machines run them too:
// the rows are bound by memory, not by the vector width). Heads before an
// aligned streaming store and tails shorter than a vector go through the
// element rule itself (core/scaled_convert.h), compiled here with FMA.
#include "core/scaled_convert.h"
#include "cpu/element_access.h"
#include "cpu/float8_lanes.h"
#include "cpu/scaled_rows.h"
#include "cpu/vec_avx2.h"
#include "cpu/x86_intrinsics.h"

namespace st {
namespace cpu {
namespace avx2 {
namespace {

template <typename D, typename S>
ST_FORCE_INLINE void by_rule(char* dst, const char* src, int64_t from, int64_t to, const float* scale,
                             const float* shift, int64_t step, bool saturate) {
  for (int64_t i = from; i < to; ++i) {
    store<D>(dst + i * static_cast<int64_t>(sizeof(D)),
             scaled_convert<D>(load<S>(src + i * static_cast<int64_t>(sizeof(S))), scale[i * step], shift[i * step],
                               saturate));
  }
}

// 8 floats of fma(x, scale, shift), element i0 on.
ST_FORCE_INLINE __m256 affine(__m256 x, const float* scale, const float* shift, int64_t i0, int64_t step) {
  const __m256 a = step ? _mm256_loadu_ps(scale + i0) : _mm256_set1_ps(*scale);
  const __m256 b = step ? _mm256_loadu_ps(shift + i0) : _mm256_set1_ps(*shift);
  return _mm256_fmadd_ps(x, a, b);
}

ST_FORCE_INLINE void store_f32(float* p, __m256 v, bool nt) {
  if (nt) {
    _mm256_stream_ps(p, v);
  } else {
    _mm256_storeu_ps(p, v);
  }
}

// 32 bytes packed from four vectors of 8 int32 by two packs, which
// interleave 4-byte groups across the lanes: put back in order, stored.
ST_FORCE_INLINE void store_packed(char* p, __m256i packed, bool nt) {
  const __m256i v = _mm256_permutevar8x32_epi32(packed, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
  if (nt) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
}

// Elements before dst reaches 32-byte alignment (streaming stores need it).
template <typename D>
int64_t head_for(const char* dst, int64_t n, bool nt) {
  if (!nt) return 0;
  const uintptr_t at = reinterpret_cast<uintptr_t>(dst);
  if (at % sizeof(D) != 0) return n;  // never aligned: the rule does it all
  const int64_t head = static_cast<int64_t>((32 - at % 32) % 32 / sizeof(D));
  return head < n ? head : n;
}

// ---- uint8 / int8 -> float32, in K rows whose streamed stores align
// alike, each vector of values loaded once for the K (Note [Rows that
// share their values]).

template <typename S, int K>
void to_f32_rows_of(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t n, const float* scale,
                    const float* shift, int64_t step, bool saturate, bool nt) {
  int64_t i = head_for<float>(dst, n, nt);
  for (int r = 0; r < K; ++r) by_rule<float, S>(dst + r * dst_row, src + r * src_row, 0, i, scale, shift, step, saturate);
  const __m256 m = _mm256_set1_ps(3.4028234663852886e38f), neg_m = _mm256_set1_ps(-3.4028234663852886e38f);
  for (; i + 32 <= n; i += 32) {
    for (int k = 0; k < 4; ++k) {
      const __m256 a = step ? _mm256_loadu_ps(scale + i + 8 * k) : _mm256_set1_ps(*scale);
      const __m256 b = step ? _mm256_loadu_ps(shift + i + 8 * k) : _mm256_set1_ps(*shift);
      for (int r = 0; r < K; ++r) {
        const __m128i q = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(src + r * src_row + i + 8 * k));
        const __m256i ints = std::is_signed<S>::value ? _mm256_cvtepi8_epi32(q) : _mm256_cvtepu8_epi32(q);
        __m256 y = _mm256_fmadd_ps(_mm256_cvtepi32_ps(ints), a, b);
        // Only ±inf from a huge scale clamps; NaN stays (min/max answer their second operand).
        if (saturate) y = _mm256_min_ps(m, _mm256_max_ps(neg_m, y));
        store_f32(reinterpret_cast<float*>(dst + r * dst_row) + i + 8 * k, y, nt);
      }
    }
  }
  for (int r = 0; r < K; ++r) by_rule<float, S>(dst + r * dst_row, src + r * src_row, i, n, scale, shift, step, saturate);
}

template <typename S>
void to_f32(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t rows, int64_t n, const float* scale,
            const float* shift, int64_t step, bool saturate, bool nt) {
  walk_rows_in_fours(
      rows, step, dst_row,
      [&](int64_t r) {
        to_f32_rows_of<S, 4>(dst + r * dst_row, dst_row, src + r * src_row, src_row, n, scale, shift, step, saturate, nt);
      },
      [&](int64_t r) {
        to_f32_rows_of<S, 1>(dst + r * dst_row, dst_row, src + r * src_row, src_row, n, scale, shift, step, saturate, nt);
      });
}

// ---- float32 -> int8 / uint8: round half to even, clamp, NaN -> 0.

template <typename D>
ST_FORCE_INLINE __m256i quantize8(__m256 y) {
  constexpr float lo = static_cast<float>(detail::IntRange<D>::min), hi = static_cast<float>(detail::IntRange<D>::max);
  __m256 r = _mm256_round_ps(y, kRoundNearest);
  r = _mm256_and_ps(r, _mm256_cmp_ps(r, r, _CMP_ORD_Q));  // NaN -> +0
  r = _mm256_min_ps(_mm256_max_ps(r, _mm256_set1_ps(lo)), _mm256_set1_ps(hi));
  return _mm256_cvttps_epi32(r);
}

template <typename D>
void from_f32_to_8bit(char* dst, const char* src, int64_t n, const float* scale, const float* shift, int64_t step,
                      bool saturate, bool nt) {
  int64_t i = head_for<D>(dst, n, nt);
  by_rule<D, float>(dst, src, 0, i, scale, shift, step, saturate);
  const float* s = reinterpret_cast<const float*>(src);
  for (; i + 32 <= n; i += 32) {
    __m256i q[4];
    for (int k = 0; k < 4; ++k) q[k] = quantize8<D>(affine(_mm256_loadu_ps(s + i + 8 * k), scale, shift, i + 8 * k, step));
    // In range already, so the saturating packs only narrow.
    const __m256i w01 = _mm256_packs_epi32(q[0], q[1]), w23 = _mm256_packs_epi32(q[2], q[3]);
    store_packed(dst + i, std::is_signed<D>::value ? _mm256_packs_epi16(w01, w23) : _mm256_packus_epi16(w01, w23), nt);
  }
  by_rule<D, float>(dst, src, i, n, scale, shift, step, saturate);
}

// ---- float32 -> float8_e4m3fn: st_copy's rounding (float8_lanes.h), the
// saturation folded into it.

void f32_to_e4m3(char* dst, const char* src, int64_t n, const float* scale, const float* shift, int64_t step,
                 bool saturate, bool nt) {
  using D = Float8_e4m3fn;
  int64_t i = head_for<D>(dst, n, nt);
  by_rule<D, float>(dst, src, 0, i, scale, shift, step, saturate);
  const float* s = reinterpret_cast<const float*>(src);
  for (; i + 32 <= n; i += 32) {
    __m256i c[4];
    for (int k = 0; k < 4; ++k) {
      const __m256i y = _mm256_castps_si256(affine(_mm256_loadu_ps(s + i + 8 * k), scale, shift, i + 8 * k, step));
      c[k] = saturate ? f32_to_f8_lanes<VecAvx2, E4M3Bits, E4M3Bits::kLargestFinite>(y) : f32_to_f8_lanes<VecAvx2, E4M3Bits>(y);
    }
    store_packed(dst + i, _mm256_packus_epi16(_mm256_packus_epi32(c[0], c[1]), _mm256_packus_epi32(c[2], c[3])), nt);
  }
  by_rule<D, float>(dst, src, i, n, scale, shift, step, saturate);
}

// ---- uint8 pixels of 3 channels -> 3 float32 planes, 16 pixels a step.
void u8_planes(char* dst, int64_t plane_bytes, const uint8_t* src, int64_t n, const float* scale, const float* shift,
               bool nt) {
  float* planes[3] = {reinterpret_cast<float*>(dst), reinterpret_cast<float*>(dst + plane_bytes),
                      reinterpret_cast<float*>(dst + 2 * plane_bytes)};
  const bool stream = nt && (reinterpret_cast<uintptr_t>(dst) % 32) == 0 && plane_bytes % 32 == 0;
  // Byte j of channel c's 16 is byte 3j + c of the 48 loaded: from load
  // (3j + c) / 16 at (3j + c) % 16; -1 (0x80) zeroes the others.
  alignas(16) int8_t masks[3][3][16];
  for (int c = 0; c < 3; ++c)
    for (int l = 0; l < 3; ++l)
      for (int j = 0; j < 16; ++j) {
        const int at = 3 * j + c;
        masks[c][l][j] = static_cast<int8_t>(at / 16 == l ? at % 16 : -1);
      }
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m128i l0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * i));
    const __m128i l1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * i + 16));
    const __m128i l2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 3 * i + 32));
    for (int c = 0; c < 3; ++c) {
      const __m128i ch =
          _mm_or_si128(_mm_or_si128(_mm_shuffle_epi8(l0, _mm_load_si128(reinterpret_cast<const __m128i*>(masks[c][0]))),
                                    _mm_shuffle_epi8(l1, _mm_load_si128(reinterpret_cast<const __m128i*>(masks[c][1])))),
                       _mm_shuffle_epi8(l2, _mm_load_si128(reinterpret_cast<const __m128i*>(masks[c][2]))));
      const __m256 a = _mm256_set1_ps(scale[c]), b = _mm256_set1_ps(shift[c]);
      const __m256 lo = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(ch)), a, b);
      const __m256 hi = _mm256_fmadd_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(ch, 8))), a, b);
      store_f32(planes[c] + i, lo, stream);
      store_f32(planes[c] + i + 8, hi, stream);
    }
  }
  for (; i < n; ++i)
    for (int c = 0; c < 3; ++c) planes[c][i] = scaled_convert<float>(src[3 * i + c], scale[c], shift[c], false);
}

}  // namespace
}  // namespace avx2

ScaledRowsFn avx2_scaled_rows_kernel(ScalarType dst, ScalarType src) {  // NOLINT: declared in scaled_rows.h
  using S = ScalarType;
  if (dst == S::Float32 && src == S::UInt8) return avx2::to_f32<uint8_t>;
  if (dst == S::Float32 && src == S::Int8) return avx2::to_f32<int8_t>;
  if (dst == S::Int8 && src == S::Float32) return row_by_row<avx2::from_f32_to_8bit<int8_t>>;
  if (dst == S::UInt8 && src == S::Float32) return row_by_row<avx2::from_f32_to_8bit<uint8_t>>;
  if (dst == S::Float8_e4m3fn && src == S::Float32) return row_by_row<avx2::f32_to_e4m3>;
  return nullptr;
}

ScaledPlanesFn avx2_scaled_u8_planes_kernel() { return avx2::u8_planes; }

}  // namespace cpu
}  // namespace st
