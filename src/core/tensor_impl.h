// TensorImpl: the immutable description of one tensor — a view of a storage.
//
// Sizes, strides (in elements, any sign), storage offset, dtype and device
// never change after construction; the layout flags are computed once here,
// so queries and the copy fast paths read a bool. Any thread may read a
// TensorImpl without a lock.
#pragma once

#include <cstdint>

#include "core/dim_vector.h"
#include "core/extent.h"
#include "core/memory_format.h"
#include "core/numeric/dtype.h"
#include "core/storage.h"

namespace st {

// The number of elements of `sizes` (0 when any size is 0). Throws
// ST_ERROR_OUT_OF_MEMORY when it, or its byte count in `dtype`, overflows int64.
int64_t checked_numel(const DimVector& sizes, ScalarType dtype);

class TensorImpl final : public RefCounted {
 public:
  // Trusts its arguments to describe elements inside `storage` (views check
  // that before they get here). Throws ST_ERROR_OUT_OF_MEMORY when
  // numel × itemsize overflows int64.
  TensorImpl(Storage storage, const DimVector& sizes, const DimVector& strides, int64_t storage_offset,
             ScalarType dtype);
  // The same, for a TensorImpl placed inside the block its storage owns
  // (core/tensor_block.h), at storage offset 0; `numel` is
  // checked_numel(sizes, dtype), which the caller has computed already.
  struct InBlock {};
  TensorImpl(InBlock, Storage storage, const DimVector& sizes, const DimVector& strides, ScalarType dtype,
             int64_t numel);
  // How IntrusivePtr destroys a TensorImpl: one in a block ends before its
  // storage reference lets the block go.
  static void destroy(TensorImpl* t) {
    if (!t->in_block_) {
      delete t;
      return;
    }
    Storage block_owner = std::move(t->storage_);
    t->~TensorImpl();
  }

  int ndim() const { return sizes_.size(); }
  const DimVector& sizes() const { return sizes_; }
  const DimVector& strides() const { return strides_; }
  int64_t size(int d) const { return sizes_[d]; }
  int64_t stride(int d) const { return strides_[d]; }
  int64_t storage_offset() const { return storage_offset_; }
  int64_t numel() const { return numel_; }
  ScalarType dtype() const { return dtype_; }
  size_t itemsize() const { return st::itemsize(dtype_); }
  int64_t nbytes() const { return numel_ * static_cast<int64_t>(itemsize()); }
  Device device() const { return device_; }
  const Storage& storage() const { return storage_; }
  // Address of element (0, …, 0); NULL only for a tensor over an empty storage.
  void* data() const { return data_; }

  bool is_contiguous() const { return contiguous_; }
  bool is_non_overlapping_and_dense() const { return non_overlapping_and_dense_; }
  // PRESERVE asks for non-overlapping and dense.
  bool is_contiguous(MemoryFormat fmt) const {
    switch (fmt) {
      case MemoryFormat::Contiguous:
        return contiguous_;
      case MemoryFormat::ChannelsLast:
        return channels_last_;
      case MemoryFormat::ChannelsLast3d:
        return channels_last_3d_;
      case MemoryFormat::Preserve:
        return non_overlapping_and_dense_;
    }
    return false;
  }

  // The bytes this tensor reaches, relative to the first byte of element
  // (0, …, 0) (core/extent.h's byte_extent); false when their offsets
  // overflow int64 or the tensor has no element. For the overlap checks;
  // the element extent behind it is computed once, at construction.
  bool byte_extent(Extent* out) const {
    return extent_known_ && st::byte_extent(Extent{extent_lo_, extent_hi_}, static_cast<int64_t>(itemsize()), out);
  }

 private:
  void compute_layout_flags();

  // The fields every call reads come first, in one cache line. The
  // storage's device is kept here too: dispatch reads it on every call.
  Storage storage_;
  int64_t storage_offset_;
  int64_t numel_;
  void* data_;
  Device device_;
  ScalarType dtype_;
  bool contiguous_;
  bool channels_last_;
  bool channels_last_3d_;
  bool non_overlapping_and_dense_;
  bool in_block_ = false;
  bool extent_known_;
  int64_t extent_lo_;
  int64_t extent_hi_;
  DimVector sizes_;
  DimVector strides_;
};

}  // namespace st
