// The element work of the CPU copy_ kernel: dst ← src over the canonical
// geometry of the copy (operand 0 dst, operand 1 src; iter/geometry.h), any of
// the 289 dtype pairs, both operands in host memory, no harmful overlap (copy_'s
// checks saw to it).
#pragma once

#include "core/dtype.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

void copy_kernel(const Geometry& g, ScalarType dst_type, ScalarType src_type);

}  // namespace cpu
}  // namespace st
