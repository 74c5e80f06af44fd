// The AVX-512 rows of cpu/scaled_rows.h: the narrowing pairs (float32 ->
// int8 / uint8 / float8_e4m3fn) with sixteen lanes, mask blends, and a
// line of 64 results narrowed by two packs and a permute (a narrowing move
// per vector for the tail), and the widening ones (int8 / uint8 -> float32)
// a 64-byte line a step.
// The pixel planes take the AVX2 kernel. Same bits as core/scaled_convert.h.
#include <type_traits>

#include "core/scaled_convert.h"
#include "cpu/element_access.h"
#include "cpu/float8_lanes.h"
#include "cpu/scaled_rows.h"
#include "cpu/vec_avx512.h"
#include "cpu/x86_intrinsics.h"

namespace st {
namespace cpu {
namespace avx512 {
namespace {

template <typename D, typename S>
void by_rule_from(char* dst, const char* src, int64_t from, int64_t to, const float* scale, const float* shift,
                  int64_t step, bool saturate) {
  for (int64_t i = from; i < to; ++i)
    store<D>(dst + i * static_cast<int64_t>(sizeof(D)),
             scaled_convert<D>(load<S>(src + i * static_cast<int64_t>(sizeof(S))), scale[i * step], shift[i * step],
                               saturate));
}

template <typename D>
void by_rule(char* dst, const char* src, int64_t from, int64_t to, const float* scale, const float* shift, int64_t step,
             bool saturate) {
  by_rule_from<D, float>(dst, src, from, to, scale, shift, step, saturate);
}

// float32 -> int8 / uint8: round half to even, NaN -> 0, clamp. The clamp
// comes first (rounding a clamped value gives the clamped rounding: the
// bounds are integers), so that the conversion itself rounds, by its
// immediate, and zeroes the NaN lanes by its mask.
template <typename D>
struct Quantize {
  static ST_FORCE_INLINE __m512i codes(__m512 y, bool) {
    constexpr float lo = static_cast<float>(detail::IntRange<D>::min), hi = static_cast<float>(detail::IntRange<D>::max);
    const __mmask16 ordered = _mm512_cmp_ps_mask(y, y, _CMP_ORD_Q);
    const __m512 c = _mm512_min_ps(_mm512_set1_ps(hi), _mm512_max_ps(_mm512_set1_ps(lo), y));
    return _mm512_maskz_cvt_roundps_epi32(ordered, c, kRoundNearest);
  }
};

// float32 -> float8_e4m3fn: st_copy's rounding (float8_lanes.h), after
// the clamp that saturation asks for.
struct E4m3 {
  static ST_FORCE_INLINE __m512i codes(__m512 y, bool saturate) {
    return saturate ? f32_to_f8_lanes<VecAvx512, E4M3Bits, E4M3Bits::kLargestFinite>(_mm512_castps_si512(y))
                    : f32_to_f8_lanes<VecAvx512, E4M3Bits>(_mm512_castps_si512(y));
  }
};

template <typename D, class P, bool kPerElement, bool kSaturate>
void narrow_row_as(char* dst, const char* src, int64_t n, const float* scale, const float* shift, bool nt) {
  constexpr int64_t step = kPerElement ? 1 : 0;
  constexpr bool saturate = kSaturate;
  int64_t i = 0;
  if (nt) {  // whole 64-byte lines streamed: the elements before dst reaches one by the rule
    const int64_t head = static_cast<int64_t>((64 - reinterpret_cast<uintptr_t>(dst) % 64) % 64);
    i = head < n ? head : n;
    by_rule<D>(dst, src, 0, i, scale, shift, step, saturate);
  }
  const float* s = reinterpret_cast<const float*>(src);
  // Broadcast once: the compiler cannot tell that the stores to dst leave *scale alone.
  const __m512 row_scale = _mm512_set1_ps(*scale), row_shift = _mm512_set1_ps(*shift);
  auto codes = [&](int64_t at) {
    const __m512 a = step ? _mm512_loadu_ps(scale + at) : row_scale;
    const __m512 b = step ? _mm512_loadu_ps(shift + at) : row_shift;
    return P::codes(_mm512_fmadd_ps(_mm512_loadu_ps(s + at), a, b), saturate);
  };
  auto sixteen = [&](int64_t at) { return _mm512_cvtepi32_epi8(codes(at)); };
  // A line of 64 results a step (a partial line streamed costs a partial
  // write-combining flush), narrowed by two packs and one permute, as the
  // converting copies do, rather than four narrowing moves and three inserts.
  for (; i + 64 <= n; i += 64) {
    const __m512i c0 = codes(i), c1 = codes(i + 16), c2 = codes(i + 32), c3 = codes(i + 48);
    const __m512i line = std::is_signed<D>::value ? VecAvx512::pack_i32_i8(c0, c1, c2, c3)
                                                  : VecAvx512::pack_u32_u8(c0, c1, c2, c3);
    if (nt) {
      _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i), line);
    } else {
      _mm512_storeu_si512(dst + i, line);
    }
  }
  for (; i + 16 <= n; i += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), sixteen(i));
  by_rule<D>(dst, src, i, n, scale, shift, step, saturate);
}

// uint8 / int8 -> float32: 16 bytes widened to one line of 16 floats a
// step, in K rows whose streamed stores align alike, each vector of values
// loaded once for the K (Note [Rows that share their values]).
template <typename S, bool kPerElement, bool kSaturate, int K>
void widen_rows_of(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t n, const float* scale,
                   const float* shift, bool nt) {
  constexpr int64_t step = kPerElement ? 1 : 0;
  int64_t i = 0;
  if (nt) {
    const uintptr_t at = reinterpret_cast<uintptr_t>(dst);
    const int64_t head = at % 4 ? n : static_cast<int64_t>((64 - at % 64) % 64 / 4);
    i = head < n ? head : n;
    for (int k = 0; k < K; ++k)
      by_rule_from<float, S>(dst + k * dst_row, src + k * src_row, 0, i, scale, shift, step, kSaturate);
  }
  const __m512 m = _mm512_set1_ps(3.4028234663852886e38f), neg_m = _mm512_set1_ps(-3.4028234663852886e38f);
  for (; i + 16 <= n; i += 16) {
    const __m512 a = kPerElement ? _mm512_loadu_ps(scale + i) : _mm512_set1_ps(*scale);
    const __m512 b = kPerElement ? _mm512_loadu_ps(shift + i) : _mm512_set1_ps(*shift);
    for (int k = 0; k < K; ++k) {
      const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + k * src_row + i));
      const __m512i ints = std::is_signed<S>::value ? _mm512_cvtepi8_epi32(bytes) : _mm512_cvtepu8_epi32(bytes);
      __m512 y = _mm512_fmadd_ps(_mm512_cvtepi32_ps(ints), a, b);
      if (kSaturate) y = _mm512_min_ps(m, _mm512_max_ps(neg_m, y));  // ±inf only; NaN stays
      float* d = reinterpret_cast<float*>(dst + k * dst_row) + i;
      if (nt) {
        _mm512_stream_ps(d, y);
      } else {
        _mm512_storeu_ps(d, y);
      }
    }
  }
  for (int k = 0; k < K; ++k)
    by_rule_from<float, S>(dst + k * dst_row, src + k * src_row, i, n, scale, shift, step, kSaturate);
}

