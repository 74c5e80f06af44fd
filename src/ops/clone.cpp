// clone for every backend, as PyTorch's CompositeImplicit clone: empty_like
// in the asked format, then copy_ (each a traced dispatcher call of its own).
#include "dispatch/registration.h"
#include "ops/copy.h"
#include "ops/direct_calls.h"
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

namespace detail {
bool clone_reaches_own_kernel(dispatch::DispatchKeySet keys) { return Clone::dispatches_to(keys, &clone_composite); }
}  // namespace detail

Tensor direct::clone_cpu(const Tensor& src, MemoryFormat fmt) {
  // clone_composite with its two calls made directly; `out` is known to be
  // new, so the copy skips the checks that could only fail otherwise.
  Tensor out = direct::empty_like_cpu(src, fmt);
  direct::copy_into_new_cpu(out, src);
  return out;
}

Tensor clone(const Tensor& src, MemoryFormat fmt) {
  if (on_cpu_device(src) && direct_calls_allowed()) return direct::clone_cpu(src, fmt);
  return Clone::call(src, fmt);
}

}  // namespace ops
}  // namespace st
