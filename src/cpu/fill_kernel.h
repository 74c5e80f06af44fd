// The CPU kernel behind fill_: every element of dst (host memory) becomes
// `value` converted to dst's dtype by the conversion rules.
#pragma once

#include "core/tensor.h"

namespace st {
namespace cpu {

// dst may overlap itself (an expanded view): each address is written once.
void fill_kernel(const Tensor& dst, double value);

}  // namespace cpu
}  // namespace st
