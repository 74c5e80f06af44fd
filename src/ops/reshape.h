// reshape (include/stride.h, st_reshape): a composite, not an operator.
#pragma once

#include "core/tensor.h"

namespace st {
namespace ops {

// A view when st_view allows it, else a contiguous copy viewed as `sizes`.
Tensor reshape(const Tensor& src, const DimVector& sizes);

}  // namespace ops
}  // namespace st
