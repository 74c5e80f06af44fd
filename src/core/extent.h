// The element range a strided layout touches, relative to element (0, …, 0):
// [lo, hi] with lo <= 0 <= hi (negative strides reach below element 0).
// Used to bound views against their storage and to size allocations; in
// bytes, by the overlap checks and the copy plans.
#pragma once

#include <cstdint>

#include "core/dim_vector.h"
#include "core/macros.h"
#include "core/overflow.h"

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
    if (mul_overflows(sizes[d] - 1, strides[d], &reach)) return false;
    if (reach < 0) {
      if (add_overflows(e.lo, reach, &e.lo)) return false;
    } else {
      if (add_overflows(e.hi, reach, &e.hi)) return false;
    }
  }
  *out = e;
  return true;
}

// Elements from the lowest to the highest reached, hi - lo + 1; false when
// that count overflows int64 (each end can fit while their distance does not).
inline bool extent_elements(const Extent& e, int64_t* out) {
  int64_t distance;
  return !sub_overflows(e.hi, e.lo, &distance) && !add_overflows(distance, 1, out);
}

// The bytes of the elements [e.lo, e.hi], `itemsize` bytes each, relative
// to the first byte of element (0, …, 0): [lo·itemsize, hi·itemsize +
// itemsize − 1]. False when an end overflows int64.
inline bool byte_extent(const Extent& e, int64_t itemsize, Extent* out) {
  Extent bytes;
  if (mul_overflows(e.lo, itemsize, &bytes.lo) || mul_overflows(e.hi, itemsize, &bytes.hi) ||
      add_overflows(bytes.hi, itemsize - 1, &bytes.hi)) {
    return false;
  }
  *out = bytes;
  return true;
}

// The addresses of the first and last bytes of a byte_extent() whose
// element (0, …, 0) is at `base`. Unsigned arithmetic: the addresses are
// inside memory the caller vouches for, and wrapping (were they not) is
// defined rather than undefined.
inline void byte_addresses(const Extent& bytes, const void* base, uintptr_t* first, uintptr_t* last) {
  const uintptr_t at = reinterpret_cast<uintptr_t>(base);
  *first = at + static_cast<uintptr_t>(bytes.lo);
  *last = at + static_cast<uintptr_t>(bytes.hi);
}

inline bool has_zero_size(const DimVector& sizes) {
  for (int64_t s : sizes)
    if (s == 0) return true;
  return false;
}

}  // namespace st
