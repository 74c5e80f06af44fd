// The __global__ copy and fill kernels and their launches, for the .cu files
// that instantiate them. Each kernel reads blockIdx and threadIdx and runs
// the thread body of cuda/kernels/copy_loops.h; launch shapes come from
// cuda/kernels/launch_shape.h and are checked before each launch (Note [Launch
// shapes]). Every launch is checked at once, so a bad configuration fails
// the copy that caused it, and only that copy (Note [A launch reports its
// own error]).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "cuda/kernels/copy_args.h"
#include "cuda/kernels/copy_loops.h"
#include "cuda/kernels/kernel_launch.h"
#include "cuda/kernels/launch_shape.h"
#include "cuda/kernels/transpose_plan.h"
#include "cuda/runtime/cuda_error.h"

// Conversions must give the CPU's bits: fast math would flush subnormals
// and approximate on the device only. nvcc 13 defines no macro for
// --use_fast_math, so the configure refuses the flag (cmake/StrideCudaFlags.cmake);
// this catches the compilers that announce it.
#if defined(__USE_FAST_MATH__) || defined(__FAST_MATH__) || defined(__CLANG_CUDA_APPROX_TRANSCENDENTALS__)
#error "stride's CUDA kernels must not be built with fast math (--use_fast_math, -ffast-math)"
#endif

namespace st {
namespace cuda {

template <int W>
__global__ void __launch_bounds__(kCopyThreads) copy_bytes_kernel(BytesCopyArgs args) {
  copy_bytes_thread<W>(args, blockIdx.x, threadIdx.x);
}

// At least 8 resident blocks of 128 threads: up to 64 registers per
// thread. Left alone, ptxas aims at 16 blocks (32 registers) and spilled
// the widening conversions (bool to complex64 on sm_80 to sm_100); 8
// blocks are 1024 threads with 16-byte accesses in flight, plenty for a copy.
constexpr int kVectorizedMinBlocks = 8;

template <typename D, typename S>
__global__ void __launch_bounds__(kCopyThreads, kVectorizedMinBlocks) convert_vectorized_kernel(VectorCopyArgs args) {
  convert_vectorized_thread<D, S>(args, blockIdx.x, threadIdx.x);
}

template <typename D, typename S>
__global__ void __launch_bounds__(kCopyThreads) copy_strided_kernel(StridedCopyArgs args) {
  copy_strided_thread<D, S>(args, blockIdx.x, threadIdx.x);
}

template <typename D, typename S>
__global__ void __launch_bounds__(kTransposeThreads) copy_transpose_kernel(TransposeCopyArgs args) {
  __shared__ memory_t<D> tile[TileOf<D>::kSharedElements];
  const int thread = static_cast<int>(threadIdx.x);
  // Every thread of a block runs the same iterations, so the barriers are uniform.
  for (uint32_t batch_tile = blockIdx.z; batch_tile < args.batch_tiles; batch_tile += gridDim.z) {
    TransposeOffsets offsets[kTransposeSteps];
    transpose_batch_offsets(args, batch_tile, thread, offsets);
    for (uint32_t row_tile = blockIdx.y; row_tile < args.row_tiles; row_tile += gridDim.y) {
      const TileAt<uint32_t> at = transpose_tile_at(args, batch_tile, row_tile, blockIdx.x);
      transpose_load_phase<D, S>(args, tile, offsets, at, thread);
      __syncthreads();
      transpose_store_phase<D>(args, tile, offsets, at, thread);
      __syncthreads();
    }
  }
}

template <typename D, typename S>
__global__ void __launch_bounds__(kCopyThreads) copy_scaled_kernel(ScaledCopyArgs args) {
  copy_scaled_thread<D, S>(args, blockIdx.x, threadIdx.x);
}

template <int N>
__global__ void __launch_bounds__(kCopyThreads) fill_contiguous_kernel(FillContiguousArgs args) {
  fill_contiguous_thread<N>(args, blockIdx.x, threadIdx.x);
}

template <typename T>
__global__ void __launch_bounds__(kCopyThreads) fill_strided_kernel(FillStridedArgs<T> args) {
  fill_strided_thread<T>(args, blockIdx.x, threadIdx.x);
}

// ---- Launches (cuda/kernels/kernel_launch.h).

template <int W>
void launch_bytes(const BytesCopyArgs& args, cudaStream_t stream) {
  launch_kernel(copy_bytes_kernel<W>, bytes_shape(args), kCopyThreads, "copy_bytes_kernel", args, stream);
}

template <typename D, typename S>
void launch_vectorized(const VectorCopyArgs& args, cudaStream_t stream) {
  constexpr int kVec = VectorShape<D, S>::kVec;
  ST_CHECK(args.plan.vec == kVec, ST_ERROR_INTERNAL, "vectorized copy planned with %d elements per vector, the kernel moves %d",
           args.plan.vec, kVec);
  launch_kernel(convert_vectorized_kernel<D, S>, vectorized_shape(args), kCopyThreads, "convert_vectorized_kernel",
                args, stream);
}

template <typename D, typename S>
void launch_strided(const StridedCopyArgs& args, cudaStream_t stream) {
  launch_kernel(copy_strided_kernel<D, S>, strided_shape(args.numel), kCopyThreads, "copy_strided_kernel", args,
                stream);
}

template <typename D, typename S>
void launch_scaled(const ScaledCopyArgs& args, cudaStream_t stream) {
  launch_kernel(copy_scaled_kernel<D, S>, strided_shape(args.numel), kCopyThreads, "copy_scaled_kernel", args,
                stream);
}

template <typename D, typename S>
void launch_transpose(const TransposeCopyArgs& args, cudaStream_t stream) {
  launch_kernel(copy_transpose_kernel<D, S>, transpose_shape(args), kTransposeThreads, "copy_transpose_kernel", args,
                stream);
}

}  // namespace cuda
}  // namespace st
