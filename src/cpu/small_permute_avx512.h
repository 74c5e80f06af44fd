// A fixed permutation of up to four 16-dword vectors, for the AVX-512
// kernels that move tiny dims (interleave / deinterleave of 2-4 rows).
// Include only from *_avx512.cpp files (after <immintrin.h>): it is in an
// unnamed namespace so each of them keeps its own copy.
#pragma once

#include <cstdint>

namespace st {
namespace cpu {
namespace {

// For n <= 4 input vectors in[0..n) of 16 dwords each (viewed as one flat
// array), output vector k takes lane l from flat[source(k, l)]; built once
// per call, applied as two masked two-source permutes.
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
  inline __m512i apply(int k, const __m512i* in) const {
    const __m512i a = _mm512_maskz_permutex2var_epi32(mask[k][0], in[0], idx[k][0], in[1]);
    const __m512i b = _mm512_maskz_permutex2var_epi32(mask[k][1], in[2], idx[k][1], in[3]);
    return _mm512_or_si512(a, b);
  }
};

// Built once per process for n = 2, 3, 4 (building costs divisions that a
// tiny copy cannot afford on every call).
inline SmallPermute make_deinterleave(int n) {
  SmallPermute p;
  p.build(n, [n](int k, int l) { return n * l + k; });  // output k: elements k, k+n, k+2n, ...
  return p;
}
inline SmallPermute make_interleave(int n) {
  SmallPermute p;
  p.build(n, [n](int k, int l) { return (16 * k + l) % n * 16 + (16 * k + l) / n; });
  return p;
}
inline const SmallPermute& deinterleave_permute(int n) {
  static const SmallPermute tables[3] = {make_deinterleave(2), make_deinterleave(3), make_deinterleave(4)};
  return tables[n - 2];
}
inline const SmallPermute& interleave_permute(int n) {
  static const SmallPermute tables[3] = {make_interleave(2), make_interleave(3), make_interleave(4)};
  return tables[n - 2];
}

}  // namespace
}  // namespace cpu
}  // namespace st
