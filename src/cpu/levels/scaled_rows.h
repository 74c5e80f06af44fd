// The vectorized rows of the scaled copies' hot pairs (stride-bench S1-S4):
// uint8/int8 -> float32 (normalize, dequantize), float32 -> int8/uint8
// (quantize) and float32 -> float8_e4m3fn, all in float32 compute. Each
// row gives the bits of core/numeric/scaled_convert.h (Note [The scaled copy's
// arithmetic]): one fma, and an explicit round-to-nearest-even immediate
// where it rounds, whatever the caller's MXCSR.
#pragma once

#include <cstdint>

#include "core/numeric/dtype.h"

namespace st {
namespace cpu {

// `rows` rows of n contiguous elements, row r at dst + r * dst_row and src
// + r * src_row (bytes), that all take the same values: element i of a row
// takes scale[i * step] and shift[i * step] (step 0: one value for the
// rows, 1: one per element). `nt`: the output is large, stream it past the
// caches; the caller fences once after its rows (a fence per row of 16 KB
// would cost ~10%, see copy_convert.cpp).
//
// Note [Rows that share their values]
// A per-element row of 4,096 float32 columns reads 32 KB of scales and
// shifts, as much as the L1 cache holds beside the rows themselves, so a
// row at a time reads them again from L2 for every row: int8 -> float32
// per column (stride-bench S4) took 12-17% longer than with one scale for
// the tensor at 1 thread. The widening rows therefore walk four rows a
// step and load each vector of values once for the four, which brings it
// to the per-tensor time. Four rows share a step only where their
// streamed stores align alike (dst_row a multiple of 64 bytes).
using ScaledRowsFn = void (*)(char* dst, int64_t dst_row, const char* src, int64_t src_row, int64_t rows, int64_t n,
                              const float* scale, const float* shift, int64_t step, bool saturate, bool nt);

// Walks `rows` rows for a rows kernel: four(r) takes rows r to r + 3 in
// one step while four rows can share it (their values per element, their
// streamed stores aligned alike: Note [Rows that share their values]),
// one(r) takes row r alone.
template <class Four, class One>
void walk_rows_in_fours(int64_t rows, int64_t step, int64_t dst_row, const Four& four, const One& one) {
  int64_t r = 0;
  if (step != 0 && dst_row % 64 == 0) {
    for (; r + 4 <= rows; r += 4) four(r);
  }
  for (; r < rows; ++r) one(r);
}

// Pixels of 3 uint8 channels to 3 float32 planes: dst + c * plane_bytes
// receives element (i, c), i < n, of src (3 bytes a pixel), scaled by
// scale[c] and shift[c].
using ScaledPlanesFn = void (*)(char* dst, int64_t plane_bytes, const uint8_t* src, int64_t n, const float* scale,
                                const float* shift, bool nt);

// A level's kernels (scaled_rows.inl, compiled once per level by
// scaled_rows_<level>.cpp); the portable level's run the element rule.
struct ScaledRowsTable {
  const char* name;
  ScaledRowsFn u8_to_f32, i8_to_f32, f32_to_i8, f32_to_u8, f32_to_e4m3;
  ScaledPlanesFn u8_planes;
};

const ScaledRowsTable& scalar_scaled_rows();
const ScaledRowsTable& avx2_scaled_rows();    // call only at CpuIsa::Avx2 or above
const ScaledRowsTable& avx512_scaled_rows();  // call only at CpuIsa::Avx512
const ScaledRowsTable& neon_scaled_rows();    // call only at CpuIsa::Neon

// The table for cpu_isa() now.
const ScaledRowsTable& active_scaled_rows();

// The rows kernel of the pair from the table for cpu_isa() now, or null
// (the pair has none: the caller runs the element rule).
ScaledRowsFn scaled_rows_kernel(ScalarType dst, ScalarType src);
ScaledPlanesFn scaled_u8_planes_kernel();

}  // namespace cpu
}  // namespace st
