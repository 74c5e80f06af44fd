// <immintrin.h> and what the x86 levels of the vector traits (vec_avx2.h,
// vec_avx512.h) share. GCC 12's AVX-512 headers make their "undefined" vectors
// by initializing them from themselves (GCC bug 105593), which
// -Wuninitialized reports in the header; the pragma covers the header's
// lines only.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if defined(__GNUC__) && !defined(__clang__)  // GCC's own warning: clang warns that it knows no such group
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#pragma GCC diagnostic pop

namespace st {
namespace cpu {

// The rounding of the converting instructions, given in each instruction
// so that whatever MXCSR mode the host left the thread in does not matter.
constexpr int kRoundNearest = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;

namespace {  // each level's file has its own copy, built with its flags (vec_base.h)

// The scaled copies' pixel planes (scaled_rows.inl): pixels of 3 uint8
// channels split into their channels by byte shuffles (SSSE3, which both
// levels have).
struct PixelChannels3 {
  using Bytes16 = __m128i;
  // The 16 pixels at p (48 bytes) into each channel's 16 bytes: byte j of
  // channel c is byte 3j + c, at 3j + c - 16l of load l; the shuffle
  // control's bytes outside 0 … 15 get bit 7 set, which zeroes them.
  static void channels16(const unsigned char* p, Bytes16 out[3]) {
    __m128i in[3];
    for (int l = 0; l < 3; ++l) in[l] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * l));
    for (int c = 0; c < 3; ++c) {
      out[c] = _mm_setzero_si128();
      for (int l = 0; l < 3; ++l) {
        const __m128i at = _mm_add_epi8(_mm_setr_epi8(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45),
                                        _mm_set1_epi8(static_cast<char>(c - 16 * l)));
        out[c] = _mm_or_si128(out[c], _mm_shuffle_epi8(in[l], _mm_or_si128(at, _mm_cmpgt_epi8(at, _mm_set1_epi8(15)))));
      }
    }
  }
};

}  // namespace

}  // namespace cpu
}  // namespace st
