// The element work of the CPU copy_scaled_ kernel, apart from its checks so
// that a caller holding a geometry and prepared values (a copy plan) can run
// it again on new data.
#pragma once

#include "core/scale_shift.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

// dst = R(fma(src, scale[c], shift[c])) over g, a scaled copy's geometry
// (TensorIterator::scaled_copy; Note [The scaled copy's
// arithmetic]), for any pair of real dtypes whose compute type is ss.compute;
// both operands in host memory, no harmful overlap.
void copy_scaled_kernel(const Geometry& g, ScalarType dst_type, ScalarType src_type, const ScaleShift& ss);

}  // namespace cpu
}  // namespace st
