// The contiguous operator (include/stride.h, st_contiguous).
#pragma once

#include "core/memory_format.h"
#include "core/tensor.h"

namespace st {
namespace ops {

// `src` itself when it is contiguous in `fmt`, else clone(src, fmt). PRESERVE is invalid.
Tensor contiguous(const Tensor& src, MemoryFormat fmt);
// contiguous(src, fmt) for a caller that hands `src` back by itself: true
// when the answer is `src` (*out untouched), else false with the new
// tensor in *out. Spares the copy of the reference when nothing is to do.
bool contiguous_is_self(const Tensor& src, MemoryFormat fmt, Tensor* out);

}  // namespace ops
}  // namespace st
