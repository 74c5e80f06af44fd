// What each thread of the block-scaled kernels does (include/stride.h,
// st_quantize_blocks, st_dequantize_blocks), as host/device functions of
// (block, thread): one block of elements per thread, by the rule of
// core/numeric/block_scaling.h, the code the CPU's row kernels run. The
// __global__ kernels (block_scaled.cu) only read blockIdx and threadIdx
// and call these; the host tests call them for every (block, thread) of
// the launch over host memory and compare with the CPU
// (tests/cpp/test_cuda_block_emulation.cpp).
#pragma once

#include <cstdint>

#include "core/error.h"
#include "core/macros.h"
#include "core/numeric/block_format.h"
#include "core/numeric/block_scaling.h"
#include "cuda/kernels/copy_loops.h"
#include "cuda/kernels/launch_shape.h"
#include "cuda/kernels/offset_calculator.h"
#include "iter/block_lines.h"

namespace st {
namespace cuda {

constexpr int kBlockThreads = 128;

// A call's lines (iter/block_lines.h) for the device: line l's operand k
// starts at data[k] + lines.get(l)[k] and steps by step[k] along the line.
// 64-bit offsets, so that no call is split.
struct BlockKernelArgs {
  OffsetCalculator<3, uint64_t> lines;
  char* data[3];
  int64_t step[3];
  int64_t n;                // elements per line
  int64_t blocks_per_line;  // of the format's block length
  uint64_t total;           // blocks of every line
  blocks::BlockParams params;
  // Whether consecutive threads take the same block of consecutive lines
  // (where adjacent lines lie closer than a line's adjacent elements: blocks
  // along an outer dim, a transposed view), else consecutive blocks of a line.
  bool lines_first;
};
static_assert(sizeof(BlockKernelArgs) <= kMaxKernelArgBytes, "kernel argument size");

// The arguments of the lines `b` of a non-empty call, blocks of `block` elements.
inline BlockKernelArgs block_kernel_args(const BlockLines& b, int64_t block, const blocks::BlockParams& params) {
  const Geometry& g = b.lines;
  const int64_t* strides[3] = {g.strides[0].data(), g.strides[1].data(), g.strides[2].data()};
  const auto magnitude = [](int64_t v) { return v < 0 ? -v : v; };
  const bool lines_first =
      g.ndim() > 0 && magnitude(g.strides[kBlockElements][0]) < magnitude(b.step[kBlockElements]);
  BlockKernelArgs a{OffsetCalculator<3, uint64_t>(g.ndim(), g.shape.data(), strides), {}, {}, b.n, 0, 0, params,
                    lines_first};
  for (int k = 0; k < 3; ++k) {
    a.data[k] = g.data[k];
    a.step[k] = b.step[k];
  }
  a.blocks_per_line = (b.n + block - 1) / block;
  a.total = static_cast<uint64_t>(b.count()) * static_cast<uint64_t>(a.blocks_per_line);
  return a;
}

// `blocks` blocks of kBlockThreads threads, capped at the grid's limit (the
// kernels stride by the grid over what lies beyond), at least one.
inline LaunchShape block_grid_shape(uint64_t blocks) {
  const uint32_t grid = blocks == 0 ? 1u : blocks > kMaxGridDimX ? kMaxGridDimX : static_cast<uint32_t>(blocks);
  return LaunchShape{{grid, 1, 1}, {kBlockThreads, 1, 1}};
}

// One thread per block of elements.
inline LaunchShape block_kernel_shape(const BlockKernelArgs& a) {
  return block_grid_shape((a.total + kBlockThreads - 1) / kBlockThreads);
}

// Where block b of line `line` lies: its first element, its values' first
// byte, its scale.
struct BlockPlace {
  char* elements;
  char* values;
  char* scale;
};
template <BlockFormat F>
ST_HOST_DEVICE ST_FORCE_INLINE BlockPlace block_place(const BlockKernelArgs& a, uint64_t line, int64_t b) {
  const auto at = a.lines.get(line);
  return BlockPlace{a.data[0] + at[0] + b * BlockTraits<F>::kBlock * a.step[0],
                    a.data[1] + at[1] + b * BlockTraits<F>::kValuesPerBlock * a.step[1],
                    a.data[2] + at[2] + b * a.step[2]};
}

// Calls fn(elements, values, scale, count) for each block of elements the
// thread (block, tid) of a grid of `grid` blocks takes.
template <BlockFormat F, typename Fn>
ST_HOST_DEVICE ST_FORCE_INLINE void for_thread_blocks(const BlockKernelArgs& a, uint32_t block, uint32_t tid,
                                                      uint32_t grid, const Fn& fn) {
  constexpr int64_t kBlock = BlockTraits<F>::kBlock;
  const uint64_t stride = static_cast<uint64_t>(grid) * kBlockThreads;
  const uint64_t bpl = static_cast<uint64_t>(a.blocks_per_line), lines = a.total / bpl;
  for (uint64_t u = static_cast<uint64_t>(block) * kBlockThreads + tid; u < a.total; u += stride) {
    const uint64_t line = a.lines_first ? u % lines : u / bpl;
    const int64_t b = static_cast<int64_t>(a.lines_first ? u / lines : u % bpl);
    const BlockPlace at = block_place<F>(a, line, b);
    const int64_t count = a.n - b * kBlock < kBlock ? a.n - b * kBlock : kBlock;
    fn(at.elements, at.values, at.scale, count);
  }
}

template <BlockFormat F, typename S>
ST_HOST_DEVICE ST_FORCE_INLINE void quantize_blocks_thread(const BlockKernelArgs& a, uint32_t block, uint32_t tid,
                                                           uint32_t grid) {
  for_thread_blocks<F>(a, block, tid, grid, [&](char* elements, char* values, char* scale, int64_t count) {
    blocks::quantize_block<F, S>(elements, a.step[0], count, values, a.step[1], scale, a.params);
  });
}

template <BlockFormat F, typename D>
ST_HOST_DEVICE ST_FORCE_INLINE void dequantize_blocks_thread(const BlockKernelArgs& a, uint32_t block, uint32_t tid,
                                                             uint32_t grid) {
  for_thread_blocks<F>(a, block, tid, grid, [&](char* elements, char* values, char* scale, int64_t count) {
    blocks::dequantize_block<F, D>(elements, a.step[0], count, values, a.step[1], scale, a.params);
  });
}

}  // namespace cuda
}  // namespace st
