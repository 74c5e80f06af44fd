// clone, contiguous, to and reshape: compositions of empty_* and copy_
// (PyTorch's CompositeImplicit operators of the same names).
#include "core/error.h"
#include "core/views.h"
#include "ops/copy.h"
#include "ops/empty.h"

namespace st {
namespace ops {

Tensor clone(const Tensor& src, MemoryFormat fmt) {
  Tensor out = empty_like(src, fmt);
  copy_(out, src, false);
  return out;
}

Tensor contiguous(const Tensor& src, MemoryFormat fmt) {
  ST_CHECK(fmt != MemoryFormat::Preserve, ST_ERROR_INVALID_ARGUMENT,
           "fmt = preserve is not a layout to make a tensor contiguous in (as in PyTorch)");
  if (src.is_contiguous(fmt)) return src;
  return clone(src, fmt);
}

Tensor to(const Tensor& src, ScalarType dtype, Device device, MemoryFormat fmt) {
  if (src.dtype() == dtype && src.device() == device && (fmt == MemoryFormat::Preserve || src.is_contiguous(fmt)))
    return src;
  Tensor out = empty_strided(src.sizes(), strides_like(src, fmt), dtype, device);
  copy_(out, src, false);
  return out;
}

Tensor reshape(const Tensor& src, const DimVector& sizes) {
  const DimVector shape = infer_size(sizes, src.numel());
  DimVector strides;
  if (compute_view_strides(src.sizes(), src.strides(), src.numel(), shape, &strides)) return view(src, shape);
  return view(clone(src, MemoryFormat::Contiguous), shape);
}

}  // namespace ops
}  // namespace st
