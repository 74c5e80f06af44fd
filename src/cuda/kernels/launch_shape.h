// The launch shapes of the copy and fill kernels, as host code: the
// launches use them (cuda/kernels/copy_kernels.cuh), and the host tests that run
// the kernels' thread bodies walk the same grids (tests/cpp/
// test_cuda_copy_emulation.cpp), so a shape the hardware would refuse
// fails a test on a machine without a GPU.
//
// Note [Launch shapes]
// A launch fails (cudaErrorInvalidConfiguration, or "too many resources
// requested" beyond a kernel's __launch_bounds__) when the grid has more
// than 2^31 - 1 blocks along x or 65535 along y or z, or a block more
// threads than the kernel was compiled for. Every launch checks its shape
// first (check_launch_shape), so such a bug is an ST_ERROR_INTERNAL naming
// the kernel and the shape, on the host as on a GPU.
#pragma once

#include <cstdint>

#include "core/error.h"
#include "cuda/kernels/copy_args.h"
#include "cuda/kernels/copy_loops.h"
#include "cuda/kernels/transpose_plan.h"

namespace st {
namespace cuda {

constexpr uint32_t kMaxGridDimX = 2147483647u;
constexpr uint32_t kMaxGridDimYZ = 65535u;
constexpr uint32_t kMaxBlockThreads = 1024u;
static_assert(kMaxGridYZ <= kMaxGridDimYZ, "the transpose grid stays within the hardware's y and z limits");

struct LaunchShape {
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t threads() const { return block[0] * block[1] * block[2]; }
};

// Throws ST_ERROR_INTERNAL unless every grid and block dim is at least 1,
// the grid within the limits above and the block within `max_threads`
// (the kernel's launch bounds).
// Header-only, as the emulation tests run in builds without CUDA too.
inline void check_launch_shape(const LaunchShape& s, uint32_t max_threads, const char* kernel) {
  const bool grid_ok = s.grid[0] >= 1 && s.grid[1] >= 1 && s.grid[2] >= 1 && s.grid[0] <= kMaxGridDimX &&
                       s.grid[1] <= kMaxGridDimYZ && s.grid[2] <= kMaxGridDimYZ;
  const bool block_ok = s.block[0] >= 1 && s.block[1] >= 1 && s.block[2] >= 1 && s.block[0] <= kMaxBlockThreads &&
                        s.block[1] <= kMaxBlockThreads && s.block[2] <= 64 &&
                        static_cast<uint64_t>(s.block[0]) * s.block[1] * s.block[2] <= max_threads;
  ST_CHECK(grid_ok && block_ok, ST_ERROR_INTERNAL,
           "%s: launch of grid (%u, %u, %u) x block (%u, %u, %u) is outside the limits (grid x <= %u, y and z <= %u, "
           "at most %u threads per block)",
           kernel, s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2], kMaxGridDimX, kMaxGridDimYZ,
           max_threads);
}

// One dimension of blocks of kCopyThreads threads over `work` items,
// `per_block` items per block (at least one block).
inline LaunchShape linear_shape(int64_t work, int64_t per_block) {
  return LaunchShape{{blocks_for(work, per_block), 1, 1}, {kCopyThreads, 1, 1}};
}

inline LaunchShape bytes_shape(const BytesCopyArgs& a) { return linear_shape(a.plan.words, kCopyThreads * kCopyUnroll); }
inline LaunchShape vectorized_shape(const VectorCopyArgs& a) { return linear_shape(a.plan.vectors, kCopyThreads); }
inline LaunchShape strided_shape(uint32_t numel) { return linear_shape(numel, kCopyThreads * kCopyUnroll); }
inline LaunchShape fill_contiguous_shape(const FillContiguousArgs& a) {
  return linear_shape(a.plan.words, kCopyThreads * kCopyUnroll);
}

// (col_tiles, min(row_tiles, kMaxGridYZ), min(batch_tiles, kMaxGridYZ))
// blocks of kTransposeThreads threads; the kernel loops over what lies beyond.
inline LaunchShape transpose_shape(const TransposeCopyArgs& a) {
  return LaunchShape{{a.col_tiles, a.row_tiles < kMaxGridYZ ? a.row_tiles : kMaxGridYZ,
                      a.batch_tiles < kMaxGridYZ ? a.batch_tiles : kMaxGridYZ},
                     {static_cast<uint32_t>(kTransposeThreads), 1, 1}};
}

}  // namespace cuda
}  // namespace st
