#include "core/overlap.h"

#include <cstdint>

#include "core/dims.h"
#include "core/error.h"
#include "core/extent.h"
#include "core/macros.h"
#include "core/overflow.h"

namespace st {
namespace {

uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

uint64_t saturating_add(uint64_t a, uint64_t b) {
  uint64_t r;
  return add_overflows(a, b, &r) ? UINT64_MAX : r;
}

uint64_t saturating_mul(uint64_t a, uint64_t b) {
  uint64_t r;
  return mul_overflows(a, b, &r) ? UINT64_MAX : r;
}

// [first, last] byte addresses a non-empty tensor touches; false when its
// extent overflows (the caller then assumes the worst).
bool byte_range(const Tensor& t, uintptr_t* first, uintptr_t* last) {
  Extent bytes;
  if (!t.impl()->byte_extent(&bytes)) return false;
  byte_addresses(bytes, t.data(), first, last);
  return true;
}

bool same_elements_in_same_order(const Tensor& a, const Tensor& b) {
  if (a.data() != b.data() || a.dtype() != b.dtype() || a.sizes() != b.sizes()) return false;
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.size(d) > 1 && a.stride(d) != b.stride(d)) return false;
  }
  return true;
}

}  // namespace

bool is_non_overlapping(const DimVector& sizes, const DimVector& strides) {
  InlineVector<int> dims;
  for (int d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 0) return true;
    if (sizes[d] > 1) dims.push_back(d);
  }
  // Insertion sort by |stride|: at most ST_MAX_DIMS entries.
  for (int i = 1; i < dims.size(); ++i) {
    for (int j = i; j > 0 && magnitude(strides[dims[j]]) < magnitude(strides[dims[j - 1]]); --j) {
      int t = dims[j];
      dims[j] = dims[j - 1];
      dims[j - 1] = t;
    }
  }
  // A saturated span exceeds every representable stride, which is exactly
  // right: no later dim can clear it.
  uint64_t span = 0;
  for (int d : dims) {
    const uint64_t stride = magnitude(strides[d]);
    if (stride <= span) return false;
    span = saturating_add(span, saturating_mul(static_cast<uint64_t>(sizes[d] - 1), stride));
  }
  return true;
}

bool is_non_overlapping(const Tensor& t) {
  if (t.is_non_overlapping_and_dense()) return true;
  return is_non_overlapping(t.sizes(), t.strides());
}

void assert_no_internal_overlap(const Tensor& t, const char* what) {
  ST_CHECK(is_non_overlapping(t), ST_ERROR_OVERLAP,
           "%s of sizes %s and strides %s is not provably free of self-overlap (some of its elements may share "
           "memory, as in an expanded view), so it cannot be written",
           what, format_dims(t.sizes()).c_str(), format_dims(t.strides()).c_str());
}

OverlapStatus get_overlap_status(const Tensor& a, const Tensor& b) {
  if (a.numel() == 0 || b.numel() == 0) return OverlapStatus::No;
  const StorageImpl* sa = a.storage().get();
  const StorageImpl* sb = b.storage().get();
  // Two allocations never share memory; only wrapped memory can be wrapped twice.
  if (sa != sb && !sa->borrowed() && !sb->borrowed()) return OverlapStatus::No;
  if (a.is_same(b) || same_elements_in_same_order(a, b)) return OverlapStatus::Full;
  uintptr_t a_first, a_last, b_first, b_last;
  if (!byte_range(a, &a_first, &a_last) || !byte_range(b, &b_first, &b_last)) return OverlapStatus::Partial;
  return a_first <= b_last && b_first <= a_last ? OverlapStatus::Partial : OverlapStatus::No;
}

void assert_no_partial_overlap(const Tensor& out, const Tensor& in, const char* out_name, const char* in_name) {
  ST_CHECK(get_overlap_status(out, in) != OverlapStatus::Partial, ST_ERROR_OVERLAP,
           "%s (sizes %s, strides %s) and %s (sizes %s, strides %s) share memory without being the same "
           "elements; copy %s first",
           out_name, format_dims(out.sizes()).c_str(), format_dims(out.strides()).c_str(), in_name,
           format_dims(in.sizes()).c_str(), format_dims(in.strides()).c_str(), in_name);
}

}  // namespace st
