// The element work of the CPU copy_scaled_ kernel, apart from its checks so
// that a caller holding a geometry and prepared values (a copy plan) can run
// it again on new data.
#pragma once

#include "core/scale_shift.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

// The geometry of a scaled copy: dst, src, then ss's scales and shifts as
// channel operands 2 and 3 (iter/geometry.h), which point into `ss`.
Geometry scaled_copy_geometry(const Tensor& dst, const Tensor& src, const ScaleShift& ss);

// dst = R(fma(src, scale[c], shift[c])) over g (Note [The scaled copy's
// arithmetic]), for any pair of real dtypes whose compute type is ss.compute;
// both operands in host memory, no harmful overlap.
void copy_scaled_kernel(const Geometry& g, ScalarType dst_type, ScalarType src_type, const ScaleShift& ss);

}  // namespace cpu
}  // namespace st
