// reshape: a view when the strides allow it, else a contiguous clone viewed
// as the new shape (as PyTorch's reshape). Not an operator of its own: the
// clone it may make is.
#include "ops/reshape.h"

#include "core/views.h"
#include "ops/clone.h"

namespace st {
namespace ops {

Tensor reshape(const Tensor& src, const DimVector& sizes) {
  const DimVector shape = infer_size(sizes, src.numel());
  DimVector strides;
  if (compute_view_strides(src.sizes(), src.strides(), src.numel(), shape, &strides)) return view(src, shape);
  return view(clone(src, MemoryFormat::Contiguous), shape);
}

}  // namespace ops
}  // namespace st
