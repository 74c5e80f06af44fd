// The clone operator (include/stride.h, st_clone).
#pragma once

#include "core/memory_format.h"
#include "core/tensor.h"

namespace st {
namespace ops {

// New storage in `fmt` (PRESERVE keeps a dense source's strides).
Tensor clone(const Tensor& src, MemoryFormat fmt);

}  // namespace ops
}  // namespace st
