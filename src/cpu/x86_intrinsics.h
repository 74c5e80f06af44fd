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

}  // namespace cpu
}  // namespace st
