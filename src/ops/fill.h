// The fill_ operator (include/stride.h, st_fill).
#pragma once

#include "core/tensor.h"

namespace st {
namespace ops {

// Every element of dst becomes `value` converted to dst's dtype.
void fill_(const Tensor& dst, double value);

}  // namespace ops
}  // namespace st
