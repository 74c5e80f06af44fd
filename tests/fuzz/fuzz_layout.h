// The layout half of the fuzz target's reference model: sizes, strides and
// offsets as include/stride.h and PyTorch define them, computed here without
// the library, with int64 overflow checked everywhere (the fuzzer feeds huge
// values on purpose).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "stride.h"

namespace fuzz {

struct Layout {
  int ndim = 0;
  int64_t sizes[ST_MAX_DIMS] = {};
  int64_t strides[ST_MAX_DIMS] = {};
  int64_t offset = 0;
  st_dtype dtype = ST_FLOAT32;
};

inline bool mul_ok(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }
inline bool add_ok(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }

// The number of elements; false when it overflows int64 (an empty tensor
// never overflows: a zero size anywhere makes it 0).
inline bool numel_of(const int64_t* sizes, int ndim, int64_t* out) {
  for (int d = 0; d < ndim; ++d) {
    if (sizes[d] == 0) {
      *out = 0;
      return true;
    }
  }
  int64_t n = 1;
  for (int d = 0; d < ndim; ++d) {
    if (!mul_ok(n, sizes[d], &n)) return false;
  }
  *out = n;
  return true;
}

inline int64_t numel(const Layout& l) {
  int64_t n = 0;
  return numel_of(l.sizes, l.ndim, &n) ? n : INT64_MAX;
}

// Lowest and highest element reached, relative to element (0, ..., 0), for
// a tensor with elements; false on overflow.
inline bool extent(const int64_t* sizes, const int64_t* strides, int ndim, int64_t* lo, int64_t* hi) {
  *lo = 0;
  *hi = 0;
  for (int d = 0; d < ndim; ++d) {
    int64_t step;
    if (!mul_ok(sizes[d] - 1, strides[d], &step)) return false;
    if (!add_ok(step < 0 ? *lo : *hi, step, step < 0 ? lo : hi)) return false;
  }
  return true;
}

inline bool has_zero_size(const int64_t* sizes, int ndim) {
  for (int d = 0; d < ndim; ++d) {
    if (sizes[d] == 0) return true;
  }
  return false;
}

// Strides that make `order` (fastest dim first) dense, each the product of
// the faster sizes (a size-0 dim counting as 1 when `zero_as_one`). A stride
// that overflows int64 is 0 in an empty tensor, which it addresses nothing
// of; in any other, false.
inline bool strides_in_order(const int64_t* sizes, const int* order, int ndim, bool zero_as_one, int64_t* out) {
  int64_t s = 1;
  bool overflow = false;
  for (int i = 0; i < ndim; ++i) {
    if (overflow && !has_zero_size(sizes, ndim)) return false;
    out[order[i]] = overflow ? 0 : s;
    const int64_t size = zero_as_one ? std::max<int64_t>(sizes[order[i]], 1) : sizes[order[i]];
    overflow = overflow || !mul_ok(s, size, &s);
  }
  return true;
}

// Row-major strides; a size-0 dim counts as 1 (as PyTorch).
inline bool contiguous_strides(const int64_t* sizes, int ndim, int64_t* out) {
  int order[ST_MAX_DIMS];
  for (int i = 0; i < ndim; ++i) order[i] = ndim - 1 - i;
  return strides_in_order(sizes, order, ndim, true, out);
}

inline bool channels_last_strides(const int64_t* sizes, int ndim, int64_t* out) {
  static const int order4[4] = {1, 3, 2, 0};
  static const int order5[5] = {1, 4, 3, 2, 0};
  // From the sizes as they are (as PyTorch): a size-0 dim zeroes slower strides.
  return strides_in_order(sizes, ndim == 4 ? order4 : order5, ndim, false, out);
}

// Dims of size 1 decide nothing; an empty tensor is contiguous.
inline bool is_contiguous(const Layout& l) {
  if (numel(l) == 0) return true;
  int64_t expected = 1;
  for (int d = l.ndim - 1; d >= 0; --d) {
    if (l.sizes[d] == 1) continue;
    if (l.strides[d] != expected) return false;
    if (!mul_ok(expected, l.sizes[d], &expected)) return false;
  }
  return true;
}

// The channels-last rules test strides even for an empty tensor (as PyTorch).
inline bool is_channels_last(const Layout& l, int ndim_wanted) {
  if (l.ndim != ndim_wanted) return false;
  int64_t expected[ST_MAX_DIMS];
  if (!channels_last_strides(l.sizes, ndim_wanted, expected)) return false;
  for (int d = 0; d < ndim_wanted; ++d) {
    if (l.sizes[d] != 1 && l.strides[d] != expected[d]) return false;
  }
  return true;
}

// Some permutation of the dims is contiguous (PyTorch's
// compute_non_overlapping_and_dense): dims of size < 2 are ignored.
inline bool is_non_overlapping_and_dense(const Layout& l) {
  std::vector<int> dims;
  for (int d = 0; d < l.ndim; ++d) {
    if (l.sizes[d] == 0) return true;
    if (l.sizes[d] >= 2) dims.push_back(d);
  }
  std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) { return l.strides[a] < l.strides[b]; });
  int64_t required = 1;
  for (int d : dims) {
    if (l.strides[d] != required) return false;
    if (!mul_ok(required, l.sizes[d], &required)) return false;
  }
  return true;
}

