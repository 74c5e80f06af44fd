// When a copy takes the tiled shared-memory transpose kernel, the shape of
// its tiles, and its arguments. Host code.
//
// Note [When to transpose through tiles]
// The TensorIterator orders dims by the destination's strides, so dim 0 is
// where dst is fastest. When src is fastest along another dim k, the
// strided kernel (consecutive threads take consecutive elements of dim 0)
// writes dst coalesced but reads src with a stride: each element costs a
// memory transaction of its own, or for a short dim 0 (the 3 channels of
// an NHWC image) a warp reads several short runs and most of each sector
// goes unused when elements are narrow. The transpose kernel
// (cuda/kernels/transpose_tile.h) reads a tile along k and writes it along dim 0,
// coalesced on both sides; the remaining dims are a batch of such
// matrices. Its tiles take the shape of the matrices (Note [Transpose
// tiles for small extents]), so every extent of at least kTileMinSide
// elements is served, short ones included.
#pragma once

#include <cstdint>

#include "core/macros.h"
#include "cuda/kernels/copy_args.h"
#include "cuda/kernels/iter_offsets.h"
#include "cuda/kernels/transpose_tile.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {

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
  if (col == 0 || shape[0] < kTileMinSide || shape[col] < kTileMinSide) return 0;
  return col;
}

// ceil(log2 n), for n >= 1.
inline uint32_t ceil_log2(uint64_t n) { return n <= 1 ? 0 : static_cast<uint32_t>(64 - leading_zeros64(n - 1)); }

// The tile for a batch of rows × cols matrices (Note [Transpose tiles for
// small extents]): 32 × 32 when both extents reach 32; otherwise a short
// side rounded up to a power of two and the other side grown to fill the
// tile, or, when both are short, whole matrices side by side.
inline TransposeTileShape plan_transpose_tile(uint32_t rows, uint32_t cols) {
  // At least kTileMinSide (2) a side: an extent of 1 is no transpose, but
  // the tile must still cover it.
  uint32_t log_rows = ceil_log2(rows), log_cols = ceil_log2(cols);
  if (log_rows < 1) log_rows = 1;
  if (log_cols < 1) log_cols = 1;
  if (log_rows >= kTileLogLarge && log_cols >= kTileLogLarge) {
    log_rows = log_cols = kTileLogLarge;
  } else if (log_rows < kTileLogLarge) {
    if (log_cols > kTileLogElements - log_rows) log_cols = kTileLogElements - log_rows;
  } else {
    if (log_rows > kTileLogElements - log_cols) log_rows = kTileLogElements - log_cols;
  }
  return TransposeTileShape{kTileLogElements - log_rows - log_cols, log_rows, log_cols};
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
TransposeCopyArgs make_transpose_args(const Part& part, int col) {
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
  const TransposeTileShape tile = plan_transpose_tile(rows, cols);
  return TransposeCopyArgs{part.data_ptr(0),
                           part.data_ptr(1),
                           rows,
                           cols,
                           part.strides(0)[0],
                           part.strides(0)[col],
                           part.strides(1)[0],
                           part.strides(1)[col],
                           tile,
                           tiles_along(rows, tile.log_rows),
                           tiles_along(cols, tile.log_cols),
                           static_cast<uint32_t>(batches),
                           tiles_along(static_cast<uint32_t>(batches), tile.log_batches),
                           make_offset_calculator<2>(part, batch_dims, nbatch)};
}

}  // namespace cuda
}  // namespace st
