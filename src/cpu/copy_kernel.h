// The element loop of the CPU copy_ kernel: dst ← src over a built
// TensorIterator (operand 0 is dst, operand 1 is src), any dtype pair, both
// operands in host memory, no harmful overlap (copy_'s checks saw to it).
#pragma once

#include "iter/tensor_iterator.h"

namespace st {
namespace cpu {

void copy_kernel(const TensorIterator& iter);

}  // namespace cpu
}  // namespace st
