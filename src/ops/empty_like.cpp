// empty_like for every backend, in terms of empty_strided (as PyTorch's
// CompositeImplicit empty_like): the strides follow ops::strides_like, and
// the allocation is a full dispatcher call, so it is traced on its own.
#include "core/empty.h"
#include "dispatch/registration.h"
#include "ops/direct_calls.h"
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

namespace detail {
bool empty_like_reaches_own_kernel(dispatch::DispatchKeySet keys) {
  return EmptyLike::dispatches_to(keys, &empty_like_composite);
}
}  // namespace detail

Tensor direct::empty_like_cpu(const Tensor& src, MemoryFormat fmt) {
  // empty_like_composite, then empty_strided's direct call, whose checks a
  // dense layout of src's own sizes passes (core/empty.h).
  return empty_cpu_dense(src.sizes(), strides_like(src, fmt), src.dtype(), src.numel());
}

Tensor empty_like(const Tensor& src, MemoryFormat fmt) {
  if (on_cpu_device(src) && direct_calls_allowed()) return direct::empty_like_cpu(src, fmt);
  return EmptyLike::call(src, fmt);
}

}  // namespace ops
}  // namespace st
