// Factory operators: uninitialized tensors on any device.
#pragma once

#include "core/device.h"
#include "core/memory_format.h"
#include "core/tensor.h"

namespace st {
namespace ops {

// Strides must be >= 0; the storage is the span they need.
Tensor empty_strided(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device);
Tensor empty(const DimVector& sizes, ScalarType dtype, Device device);
// The strides `empty_like(src, fmt)` gives (see st_clone's PRESERVE rule).
DimVector strides_like(const Tensor& src, MemoryFormat fmt);
Tensor empty_like(const Tensor& src, MemoryFormat fmt);

}  // namespace ops
}  // namespace st
