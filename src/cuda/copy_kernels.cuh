// The __global__ copy and fill kernels and their launches, for the .cu files
// that instantiate them. Each kernel reads blockIdx and threadIdx and runs
// the thread body of cuda/copy_loops.h; launch shapes follow the comments
// there. Every launch is checked at once (cudaGetLastError), so a bad
// configuration fails the copy that caused it.
#pragma once

#include <cuda_runtime.h>

#include "cuda/copy_args.h"
#include "cuda/copy_loops.h"
#include "cuda/cuda_error.h"
#include "cuda/transpose_plan.h"

namespace st {
namespace cuda {

template <int W>
__global__ void __launch_bounds__(kCopyThreads) copy_bytes_kernel(BytesCopyArgs args) {
  copy_bytes_thread<W>(args, blockIdx.x, threadIdx.x);
}

template <typename D, typename S>
__global__ void __launch_bounds__(kCopyThreads) convert_vectorized_kernel(VectorCopyArgs args) {
  convert_vectorized_thread<D, S>(args, blockIdx.x, threadIdx.x);
}

template <typename D, typename S>
__global__ void __launch_bounds__(kCopyThreads) copy_strided_kernel(StridedCopyArgs args) {
  copy_strided_thread<D, S>(args, blockIdx.x, threadIdx.x);
}

template <typename D, typename S>
__global__ void __launch_bounds__(TileOf<D>::kTile * TileOf<D>::kBlockRows) copy_transpose_kernel(
    TransposeCopyArgs args) {
  __shared__ memory_t<D> tile[TileOf<D>::kSharedElements];
  const int tx = static_cast<int>(threadIdx.x), ty = static_cast<int>(threadIdx.y);
  // Every thread of a block runs the same iterations, so the barriers are uniform.
  for (uint32_t batch = blockIdx.z; batch < args.batches; batch += gridDim.z) {
    const auto offsets = args.batch_offsets.get(batch);
    for (uint32_t tile_row = blockIdx.y; tile_row < args.row_tiles; tile_row += gridDim.y) {
      transpose_load_phase<D, S>(args, tile, offsets[1], tile_row, blockIdx.x, tx, ty);
      __syncthreads();
      transpose_store_phase<D>(args, tile, offsets[0], tile_row, blockIdx.x, tx, ty);
      __syncthreads();
    }
  }
}

template <int N>
__global__ void __launch_bounds__(kCopyThreads) fill_contiguous_kernel(FillContiguousArgs args) {
  fill_contiguous_thread<N>(args, blockIdx.x, threadIdx.x);
}

template <typename T>
__global__ void __launch_bounds__(kCopyThreads) fill_strided_kernel(FillStridedArgs<T> args) {
  fill_strided_thread<T>(args, blockIdx.x, threadIdx.x);
}

// ---- Launches.

inline void check_launch() { ST_CUDA_CHECK(cudaGetLastError()); }

template <int W>
void launch_bytes(const BytesCopyArgs& args, cudaStream_t stream) {
  copy_bytes_kernel<W><<<blocks_for(args.plan.words, kCopyThreads * kCopyUnroll), kCopyThreads, 0, stream>>>(args);
  check_launch();
}

template <typename D, typename S>
void launch_vectorized(const VectorCopyArgs& args, cudaStream_t stream) {
  constexpr int kVec = VectorShape<D, S>::kVec;
  ST_CHECK(args.plan.vec == kVec, ST_ERROR_INTERNAL, "vectorized copy planned with %d elements per vector, the kernel moves %d",
           args.plan.vec, kVec);
  convert_vectorized_kernel<D, S><<<blocks_for(args.plan.vectors, kCopyThreads), kCopyThreads, 0, stream>>>(args);
  check_launch();
}

template <typename D, typename S>
void launch_strided(const StridedCopyArgs& args, cudaStream_t stream) {
  copy_strided_kernel<D, S><<<blocks_for(args.numel, kCopyThreads * kCopyUnroll), kCopyThreads, 0, stream>>>(args);
  check_launch();
}

template <typename D, typename S>
void launch_transpose(const TransposeCopyArgs& args, cudaStream_t stream) {
  using Tile = TileOf<D>;
  const dim3 grid(args.col_tiles, args.row_tiles < kMaxGridYZ ? args.row_tiles : kMaxGridYZ,
                  args.batches < kMaxGridYZ ? args.batches : kMaxGridYZ);
  const dim3 block(Tile::kTile, Tile::kBlockRows);
  copy_transpose_kernel<D, S><<<grid, block, 0, stream>>>(args);
  check_launch();
}

}  // namespace cuda
}  // namespace st
