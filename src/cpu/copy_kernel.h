// The CPU copy kernel behind copy_: dst ← src over a built TensorIterator
// (operand 0 is dst, operand 1 is src), any of the 289 dtype pairs, both
// operands in host memory, no harmful overlap (the copy front saw to it).
#pragma once

#include "iter/tensor_iterator.h"

namespace st {
namespace cpu {

void copy_kernel(const TensorIterator& iter);

}  // namespace cpu
}  // namespace st
