#include "core/tensor_impl.h"

#include "core/contiguity.h"
#include "core/dims.h"
#include "core/error.h"
#include "core/extent.h"
#include "core/macros.h"
#include "core/overflow.h"

namespace st {

int64_t checked_numel(const DimVector& sizes, ScalarType dtype) {
  if (has_zero_size(sizes)) return 0;  // whatever the other sizes, as their product could overflow
  int64_t numel = 1, bytes;
  for (int64_t s : sizes) {
    ST_CHECK(!mul_overflows(numel, s, &numel), ST_ERROR_OUT_OF_MEMORY, "sizes %s hold more elements than int64 counts",
             format_dims(sizes).c_str());
  }
  ST_CHECK(!mul_overflows(numel, static_cast<int64_t>(itemsize(dtype)), &bytes), ST_ERROR_OUT_OF_MEMORY,
           "%lld elements of %s overflow int64 bytes", static_cast<long long>(numel),
           dtype_name(static_cast<int32_t>(dtype)));
  return numel;
}

TensorImpl::TensorImpl(Storage storage, const DimVector& sizes, const DimVector& strides, int64_t storage_offset,
                       ScalarType dtype)
    : storage_(std::move(storage)),
      storage_offset_(storage_offset),
      numel_(checked_numel(sizes, dtype)),
      data_(nullptr),
      device_(storage_->device()),
      dtype_(dtype),
      sizes_(sizes),
      strides_(strides) {
  if (storage_->base()) data_ = static_cast<char*>(storage_->base()) + storage_offset_ * static_cast<int64_t>(itemsize());
  compute_layout_flags();
}

TensorImpl::TensorImpl(InBlock, Storage storage, const DimVector& sizes, const DimVector& strides, ScalarType dtype,
                       int64_t numel)
    : storage_(std::move(storage)),
      storage_offset_(0),
      numel_(numel),
      data_(storage_->base()),
      device_(storage_->device()),
      dtype_(dtype),
      in_block_(true),
      sizes_(sizes),
      strides_(strides) {
  compute_layout_flags();
}

void TensorImpl::compute_layout_flags() {
  contiguous_ = compute_contiguous(sizes_, strides_, numel_);
  // Only 4-d and 5-d tensors can be channels-last; the test saves two calls.
  channels_last_ = sizes_.size() == 4 && compute_channels_last_2d(sizes_, strides_);
  channels_last_3d_ = sizes_.size() == 5 && compute_channels_last_3d(sizes_, strides_);
  non_overlapping_and_dense_ = contiguous_ || compute_non_overlapping_and_dense(sizes_, strides_);
  // A contiguous tensor reaches elements 0 to numel - 1, and its numel fits.
  Extent e{0, numel_ - 1};
  extent_known_ = numel_ > 0 && (contiguous_ || compute_extent(sizes_, strides_, &e));
  extent_lo_ = extent_known_ ? e.lo : 0;
  extent_hi_ = extent_known_ ? e.hi : 0;
}

}  // namespace st
