// Whether a layout can be indexed with 32-bit arithmetic, as PyTorch's
// canUse32BitIndexMath: every linear index and every offset (in the units of
// the strides: elements or bytes) must fit in int32. Kernels then index with
// uint32 and IntDivider's fast path.
#pragma once

#include <cstdint>

#include "core/checked_math.h"

namespace st {
namespace cuda {

// True when numel <= INT32_MAX and every offset the layout reaches lies in
// [INT32_MIN, INT32_MAX]. Strides may be negative or zero.
inline bool fits_32bit_indexing(const int64_t* sizes, const int64_t* strides, int ndim) {
  for (int d = 0; d < ndim; ++d)
    if (sizes[d] == 0) return true;  // nothing to index
  int64_t numel = 1, lo = 0, hi = 0;
  for (int d = 0; d < ndim; ++d) {
    int64_t reach;
    if (!checked_mul(numel, sizes[d], &numel) || !checked_mul(sizes[d] - 1, strides[d], &reach)) return false;
    if (!checked_add(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi)) return false;
  }
  return numel <= INT32_MAX && lo >= INT32_MIN && hi <= INT32_MAX;
}

}  // namespace cuda
}  // namespace st
