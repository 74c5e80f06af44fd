// The to operator (include/stride.h, st_to).
#pragma once

#include "core/device.h"
#include "core/memory_format.h"
#include "core/tensor.h"

namespace st {
namespace ops {

// `src` itself when dtype and device match and it is contiguous in `fmt`
// (PRESERVE: always); else a new tensor.
Tensor to(const Tensor& src, ScalarType dtype, Device device, MemoryFormat fmt);

}  // namespace ops
}  // namespace st
