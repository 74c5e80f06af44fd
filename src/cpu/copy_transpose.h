// The blocked-transpose driver of copy_same_dtype: for a canonical
// geometry whose dst is contiguous along dim 0 and src along dim k > 0.
#pragma once

#include <cstdint>

#include "cpu/levels/copy_kernel_table.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

// The dim (> 0) along which src moves by exactly one element (either
// direction), or -1.
int find_src_unit_dim(const Geometry& g, int64_t itemsize);

// Transposes dims 0 and k in register tiles, the remaining dims looped
// outside, the work spread over threads. `stream`: the output is large
// enough for non-temporal stores; a dst whose base alone is off a 64-byte
// line gets its first elements of each row in a pass of their own so that
// the rest can stream.
void copy_transposed(const Geometry& g, int k, int64_t itemsize, bool stream, const CopyKernelTable& kernels);

}  // namespace cpu
}  // namespace st
