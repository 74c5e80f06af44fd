// The CPU kernel of empty_strided (registered for the CPU dispatch key).
#pragma once

#include "core/device.h"
#include "core/tensor.h"
#include "dispatch/dispatch_key_set.h"

namespace st {
namespace cpu {

// Ordinary host memory from the CPU allocator, or pinned host memory from
// the CUDA runtime; any other device is ST_ERROR_NOT_IMPLEMENTED.
Tensor empty_strided_cpu(dispatch::DispatchKeySet, const DimVector& sizes, const DimVector& strides,
                         ScalarType dtype, Device device);

}  // namespace cpu
}  // namespace st
