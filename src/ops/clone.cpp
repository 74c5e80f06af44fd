// clone for every backend, as PyTorch's composite clone: a new tensor in the
// asked format, then copy_ (each a traced dispatcher call of its own). The
// new tensor comes from empty_like, except that a dense source cloned with
// PRESERVE keeps its own strides: empty_strided is called with them
// directly, as PyTorch does, with no layout to work out.
#include "ops/clone.h"

#include "dispatch/registration.h"
#include "ops/copy.h"
#include "ops/empty.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Clone, "clone", "clone(Tensor self, MemoryFormat memory_format) -> Tensor",
                   Tensor(const Tensor&, MemoryFormat));

Tensor clone_composite(dispatch::DispatchKeySet, const Tensor& src, MemoryFormat fmt) {
  Tensor out = fmt == MemoryFormat::Preserve && src.is_non_overlapping_and_dense()
                   ? empty_strided(src.sizes(), strides_like(src, fmt), src.dtype(), src.device())
                   : empty_like(src, fmt);
  copy_(out, src, false);
  return out;
}
ST_REGISTER_KERNEL("clone", CompositeImplicit, clone_composite);

}  // namespace

Tensor clone(const Tensor& src, MemoryFormat fmt) { return Clone::call(src, fmt); }

}  // namespace ops
}  // namespace st
