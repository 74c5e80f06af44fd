// clone for every backend, as PyTorch's CompositeImplicit clone: empty_like
// in the asked format, then copy_ (each a traced dispatcher call of its own).
#include "dispatch/registration.h"
#include "ops/copy.h"
#include "ops/empty.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Clone, "clone", "clone(Tensor self, MemoryFormat memory_format) -> Tensor",
                   Tensor(const Tensor&, MemoryFormat));

Tensor clone_composite(dispatch::DispatchKeySet, const Tensor& src, MemoryFormat fmt) {
  Tensor out = empty_like(src, fmt);
  copy_(out, src, false);
  return out;
}
ST_REGISTER_KERNEL("clone", CompositeImplicit, clone_composite);

}  // namespace

Tensor clone(const Tensor& src, MemoryFormat fmt) { return Clone::call(src, fmt); }

}  // namespace ops
}  // namespace st
