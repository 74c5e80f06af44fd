// Small CPU tensors in one allocation: the StorageImpl, the TensorImpl and
// the data share one ::operator new block, so a tiny tensor costs one
// malloc and one free (glibc serves both from its per-thread cache) instead
// of two object allocations plus an aligned one (which takes glibc's slow
// path).
//
// Layout: [StorageImpl][TensorImpl][padding][data, 64-byte aligned as every
// default CPU allocation]. The storage owns the block. The TensorImpl's
// storage reference keeps the block alive, and views of the tensor hold the
// storage as any view does; the block is freed with the last reference to
// the storage, after the TensorImpl inside it has been destroyed (see
// TensorImpl::destroy and StorageImpl::destroy).
#pragma once

#include <cstddef>

#include "core/tensor.h"

namespace st {

// Data sizes served by a block: a 4×4 tensor of any dtype. Larger tensors
// gain nothing measurable from sharing the allocation.
constexpr size_t kTensorBlockMaxBytes = 256;

// Whether empty_cpu puts a tensor of `nbytes` of data in a block: 1 to
// kTensorBlockMaxBytes bytes, and only while the default allocator is in
// use (an installed st_allocator serves every tensor's data).
bool fits_tensor_block(size_t nbytes);

// A fresh, uninitialized CPU tensor with its data in the same block. The
// caller has checked the layout: non-negative sizes and strides spanning
// `nbytes` bytes of `dtype`, and `numel` = checked_numel(sizes, dtype).
// Throws std::bad_alloc when the allocation fails.
Tensor make_tensor_in_block(const DimVector& sizes, const DimVector& strides, ScalarType dtype, int64_t numel,
                            size_t nbytes);

}  // namespace st
