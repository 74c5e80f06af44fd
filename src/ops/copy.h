// The copy operators of the C API: copy_, fill_ and the composites built on
// them (clone, contiguous, to, reshape).
#pragma once

#include "core/memory_format.h"
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
// Every element of dst becomes `value` converted to dst's dtype.
void fill_(const Tensor& dst, double value);
// New storage in `fmt` (PRESERVE keeps a dense source's strides).
Tensor clone(const Tensor& src, MemoryFormat fmt);
// `src` itself when it is contiguous in `fmt`, else clone(src, fmt). PRESERVE is invalid.
Tensor contiguous(const Tensor& src, MemoryFormat fmt);
// contiguous(src, fmt) for a caller that hands `src` back by itself: true
// when the answer is `src` (*out untouched), else false with the new
// tensor in *out. Spares the copy of the reference when nothing is to do.
bool contiguous_is_self(const Tensor& src, MemoryFormat fmt, Tensor* out);
// `src` itself when dtype and device match and it is contiguous in `fmt`
// (PRESERVE: always); else a new tensor.
Tensor to(const Tensor& src, ScalarType dtype, Device device, MemoryFormat fmt);
// A view when st_view allows it, else a contiguous copy viewed as `sizes`.
Tensor reshape(const Tensor& src, const DimVector& sizes);

}  // namespace ops
}  // namespace st
