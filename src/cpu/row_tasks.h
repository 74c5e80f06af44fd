// Row-wise work over a canonical geometry (iter/geometry.h): dim 0 is a
// row, dim 1 steps between rows, the other dims are walked here. Tasks are
// rows, so one call may get rows from several outer steps, each run of
// consecutive rows in one call; rows longer than a task's worth are cut
// into pieces (a multiple of 64 elements each), one task per piece.
#pragma once

#include <cstdint>

#include "cpu/kernel_parallel.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

// fn(dst, src, n, m): m rows of n elements starting at dst / src, rows
// stepping by dim 1's strides (m == 1 for a piece of a long row), elements
// by dim 0's. element_bytes: bytes moved per element (read + written), for
// the task sizes.
using RowsFn = FunctionRef<void(char* dst, const char* src, int64_t n, int64_t m)>;
void run_row_tasks(const Geometry& g, int64_t element_bytes, RowsFn fn);

// The same, each task range with `scratch_bytes` of working memory of its
// own, allocated before any row is written (run_tasks_with_scratch).
using ScratchRowsFn = FunctionRef<void(char* dst, const char* src, int64_t n, int64_t m, char* scratch)>;
void run_row_tasks(const Geometry& g, int64_t element_bytes, int64_t scratch_bytes, ScratchRowsFn fn);

}  // namespace cpu
}  // namespace st
