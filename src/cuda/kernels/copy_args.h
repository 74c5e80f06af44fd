// The arguments of the copy and fill kernels: plain structs passed by value
// to a launch, built on the host from a TensorIterator part that fits
// 32-bit indexing (so every element index and byte offset fits int32).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/kernels/element_io.h"
#include "cuda/kernels/offset_calculator.h"
#include "cuda/kernels/transpose_tile.h"
#include "cuda/kernels/vectorize.h"

namespace st {
namespace cuda {

// Same dtype, contiguous on both sides: bytes [0, head + words × word + tail).
struct BytesCopyArgs {
  char* dst;
  const char* src;
  BytesPlan plan;
};

// Converting, contiguous on both sides (Note [Vectorized contiguous copies]).
struct VectorCopyArgs {
  char* dst;
  const char* src;
  VectorPlan plan;
};

// Any layout: element i of the iteration sits at offsets.get(i) (dst, src).
struct StridedCopyArgs {
  char* dst;
  const char* src;
  OffsetCalculator<2> offsets;
  uint32_t numel;
};

// A scaled copy, any layout: element i of the iteration has the byte
// offsets offsets.get(i) into dst, src, scale and shift; scale and shift
// hold compute-type values (Note [The scaled copy's arithmetic]).
struct ScaledCopyArgs {
  char* dst;
  const char* src;
  const char* scale;
  const char* shift;
  OffsetCalculator<4> offsets;
  uint32_t numel;
  bool saturate;
};

// A batch of rows × cols matrices, dst fastest along rows and src fastest
// along cols, moved in tiles of shape `tile` (cuda/kernels/transpose_tile.h).
// Strides in bytes; batch_offsets gives the (dst, src) byte offset of each
// matrix.
struct TransposeCopyArgs {
  char* dst;
  const char* src;
  uint32_t rows;
  uint32_t cols;
  int64_t dst_row_stride;
  int64_t dst_col_stride;
  int64_t src_row_stride;
  int64_t src_col_stride;
  TransposeTileShape tile;
  uint32_t row_tiles;
  uint32_t col_tiles;
  uint32_t batches;
  uint32_t batch_tiles;
  OffsetCalculator<2> batch_offsets;
};

// Fill, contiguous: the bytes of `plan` (dst and src alike, head and tail
// whole elements) get `pattern`, the element's bytes repeated to 16.
struct FillContiguousArgs {
  char* dst;
  BytesPlan plan;
  Word16 pattern;
};

// Fill, any layout: element i at offsets.get(i) gets `value` (Word<N> or Bytes<N>).
template <typename T>
struct FillStridedArgs {
  char* dst;
  OffsetCalculator<1> offsets;
  uint32_t numel;
  T value;
};

// Kernel arguments travel in a constant bank of 4 KiB on every device
// stride builds for (CUDA 12.1 allows more on Volta and newer, but only
// for code that asks), and a launch with larger ones fails to compile or
// to run. Every argument struct stays within it, with room to spare.
constexpr size_t kMaxKernelArgBytes = 4096;
static_assert(sizeof(BytesCopyArgs) <= kMaxKernelArgBytes, "kernel argument size");
static_assert(sizeof(VectorCopyArgs) <= kMaxKernelArgBytes, "kernel argument size");
static_assert(sizeof(StridedCopyArgs) <= kMaxKernelArgBytes, "kernel argument size");
static_assert(sizeof(TransposeCopyArgs) <= kMaxKernelArgBytes, "kernel argument size");
static_assert(sizeof(ScaledCopyArgs) <= kMaxKernelArgBytes, "kernel argument size");
static_assert(sizeof(FillContiguousArgs) <= kMaxKernelArgBytes, "kernel argument size");
static_assert(sizeof(FillStridedArgs<Word16>) <= kMaxKernelArgBytes, "kernel argument size");

}  // namespace cuda
}  // namespace st
