// The vectorized rows of the scaled copies' hot pairs (stride-bench S1-S4):
// uint8/int8 -> float32 (normalize, dequantize), float32 -> int8/uint8
// (quantize) and float32 -> float8_e4m3fn, all in float32 compute. Each
// row gives the bits of core/scaled_convert.h (Note [The scaled copy's
// arithmetic]): one fma, and an explicit round-to-nearest-even immediate
// where it rounds, whatever the caller's MXCSR.
#pragma once

#include <cstdint>

#include "core/dtype.h"

namespace st {
namespace cpu {

// n contiguous elements; element i takes scale[i * step] and shift[i *
// step] (step 0: one value for the row, 1: one per element). `nt`: the
// output is large, stream it past the caches; the caller fences once after
// its rows (a fence per row of 16 KB would cost ~10%, see copy_convert.cpp).
using ScaledRowFn = void (*)(char* dst, const char* src, int64_t n, const float* scale, const float* shift,
                             int64_t step, bool saturate, bool nt);

// Pixels of 3 uint8 channels to 3 float32 planes: dst + c * plane_bytes
// receives element (i, c), i < n, of src (3 bytes a pixel), scaled by
// scale[c] and shift[c].
using ScaledPlanesFn = void (*)(char* dst, int64_t plane_bytes, const uint8_t* src, int64_t n, const float* scale,
                                const float* shift, bool nt);

// The row kernel of the pair at this CPU's level, or null (the pair, or
// the level, has none: the caller runs the element rule).
ScaledRowFn scaled_row_kernel(ScalarType dst, ScalarType src);
ScaledPlanesFn scaled_u8_planes_kernel();

// The AVX2 level's (call only at CpuIsa::Avx2 or above), and the AVX-512
// level's (only at CpuIsa::Avx512).
ScaledRowFn avx2_scaled_row_kernel(ScalarType dst, ScalarType src);
ScaledRowFn avx512_scaled_row_kernel(ScalarType dst, ScalarType src);
ScaledPlanesFn avx2_scaled_u8_planes_kernel();

}  // namespace cpu
}  // namespace st
