// Tensor: a cheap, copyable reference to an immutable TensorImpl. This is
// what every internal layer passes around; the C boundary maps handles to it.
#pragma once

#include "core/tensor_impl.h"

namespace st {

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(IntrusivePtr<TensorImpl> impl) : impl_(std::move(impl)) {}

  static Tensor make(Storage storage, const DimVector& sizes, const DimVector& strides, int64_t storage_offset,
                     ScalarType dtype) {
    return Tensor(IntrusivePtr<TensorImpl>::make(std::move(storage), sizes, strides, storage_offset, dtype));
  }

  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* impl() const { return impl_.get(); }

  int ndim() const { return impl_->ndim(); }
  const DimVector& sizes() const { return impl_->sizes(); }
  const DimVector& strides() const { return impl_->strides(); }
  int64_t size(int d) const { return impl_->size(d); }
  int64_t stride(int d) const { return impl_->stride(d); }
  int64_t storage_offset() const { return impl_->storage_offset(); }
  int64_t numel() const { return impl_->numel(); }
  ScalarType dtype() const { return impl_->dtype(); }
  size_t itemsize() const { return impl_->itemsize(); }
  int64_t nbytes() const { return impl_->nbytes(); }
  Device device() const { return impl_->device(); }
  const Storage& storage() const { return impl_->storage(); }
  void* data() const { return impl_->data(); }
  bool is_contiguous(MemoryFormat fmt = MemoryFormat::Contiguous) const { return impl_->is_contiguous(fmt); }
  bool is_non_overlapping_and_dense() const { return impl_->is_non_overlapping_and_dense(); }

  bool is_same(const Tensor& other) const { return impl_.get() == other.impl_.get(); }

 private:
  IntrusivePtr<TensorImpl> impl_;
};

}  // namespace st
