// Fresh CPU tensors: the storage a layout needs, allocated and wrapped.
#pragma once

#include "core/tensor.h"

namespace st {

// Elements a layout with non-negative strides spans: 1 + Σ (size − 1) × stride,
// or 0 when a size is 0. Throws ST_ERROR_OUT_OF_MEMORY when the span in
// bytes of `dtype` overflows int64.
int64_t storage_span(const DimVector& sizes, const DimVector& strides, ScalarType dtype);

// Throws ST_ERROR_INVALID_ARGUMENT unless every size and every stride is >= 0.
void check_empty_layout(const DimVector& sizes, const DimVector& strides);

// The bytes of storage a fresh tensor of this layout needs, after every
// check empty_cpu makes (the layout, then overflow of its span and of its
// element count: zero strides can span little and count too many), for the
// allocators that are not the CPU's (pinned host and device memory).
size_t checked_storage_bytes(const DimVector& sizes, const DimVector& strides, ScalarType dtype);

// An uninitialized CPU tensor; strides must be >= 0 (checked). Every check,
// overflow included, runs before the allocation.
Tensor empty_cpu(const DimVector& sizes, const DimVector& strides, ScalarType dtype);

}  // namespace st
