#include "core/copy_preconditions.h"

#include "core/dims.h"
#include "core/error.h"

namespace st {

void check_writable(const Tensor& t, const char* name) {
  ST_CHECK(!t.storage()->read_only(), ST_ERROR_READ_ONLY, "%s views memory its producer marked read-only", name);
}

void check_broadcastable_to(const DimVector& src_sizes, const DimVector& dst_sizes) {
  if (src_sizes == dst_sizes) return;
  const int ns = src_sizes.size(), nd = dst_sizes.size();
  ST_CHECK(ns <= nd, ST_ERROR_SHAPE_MISMATCH,
           "src of sizes %s has more dims than dst of sizes %s; src broadcasts to dst, never the reverse",
           format_dims(src_sizes).c_str(), format_dims(dst_sizes).c_str());
  for (int i = 0; i < ns; ++i) {
    const int64_t s = src_sizes[ns - 1 - i], d = dst_sizes[nd - 1 - i];
    ST_CHECK(s == d || s == 1, ST_ERROR_SHAPE_MISMATCH,
             "src of sizes %s cannot be broadcast to dst of sizes %s: dim %d of src has size %lld, dst %lld",
             format_dims(src_sizes).c_str(), format_dims(dst_sizes).c_str(), ns - 1 - i, static_cast<long long>(s),
             static_cast<long long>(d));
  }
}

void check_fill(const Tensor& dst) {
  ST_CHECK(!is_packed(dst.dtype()), ST_ERROR_UNSUPPORTED_DTYPE,
           "dst has dtype %s, which holds two values an element: nothing converts to it",
           dtype_name(static_cast<int32_t>(dst.dtype())));
  check_writable(dst, "dst");
}

void check_converts(ScalarType dst, ScalarType src) {
  ST_CHECK(converts(dst, src), ST_ERROR_UNSUPPORTED_DTYPE,
           "no conversion from %s to %s: float4_e2m1fn_x2 copies only to itself",
           dtype_name(static_cast<int32_t>(src)), dtype_name(static_cast<int32_t>(dst)));
}

void check_copy_layouts(const Tensor& dst, const Tensor& src) {
  check_converts(dst.dtype(), src.dtype());
  check_writable(dst, "dst");
  check_broadcastable_to(src.sizes(), dst.sizes());
  if (!dst.is_non_overlapping_and_dense()) assert_no_internal_overlap(dst, "dst");
}

CopyAction check_copy(const Tensor& dst, const Tensor& src, bool transforms) {
  check_copy_layouts(dst, src);
  if (dst.numel() == 0) return CopyAction::Nothing;
  switch (get_overlap_status(dst, src)) {
    case OverlapStatus::Full:
      return transforms ? CopyAction::Direct : CopyAction::Nothing;
    case OverlapStatus::Partial:
      return CopyAction::ViaTemporary;
    case OverlapStatus::No:
      break;
  }
  return CopyAction::Direct;
}

}  // namespace st
