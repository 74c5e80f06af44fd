// The element range a strided layout touches, relative to element (0, …, 0):
// [lo, hi] with lo <= 0 <= hi (negative strides reach below element 0).
// Used to bound views against their storage and to size allocations.
#pragma once

#include "core/checked_math.h"
#include "core/dim_vector.h"

namespace st {

struct Extent {
  int64_t lo = 0;
  int64_t hi = 0;
};

// False when some partial sum overflows int64. Meaningless (and not
// needed) for layouts without elements.
inline bool compute_extent(const DimVector& sizes, const DimVector& strides, Extent* out) {
  Extent e;
  for (int d = 0; d < sizes.size(); ++d) {
    if (sizes[d] <= 1) continue;
    int64_t reach;
    if (!checked_mul(sizes[d] - 1, strides[d], &reach)) return false;
    if (reach < 0) {
      if (!checked_add(e.lo, reach, &e.lo)) return false;
    } else {
      if (!checked_add(e.hi, reach, &e.hi)) return false;
    }
  }
  *out = e;
  return true;
}

// Elements from the lowest to the highest reached, hi - lo + 1; false when
// that count overflows int64 (each end can fit while their distance does not).
inline bool extent_elements(const Extent& e, int64_t* out) {
  int64_t distance;
  return checked_sub(e.hi, e.lo, &distance) && checked_add(distance, 1, out);
}

inline bool has_zero_size(const DimVector& sizes) {
  for (int64_t s : sizes)
    if (s == 0) return true;
  return false;
}

}  // namespace st
