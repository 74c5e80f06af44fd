// Row-wise work over a normalized geometry (copy_geometry.h): dim 0 is a
// row, dim 1 steps between rows, the other dims are walked here. Tasks are
// rows, so one call may get rows from several outer steps, each run of
// consecutive rows in one call.
#pragma once

#include <cstdint>

#include "cpu/copy_geometry.h"
#include "cpu/kernel_parallel.h"

namespace st {
namespace cpu {

// fn(dst, src, m): m rows starting at dst / src, stepping by dim 1's
// strides (0 when ndim < 2). row_bytes: bytes each row moves (for the
// thread grain).
using RowsFn = FunctionRef<void(char* dst, const char* src, int64_t m)>;
void run_row_tasks(const CopyGeometry& g, int64_t row_bytes, RowsFn fn);

}  // namespace cpu
}  // namespace st
