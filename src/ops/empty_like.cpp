// empty_like for every backend, in terms of empty_strided (as PyTorch's
// CompositeImplicit empty_like): the strides follow ops::strides_like, and
// the allocation is a full dispatcher call, so it is traced on its own.
#include "dispatch/registration.h"
#include "ops/empty.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(EmptyLike, "empty_like", "empty_like(Tensor self, MemoryFormat memory_format) -> Tensor",
                   Tensor(const Tensor&, MemoryFormat));

Tensor empty_like_composite(dispatch::DispatchKeySet, const Tensor& src, MemoryFormat fmt) {
  return empty_strided(src.sizes(), strides_like(src, fmt), src.dtype(), src.device());
}
ST_REGISTER_KERNEL("empty_like", CompositeImplicit, empty_like_composite);

}  // namespace

Tensor empty_like(const Tensor& src, MemoryFormat fmt) { return EmptyLike::call(src, fmt); }

}  // namespace ops
}  // namespace st
