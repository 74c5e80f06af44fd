// The __global__ kernels of the block-scaled formats (include/stride.h,
// st_quantize_blocks, st_dequantize_blocks), for block_scaled.cu, which
// launches them, and for the machine-code probe of the tests
// (tests/cuda/kernel_code_probe.cu): one thread per block
// (cuda/kernels/block_loops.h), and lanes of a warp over whole blocks
// (Note [Warps over whole blocks] in cuda/kernels/block_warp_loops.h), whose
// only device-only code is the shuffles that join a block's amax.
#pragma once

#include <cuda_runtime.h>

#include "core/numeric/block_scaling.h"
#include "cuda/kernels/block_loops.h"
#include "cuda/kernels/block_warp_loops.h"

namespace st {
namespace cuda {

template <BlockFormat F, typename S>
__global__ void __launch_bounds__(kBlockThreads) quantize_blocks_kernel(BlockKernelArgs args) {
  quantize_blocks_thread<F, S>(args, blockIdx.x, threadIdx.x, gridDim.x);
}

template <BlockFormat F, typename D>
__global__ void __launch_bounds__(kBlockThreads) dequantize_blocks_kernel(BlockKernelArgs args) {
  dequantize_blocks_thread<F, D>(args, blockIdx.x, threadIdx.x, gridDim.x);
}

// The amax of the block that lane's piece `a` belongs to: the join of the
// pieces of its kLanes lanes (a block's lanes are kLanes-aligned, so xor
// masks below kLanes stay inside it). Every lane of the warp calls it.
template <int kLanes>
__device__ __forceinline__ blocks::BlockAmax block_amax_of_lanes(blocks::BlockAmax a) {
#pragma unroll
  for (int mask = 1; mask < kLanes; mask <<= 1) {
    blocks::BlockAmax other;
    other.bits = __shfl_xor_sync(0xFFFFFFFFu, static_cast<unsigned long long>(a.bits), mask);
    const int flags = __shfl_xor_sync(0xFFFFFFFFu, (a.nan ? 1 : 0) | (a.inf ? 2 : 0), mask);
    other.nan = (flags & 1) != 0;
    other.inf = (flags & 2) != 0;
    a.merge(other);
  }
  return a;
}

// Runs the rounds of this thread's warp: in each, load(j, block) for the
// block this lane takes in each of the round's kWarpUnroll slots, then
// finish(j, block) for each (block >= args.total: none, in the last slot).
// A warp's slots are the same for all its lanes, so every lane reaches
// every shuffle of `finish`.
template <typename W, typename Load, typename Finish>
__device__ __forceinline__ void warp_rounds(const BlockKernelArgs& args, int lane, const Load& load,
                                            const Finish& finish) {
  const WarpSlots w = warp_slots(W::slots(args), blockIdx.x, threadIdx.x / kWarpLanes, gridDim.x);
  for (uint64_t slot = w.first; slot < w.count; slot += w.step * kWarpUnroll) {
    uint64_t block[kWarpUnroll];
#pragma unroll
    for (int j = 0; j < kWarpUnroll; ++j) {
      block[j] = W::block_of(slot + j * w.step, lane);
      load(j, block[j]);
    }
#pragma unroll
    for (int j = 0; j < kWarpUnroll; ++j) finish(j, block[j]);
  }
}

template <BlockFormat F, typename S>
__global__ void __launch_bounds__(kBlockThreads) quantize_warps_kernel(BlockKernelArgs args) {
  using W = WarpBlocks<F, S>;
  const int lane = static_cast<int>(threadIdx.x % kWarpLanes), piece = W::piece_of(lane);
  typename W::Piece p[kWarpUnroll] = {};
  warp_rounds<W>(
      args, lane,
      [&](int j, uint64_t block) {
        if (block < args.total) p[j] = W::load(args, block, piece);
      },
      [&](int j, uint64_t block) {
        const blocks::BlockAmax amax = block_amax_of_lanes<W::kLanes>(p[j].amax);
        if (block < args.total) W::store(args, block, piece, p[j], amax);
      });
}

template <BlockFormat F, typename D>
__global__ void __launch_bounds__(kBlockThreads) dequantize_warps_kernel(BlockKernelArgs args) {
  using W = WarpBlocks<F, D>;
  const int lane = static_cast<int>(threadIdx.x % kWarpLanes), piece = W::piece_of(lane);
  typename W::Codes c[kWarpUnroll] = {};
  warp_rounds<W>(
      args, lane,
      [&](int j, uint64_t block) {
        if (block < args.total) c[j] = W::load_codes(args, block, piece);
      },
      [&](int j, uint64_t block) {
        if (block < args.total) W::dequantize(args, block, piece, c[j]);
      });
}

}  // namespace cuda
}  // namespace st