template <typename S, bool kPerElement, bool kSaturate>
void widen_rows_as(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t rows, int64_t n,
                   const float* scale, const float* shift, bool nt) {
  walk_rows_in_fours(
      rows, kPerElement ? 1 : 0, dst_row,
      [&](int64_t r) {  // only per element: one kernel of four rows, not a second for one value
        widen_rows_of<S, true, kSaturate, 4>(dst + r * dst_row, dst_row, src + r * src_row, src_row, n, scale, shift, nt);
      },
      [&](int64_t r) {
        widen_rows_of<S, kPerElement, kSaturate, 1>(dst + r * dst_row, dst_row, src + r * src_row, src_row, n, scale,
                                                    shift, nt);
      });
}

template <typename S>
void widen_rows(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t rows, int64_t n,
                const float* scale, const float* shift, int64_t step, bool saturate, bool nt) {
  if (step) {
    (saturate ? widen_rows_as<S, true, true> : widen_rows_as<S, true, false>)(dst, dst_row, src, src_row, rows, n,
                                                                              scale, shift, nt);
  } else {
    (saturate ? widen_rows_as<S, false, true> : widen_rows_as<S, false, false>)(dst, dst_row, src, src_row, rows, n,
                                                                                scale, shift, nt);
  }
}

// The row's constant choices as template arguments: no test in the loop.
template <typename D, class P>
void narrow_row(char* dst, const char* src, int64_t n, const float* scale, const float* shift, int64_t step,
                bool saturate, bool nt) {
  if (step) {
    (saturate ? narrow_row_as<D, P, true, true> : narrow_row_as<D, P, true, false>)(dst, src, n, scale, shift, nt);
  } else {
    (saturate ? narrow_row_as<D, P, false, true> : narrow_row_as<D, P, false, false>)(dst, src, n, scale, shift, nt);
  }
}

}  // namespace
}  // namespace avx512

ScaledRowsFn avx512_scaled_rows_kernel(ScalarType dst, ScalarType src) {
  using S = ScalarType;
  if (src == S::Float32 && dst == S::Int8) return row_by_row<avx512::narrow_row<int8_t, avx512::Quantize<int8_t>>>;
  if (src == S::Float32 && dst == S::UInt8) return row_by_row<avx512::narrow_row<uint8_t, avx512::Quantize<uint8_t>>>;
  if (src == S::Float32 && dst == S::Float8_e4m3fn) return row_by_row<avx512::narrow_row<Float8_e4m3fn, avx512::E4m3>>;
  if (src == S::Int8 && dst == S::Float32) return avx512::widen_rows<int8_t>;
  if (src == S::UInt8 && dst == S::Float32) return avx512::widen_rows<uint8_t>;
  return avx2_scaled_rows_kernel(dst, src);
}

}  // namespace cpu
}  // namespace st
