// Source data for the cases and a check of the copies they time: a case
// that timed a wrong copy would report nothing worth knowing.
#pragma once

#include <cstdint>
#include <vector>

#include "stride.h"

namespace bench {

// A new contiguous CPU tensor (one reference for the caller).
st_tensor make_tensor(const std::vector<int64_t>& sizes, st_dtype dtype);

// Element i of a contiguous tensor (in memory order) becomes
// (7·i + 3) mod 251: small integers, exact in every dtype the cases use, so
// that any conversion between them is exact.
void fill_pattern(st_tensor t);

// Writes zeros over the whole tensor, so that its pages are faulted in.
void touch(st_tensor t);

// Compares a few hundred elements of `copy` (spread over the whole tensor,
// first and last included) with the same elements of `source`, both read
// through their own sizes and strides and converted to double. Stops the
// program with a message naming `what` on a difference.
void check_copy(st_tensor copy, st_tensor source, const char* what);

struct Layout {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  st_dtype dtype;
  int64_t numel;
  char* data;  // element (0, ..., 0)
};

Layout layout_of(st_tensor t);

}  // namespace bench
