// The copy operators: copy_ and copy_scaled_, which write src's elements,
// converted (and scaled), into an existing dst.
#pragma once

#include "core/scale_shift.h"
#include "core/tensor.h"

namespace st {
namespace ops {

// dst[...] = src, src broadcast to dst, any dtype pair (include/stride.h,
// st_copy).
void copy_(const Tensor& dst, const Tensor& src, bool non_blocking);
// copy_ with dst = R(fma(src, scale[c], shift[c])) (include/stride.h,
// st_copy_scaled; Note [The scaled copy's arithmetic]); `ss` comes from
// prepare_scale_shift for these operands.
void copy_scaled_(const Tensor& dst, const Tensor& src, const ScaleShift& ss, bool non_blocking);

}  // namespace ops
}  // namespace st
