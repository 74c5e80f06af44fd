// Row converters with AVX-512 (F, BW, VL, DQ), bit-identical to
// convert_rules.h: F16C-style instructions with the rounding given in the
// instruction (never MXCSR's), bfloat16 rounding in integer arithmetic
// (AVX512_BF16's VCVTNEPS2BF16 would flush subnormals and is not used).
// Each step produces one 64-byte line of output; the tail is masked.
#include "cpu/convert_kernel_table.h"

#if defined(__x86_64__)

// See copy_kernels_avx512.cpp for why the header is wrapped.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "cpu/small_permute_avx512.h"

namespace st {
namespace cpu {
namespace {

constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

// The first n lanes (none for n <= 0).
inline __mmask16 mask16(int64_t n) {
  return n >= 16 ? static_cast<__mmask16>(0xFFFF) : n <= 0 ? 0 : static_cast<__mmask16>((1u << n) - 1);
}
inline __mmask8 mask8(int64_t n) { return n >= 8 ? static_cast<__mmask8>(0xFF) : n <= 0 ? 0 : static_cast<__mmask8>((1u << n) - 1); }

template <bool NT>
inline void store64(char* p, __m512i v) {
  if (NT) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  } else {
    _mm512_storeu_si512(p, v);
  }
}

// float32 -> bfloat16 of 16 lanes: round to nearest even on the integer
// pattern; NaN keeps its top bits with the quiet bit set.
inline __m256i float_to_bf16_16(__m512i x) {
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
  const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(_mm512_add_epi32(x, _mm512_set1_epi32(0x7fff)), lsb), 16);
  const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(x, _mm512_set1_epi32(0x7fffffff)),
                                                _mm512_set1_epi32(0x7f800000));
  const __m512i quiet = _mm512_or_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(0x40));
  return _mm512_cvtepi32_epi16(_mm512_mask_mov_epi32(rounded, nan, quiet));
}

inline __m512i bf16_to_float_16(__m256i h) { return _mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16); }

// VCVTPH2PS, with the quiet bit it sets on signalling NaNs taken back off
// (the scalar rule keeps a NaN's bits): lanes whose input has all exponent
// bits, a clear quiet bit and a nonzero payload.
inline __m512 half_to_float_16(__m256i h) {
  const __m512 f = _mm512_cvtph_ps(h);
  const __m512i a = _mm512_and_si512(_mm512_cvtepu16_epi32(h), _mm512_set1_epi32(0x7fff));
  const __mmask16 signalling = _mm512_cmpgt_epu32_mask(a, _mm512_set1_epi32(0x7c00)) &
                               _mm512_cmplt_epu32_mask(a, _mm512_set1_epi32(0x7e00));
  return _mm512_castsi512_ps(
      _mm512_mask_andnot_epi32(_mm512_castps_si512(f), signalling, _mm512_set1_epi32(0x00400000), _mm512_castps_si512(f)));
}

// One pair: In and Out bytes per element; line(src) makes 64 bytes of
// output from 64/Out elements; part(dst, src, n) converts n < 64/Out
// elements with masks.
struct F32ToF16 {
  static constexpr int64_t In = 4, Out = 2;
  static inline __m512i line(const char* s) {
    const __m256i a = _mm512_cvt_roundps_ph(_mm512_loadu_ps(s), kRound);
    const __m256i b = _mm512_cvt_roundps_ph(_mm512_loadu_ps(s + 64), kRound);
    return _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
  }
  static inline void part(char* d, const char* s, int64_t n) {
    for (int64_t k = 0; k < n; k += 16) {
      const __mmask16 m = mask16(n - k);
      const __m256i h = _mm512_cvt_roundps_ph(_mm512_maskz_loadu_ps(m, s + k * 4), kRound);
      _mm256_mask_storeu_epi16(d + k * 2, m, h);
    }
  }
};

struct F32ToBF16 {
  static constexpr int64_t In = 4, Out = 2;
  static inline __m512i line(const char* s) {
    const __m256i a = float_to_bf16_16(_mm512_loadu_si512(s));
    const __m256i b = float_to_bf16_16(_mm512_loadu_si512(s + 64));
    return _mm512_inserti64x4(_mm512_castsi256_si512(a), b, 1);
  }
  static inline void part(char* d, const char* s, int64_t n) {
    for (int64_t k = 0; k < n; k += 16) {
      const __mmask16 m = mask16(n - k);
      _mm256_mask_storeu_epi16(d + k * 2, m, float_to_bf16_16(_mm512_maskz_loadu_epi32(m, s + k * 4)));
    }
  }
};

