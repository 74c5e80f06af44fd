#include "cuda/launch_shape.h"

#include "core/error.h"

namespace st {
namespace cuda {

void check_launch_shape(const LaunchShape& s, uint32_t max_threads, const char* kernel) {
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

}  // namespace cuda
}  // namespace st
