// When a copy takes the tiled shared-memory transpose kernel, and its
// arguments. Host code.
//
// Note [When to transpose through tiles]
// The TensorIterator orders dims by the destination's strides, so dim 0 is
// where dst is fastest. When src is fastest along another dim k, the
// strided kernel (consecutive threads take consecutive elements of dim 0)
// writes dst coalesced but reads src with a stride: each element costs a
// memory transaction of its own. The transpose kernel (cuda/transpose_tile.h)
// reads a 32 × 32 tile along k and writes it along dim 0, coalesced on both
// sides; the remaining dims are a batch of such matrices. With a short dim
// (fewer than kMinTransposeExtent elements, such as the 3 channels of an
// image) most of each tile would be empty, and a warp of the strided
// kernel already reads few enough distinct rows of src, so the strided
// kernel serves it. The threshold is a judgement, not a measurement.
#pragma once

#include <cstdint>

#include "cuda/copy_args.h"
#include "cuda/iter_offsets.h"
#include "cuda/transpose_tile.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {

constexpr int64_t kMinTransposeExtent = 16;

// The dim k (>= 1) along which src is fastest when the tiled transpose
// serves this geometry (Note [When to transpose through tiles]); 0 when it
// does not. Strides in bytes, dim 0 fastest, as the iterator has them.
inline int transpose_col_dim(int ndim, const int64_t* shape, const int64_t* dst_strides, const int64_t* src_strides,
                             int64_t dst_size, int64_t src_size) {
  if (ndim < 2 || dst_strides[0] != dst_size || src_strides[0] == src_size) return 0;
  int col = 0;
  for (int d = 1; d < ndim && col == 0; ++d) {
    if (src_strides[d] == src_size) col = d;
  }
  if (col == 0 || shape[0] < kMinTransposeExtent || shape[col] < kMinTransposeExtent) return 0;
  return col;
}

// Of a part (a TensorIterator or a CopyPart).
template <typename Part>
int transpose_col_dim(const Part& part) {
  return transpose_col_dim(part.ndim(), part.shape().data(), part.strides(0).data(), part.strides(1).data(),
                           part.element_size(0), part.element_size(1));
}

// Grid limits of a launch: y and z hold at most 65535 blocks; the kernel
// loops over the row tiles and batches beyond them.
constexpr uint32_t kMaxGridYZ = 65535;

// The kernel's arguments for rows = dim 0, cols = dim `col` of a part that
// fits 32-bit indexing; every other dim is a batch dim.
template <typename Part>
TransposeCopyArgs make_transpose_args(const Part& part, int col, int dst_item_size) {
  int batch_dims[kMaxOffsetDims];
  int nbatch = 0;
  int64_t batches = 1;
  for (int d = 1; d < part.ndim(); ++d) {
    if (d == col) continue;
    batch_dims[nbatch++] = d;
    batches *= part.shape()[d];
  }
  const uint32_t rows = static_cast<uint32_t>(part.shape()[0]);
  const uint32_t cols = static_cast<uint32_t>(part.shape()[col]);
  uint32_t row_tiles = 0, col_tiles = 0;
  switch (dst_item_size) {
    case 1: row_tiles = transpose_tiles<1>(rows); col_tiles = transpose_tiles<1>(cols); break;
    case 2: row_tiles = transpose_tiles<2>(rows); col_tiles = transpose_tiles<2>(cols); break;
    case 4: row_tiles = transpose_tiles<4>(rows); col_tiles = transpose_tiles<4>(cols); break;
    case 8: row_tiles = transpose_tiles<8>(rows); col_tiles = transpose_tiles<8>(cols); break;
    case 16: row_tiles = transpose_tiles<16>(rows); col_tiles = transpose_tiles<16>(cols); break;
    default: fail(ST_ERROR_INTERNAL, "transpose: no tile for %d-byte elements", dst_item_size);
  }
  return TransposeCopyArgs{part.data_ptr(0),
                           part.data_ptr(1),
                           rows,
                           cols,
                           part.strides(0)[0],
                           part.strides(0)[col],
                           part.strides(1)[0],
                           part.strides(1)[col],
                           row_tiles,
                           col_tiles,
                           static_cast<uint32_t>(batches),
                           make_offset_calculator<2>(part, batch_dims, nbatch)};
}

}  // namespace cuda
}  // namespace st