struct I64ToF64 {
  static constexpr int64_t In = 8, Out = 8;
  static inline __m512i line(const char* s) {
    return _mm512_castpd_si512(_mm512_cvt_roundepi64_pd(_mm512_loadu_si512(s), kRound));
  }
  static inline void part(char* d, const char* s, int64_t n) {
    const __mmask8 m = mask8(n);
    _mm512_mask_storeu_pd(d, m, _mm512_cvt_roundepi64_pd(_mm512_maskz_loadu_epi64(m, s), kRound));
  }
};

struct U8ToF32 {
  static constexpr int64_t In = 1, Out = 4;
  static inline __m512i line(const char* s) {
    return _mm512_castps_si512(
        _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s)))));
  }
  static inline void part(char* d, const char* s, int64_t n) {
    const __mmask16 m = mask16(n);
    _mm512_mask_storeu_ps(d, m, _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, s))));
  }
};

struct F16ToF32 {
  static constexpr int64_t In = 2, Out = 4;
  static inline __m512i line(const char* s) {
    return _mm512_castps_si512(half_to_float_16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s))));
  }
  static inline void part(char* d, const char* s, int64_t n) {
    const __mmask16 m = mask16(n);
    _mm512_mask_storeu_ps(d, m, half_to_float_16(_mm256_maskz_loadu_epi16(m, s)));
  }
};

struct BF16ToF32 {
  static constexpr int64_t In = 2, Out = 4;
  static inline __m512i line(const char* s) {
    return bf16_to_float_16(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s)));
  }
  static inline void part(char* d, const char* s, int64_t n) {
    const __mmask16 m = mask16(n);
    _mm512_mask_storeu_epi32(d, m, bf16_to_float_16(_mm256_maskz_loadu_epi16(m, s)));
  }
};

// Streams need 64-byte aligned lines: the elements before the first one
// go through part(); so does the tail.
template <typename P>
void row(char* dst, const char* src, int64_t n, bool nt) {
  constexpr int64_t kPer = 64 / P::Out;
  int64_t i = 0;
  if (nt && (reinterpret_cast<uintptr_t>(dst) % P::Out) == 0) {
    const int64_t head = ((64 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) & 63)) & 63) / P::Out;
    i = head < n ? head : n;
    if (i) P::part(dst, src, i);
    for (; i + kPer <= n; i += kPer) store64<true>(dst + i * P::Out, P::line(src + i * P::In));
    _mm_sfence();
  } else {
    for (; i + kPer <= n; i += kPer) store64<false>(dst + i * P::Out, P::line(src + i * P::In));
  }
  if (i < n) P::part(dst + i * P::Out, src + i * P::In, n - i);
}

// uint8 pixels of 2-4 channels to float32 planes (NHWC -> NCHW): 16
// pixels per step, widened and converted in registers, then split into
// channels by SmallPermute.
bool deinterleave(ConvertPair pair, char* dst, int64_t dst_col, const char* src, int64_t rows, int64_t cols, bool nt) {
  if (pair != ConvertPair::UInt8ToFloat32 || cols < 2 || cols > 4) return false;
  const int n = static_cast<int>(cols);
  const SmallPermute& p = deinterleave_permute(n);
  const bool stream = nt && (reinterpret_cast<uintptr_t>(dst) & 63) == 0 && (dst_col & 63) == 0;
  __m512i in[4];
  int64_t i = 0;
  for (; i + 16 <= rows; i += 16) {
    const char* s = src + i * n;
    for (int q = 0; q < 4; ++q) {
      in[q] = q < n ? _mm512_castps_si512(_mm512_cvtepi32_ps(
                          _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s + 16 * q)))))
                    : in[0];
    }
    for (int c = 0; c < n; ++c) {
      if (stream) {
        store64<true>(dst + c * dst_col + i * 4, p.apply(c, in));
      } else {
        store64<false>(dst + c * dst_col + i * 4, p.apply(c, in));
      }
    }
  }
  if (i < rows) {
    const int64_t left = rows - i, flat = left * n;
    const char* s = src + i * n;
    for (int q = 0; q < 4; ++q) {
      in[q] = q < n ? _mm512_castps_si512(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(mask16(flat - 16 * q), s + 16 * q))))
                    : in[0];
    }
    for (int c = 0; c < n; ++c) _mm512_mask_storeu_epi32(dst + c * dst_col + i * 4, mask16(left), p.apply(c, in));
  }
  if (stream) _mm_sfence();
  return true;
}

const ConvertKernelTable kTable = {
    "avx512",
    {row<F32ToF16>, row<F32ToBF16>, row<I64ToF64>, row<U8ToF32>, row<F16ToF32>, row<BF16ToF32>},
    deinterleave,
};

}  // namespace

const ConvertKernelTable& avx512_convert_kernels() { return kTable; }

}  // namespace cpu
}  // namespace st

#else  // not x86-64: never selected

namespace st {
namespace cpu {
const ConvertKernelTable& avx512_convert_kernels() { return scalar_convert_kernels(); }
}  // namespace cpu
}  // namespace st

#endif
