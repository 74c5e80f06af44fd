// The CPU kernel of empty_strided (registered for the CPU dispatch key).
#pragma once

#include "core/device.h"
#include "core/tensor.h"
#include "dispatch/dispatch_key_set.h"

namespace st {
namespace cpu {

// Ordinary host memory from the CPU allocator; any other device is
// ST_ERROR_NOT_IMPLEMENTED (pinned memory must come from the CUDA runtime).
Tensor empty_strided_cpu(dispatch::DispatchKeySet, const DimVector& sizes, const DimVector& strides,
                         ScalarType dtype, Device device);

}  // namespace cpu
}  // namespace st
