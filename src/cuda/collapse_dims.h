// collapse_dims: the fewest dims that visit a layout's elements in the same
// row-major order, as PyTorch's collapse_dims (ATen/CollapseDims.h).
//
// Dims of size 1 are dropped; dim i merges into the kept dim before it when
// stride[before] == size[i] * stride[i] (the two then walk memory as one).
// An excluded dim is kept as it is, and dims are merged only within the run
// before it and within the run after it, so a kernel can still walk that dim
// on its own. Strides may be negative or zero. Host code.
#pragma once

#include <cstdint>

#include "core/error.h"

namespace st {
namespace cuda {

struct CollapsedDims {
  // The excluded dim's new index; 0 when everything collapsed to a single
  // element; -1 when no dim was excluded.
  int excluded_dim;
  int dims;  // the new number of dims, >= 1
};

// Rewrites sizes[0..dims) and strides[0..dims) in place; both arrays hold at
// least max(dims, 1) entries. excluded_dim is -1 or in [0, dims).
template <typename SizeT, typename StrideT>
CollapsedDims collapse_dims(SizeT* sizes, StrideT* strides, int dims, int excluded_dim = -1) {
  ST_CHECK(dims >= 0 && excluded_dim >= -1 && excluded_dim < dims, ST_ERROR_INTERNAL,
           "collapse_dims: excluded_dim = %d with %d dims", excluded_dim, dims);
  // The merge test in int64; a product that overflows equals no stride.
  auto mergeable = [&](int kept, int next) {
    int64_t product;
    return !__builtin_mul_overflow(static_cast<int64_t>(sizes[next]), static_cast<int64_t>(strides[next]), &product) &&
           static_cast<int64_t>(strides[kept]) == product;
  };
  int stop = excluded_dim == -1 ? dims : excluded_dim;
  int kept = -1;  // the last dim written
  int next = 0;   // the next dim to read
  int new_excluded = -1;
  while (next < dims) {
    // Merge the run [next, stop).
    for (; next < stop; ++next) {
      if (sizes[next] == 1) continue;
      if (kept >= 0 && kept != new_excluded && mergeable(kept, next)) {
        sizes[kept] *= sizes[next];
        strides[kept] = strides[next];
      } else {
        ++kept;
        sizes[kept] = sizes[next];
        strides[kept] = strides[next];
      }
    }
    // Keep the excluded dim whatever its size, and start the run after it.
    if (next < dims) {
      ++kept;
      sizes[kept] = sizes[next];
      strides[kept] = strides[next];
      new_excluded = kept;
      ++next;
      stop = dims;
    }
  }
  if (kept == -1 || (kept == 0 && sizes[0] == 1)) {
    sizes[0] = 1;
    strides[0] = 1;
    return {0, 1};
  }
  return {new_excluded, kept + 1};
}

}  // namespace cuda
}  // namespace st
