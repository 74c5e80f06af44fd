// Row converters with AVX2 + F16C + FMA, bit-identical to convert_rules.h.
// Each step produces 32 bytes of output; the rest goes element by element
// through the scalar rules.
#include "cpu/convert_kernel_table.h"

#if defined(__x86_64__)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include <cstring>

#include "cpu/convert_rules.h"

namespace st {
namespace cpu {
namespace {

constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

inline __m256i load32(const char* s) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s)); }
inline __m128i load16(const char* s) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(s)); }

template <bool NT>
inline void store32(char* p, __m256i v) {
  if (NT) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
}

inline __m256i float_to_bf16_8(__m256i x) {
  const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(1));
  const __m256i rounded = _mm256_srli_epi32(_mm256_add_epi32(_mm256_add_epi32(x, _mm256_set1_epi32(0x7fff)), lsb), 16);
  const __m256i nan = _mm256_cmpgt_epi32(_mm256_and_si256(x, _mm256_set1_epi32(0x7fffffff)), _mm256_set1_epi32(0x7f800000));
  const __m256i quiet = _mm256_or_si256(_mm256_srli_epi32(x, 16), _mm256_set1_epi32(0x40));
  return _mm256_blendv_epi8(rounded, quiet, nan);  // 8 values in the low 16 bits of each lane
}

template <typename To, typename From, To (*F)(From)>
inline void scalar_part(char* d, const char* s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    From v;
    std::memcpy(&v, s + i * static_cast<int64_t>(sizeof(From)), sizeof(From));
    const To r = F(v);
    std::memcpy(d + i * static_cast<int64_t>(sizeof(To)), &r, sizeof(To));
  }
}

static inline float u8_to_float(uint8_t v) { return static_cast<float>(v); }

struct F32ToF16 {
  static constexpr int64_t In = 4, Out = 2;
  static inline __m256i line(const char* s) {
    const __m128i a = _mm256_cvtps_ph(_mm256_loadu_ps(reinterpret_cast<const float*>(s)), kRound);
    const __m128i b = _mm256_cvtps_ph(_mm256_loadu_ps(reinterpret_cast<const float*>(s + 32)), kRound);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1);
  }
  static inline void part(char* d, const char* s, int64_t n) { scalar_part<uint16_t, float, float_to_half_bits>(d, s, n); }
};

struct F32ToBF16 {
  static constexpr int64_t In = 4, Out = 2;
  static inline __m256i line(const char* s) {
    const __m256i packed = _mm256_packus_epi32(float_to_bf16_8(load32(s)), float_to_bf16_8(load32(s + 32)));
    return _mm256_permute4x64_epi64(packed, 0xD8);
  }
  static inline void part(char* d, const char* s, int64_t n) {
    scalar_part<uint16_t, float, float_to_bfloat16_bits>(d, s, n);
  }
};

// hi * 2^32 + lo, both exact in float64, rounded once by the FMA.
struct I64ToF64 {
  static constexpr int64_t In = 8, Out = 8;
  static inline __m256i line(const char* s) {
    const __m256i x = load32(s);
    const __m128i hi32 = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(x, _mm256_set_epi32(7, 5, 3, 1, 7, 5, 3, 1)));
    const __m256d hi = _mm256_cvtepi32_pd(hi32);
    const __m256i lo_bits = _mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi64x(0xffffffff)),
                                            _mm256_set1_epi64x(0x4330000000000000));  // 2^52 + lo
    const __m256d lo = _mm256_sub_pd(_mm256_castsi256_pd(lo_bits), _mm256_set1_pd(4503599627370496.0));
    return _mm256_castpd_si256(_mm256_fmadd_pd(hi, _mm256_set1_pd(4294967296.0), lo));
  }
  static inline void part(char* d, const char* s, int64_t n) { scalar_part<double, int64_t, int64_to_double>(d, s, n); }
};

struct U8ToF32 {
  static constexpr int64_t In = 1, Out = 4;
  static inline __m256i line(const char* s) {
    return _mm256_castps_si256(
        _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(s)))));
  }
  static inline void part(char* d, const char* s, int64_t n) { scalar_part<float, uint8_t, u8_to_float>(d, s, n); }
};

struct F16ToF32 {
  static constexpr int64_t In = 2, Out = 4;
  // VCVTPH2PS, with the quiet bit it sets on signalling NaNs taken back off.
  static inline __m256i line(const char* s) {
    const __m128i h = load16(s);
    const __m256i f = _mm256_castps_si256(_mm256_cvtph_ps(h));
    const __m256i a = _mm256_and_si256(_mm256_cvtepu16_epi32(h), _mm256_set1_epi32(0x7fff));
    const __m256i signalling = _mm256_and_si256(_mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7c00)),
                                                _mm256_cmpgt_epi32(_mm256_set1_epi32(0x7e00), a));
    return _mm256_andnot_si256(_mm256_and_si256(signalling, _mm256_set1_epi32(0x00400000)), f);
  }
  static inline void part(char* d, const char* s, int64_t n) { scalar_part<float, uint16_t, half_bits_to_float>(d, s, n); }
};

struct BF16ToF32 {
  static constexpr int64_t In = 2, Out = 4;
  static inline __m256i line(const char* s) { return _mm256_slli_epi32(_mm256_cvtepu16_epi32(load16(s)), 16); }
  static inline void part(char* d, const char* s, int64_t n) {
    scalar_part<float, uint16_t, bfloat16_bits_to_float>(d, s, n);
  }
};

template <typename P>
void row(char* dst, const char* src, int64_t n, bool nt) {
  constexpr int64_t kPer = 32 / P::Out;
  int64_t i = 0;
  if (nt && (reinterpret_cast<uintptr_t>(dst) % P::Out) == 0) {
    const int64_t head = ((32 - static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) & 31)) & 31) / P::Out;
    i = head < n ? head : n;
    if (i) P::part(dst, src, i);
    for (; i + kPer <= n; i += kPer) store32<true>(dst + i * P::Out, P::line(src + i * P::In));
    _mm_sfence();
  } else {
    for (; i + kPer <= n; i += kPer) store32<false>(dst + i * P::Out, P::line(src + i * P::In));
  }
  if (i < n) P::part(dst + i * P::Out, src + i * P::In, n - i);
}

const ConvertKernelTable kTable = {
    "avx2",
    {row<F32ToF16>, row<F32ToBF16>, row<I64ToF64>, row<U8ToF32>, row<F16ToF32>, row<BF16ToF32>},
    nullptr,
};

}  // namespace

const ConvertKernelTable& avx2_convert_kernels() { return kTable; }

}  // namespace cpu
}  // namespace st

#else  // not x86-64: never selected

namespace st {
namespace cpu {
const ConvertKernelTable& avx2_convert_kernels() { return scalar_convert_kernels(); }
}  // namespace cpu
}  // namespace st

#endif