// include/stride.h's rule for a destination: its dims of size > 1, sorted by
// |stride|, each step past the span of the ones before it.
inline bool has_internal_overlap(const Layout& l) {
  std::vector<int> dims;
  for (int d = 0; d < l.ndim; ++d) {
    if (l.sizes[d] > 1) dims.push_back(d);
  }
  auto mag = [&](int d) {
    return l.strides[d] < 0 ? -static_cast<unsigned long long>(l.strides[d])
                            : static_cast<unsigned long long>(l.strides[d]);
  };
  std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) { return mag(a) < mag(b); });
  unsigned long long span = 0;  // saturates: past 2^64 every later dim overlaps anyway
  for (int d : dims) {
    if (mag(d) <= span) return true;
    unsigned long long step;
    if (__builtin_mul_overflow(static_cast<unsigned long long>(l.sizes[d] - 1), mag(d), &step) ||
        __builtin_add_overflow(span, step, &span)) {
      span = ~0ull;
    }
  }
  return false;
}

// Calls f(linear index, element offset from the storage start) for every
// element in row-major order. Only for tensors the fuzzer checks (< 4096
// elements), whose offsets were checked against their storage. The offset
// follows the index step by step: one addition per element, not a sum
// over the dims.
template <typename F>
inline void for_each_element(const Layout& l, F&& f) {
  const int64_t n = numel(l);
  if (n == 0) return;
  int64_t index[ST_MAX_DIMS] = {};
  int64_t at = l.offset;
  for (int64_t i = 0; i < n; ++i) {
    f(i, at);
    for (int d = l.ndim - 1; d >= 0; --d) {
      if (++index[d] < l.sizes[d]) {
        at += l.strides[d];
        break;
      }
      at -= l.strides[d] * (l.sizes[d] - 1);  // back to index 0: a span inside the storage
      index[d] = 0;
    }
  }
}

// for_each_element over `dst`, with the row-major linear index into `src`
// that broadcasting `src` to `dst`'s shape reads: f(i, dst offset, src index).
template <typename F>
inline void for_each_broadcast(const Layout& dst, const Layout& src, F&& f) {
  const int64_t n = numel(dst);
  if (n == 0) return;  // else every size of src is 1 or dst's, so the products below stay below numel(src)
  int64_t step[ST_MAX_DIMS] = {};  // what one step along each dst dim adds to the src index
  int64_t row = 1;
  for (int sd = src.ndim - 1; sd >= 0; --sd) {
    const int d = sd + (dst.ndim - src.ndim);
    step[d] = src.sizes[sd] == 1 ? 0 : row;
    row *= src.sizes[sd];
  }
  int64_t index[ST_MAX_DIMS] = {};
  int64_t at = dst.offset, from = 0;
  for (int64_t i = 0; i < n; ++i) {
    f(i, at, from);
    for (int d = dst.ndim - 1; d >= 0; --d) {
      if (++index[d] < dst.sizes[d]) {
        at += dst.strides[d];
        from += step[d];
        break;
      }
      at -= dst.strides[d] * (dst.sizes[d] - 1);
      from -= step[d] * (dst.sizes[d] - 1);
      index[d] = 0;
    }
  }
}

inline bool broadcasts_to(const Layout& src, const Layout& dst) {
  if (src.ndim > dst.ndim) return false;
  for (int sd = 0; sd < src.ndim; ++sd) {
    const int d = sd + (dst.ndim - src.ndim);
    if (src.sizes[sd] != 1 && src.sizes[sd] != dst.sizes[d]) return false;
  }
  return true;
}

}  // namespace fuzz
