// contiguous for every backend, as PyTorch's CompositeImplicit contiguous:
// the source itself when its cached layout flag says so, else a clone.
#include "core/error.h"
#include "dispatch/registration.h"
#include "ops/copy.h"
#include "ops/direct_calls.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Contiguous, "contiguous", "contiguous(Tensor(a) self, MemoryFormat memory_format) -> Tensor(a)",
                   Tensor(const Tensor&, MemoryFormat));

void check_contiguous_format(MemoryFormat fmt) {
  ST_CHECK(fmt != MemoryFormat::Preserve, ST_ERROR_INVALID_ARGUMENT,
           "fmt = preserve is not a layout to make a tensor contiguous in (as in PyTorch)");
}

Tensor contiguous_composite(dispatch::DispatchKeySet, const Tensor& src, MemoryFormat fmt) {
  check_contiguous_format(fmt);
  if (src.is_contiguous(fmt)) return src;
  return clone(src, fmt);
}
ST_REGISTER_KERNEL("contiguous", CompositeImplicit, contiguous_composite);

}  // namespace

namespace detail {
bool contiguous_reaches_own_kernel(dispatch::DispatchKeySet keys) {
  return Contiguous::dispatches_to(keys, &contiguous_composite);
}
}  // namespace detail

Tensor contiguous(const Tensor& src, MemoryFormat fmt) {
  if (on_cpu_device(src) && direct_calls_allowed()) {
    check_contiguous_format(fmt);
    return src.is_contiguous(fmt) ? src : direct::clone_cpu(src, fmt);
  }
  return Contiguous::call(src, fmt);
}

bool contiguous_is_self(const Tensor& src, MemoryFormat fmt, Tensor* out) {
  if (on_cpu_device(src) && direct_calls_allowed()) {
    // contiguous_composite, without the copy of `src` it would return.
    check_contiguous_format(fmt);
    if (src.is_contiguous(fmt)) return true;
    *out = direct::clone_cpu(src, fmt);
    return false;
  }
  Tensor result = Contiguous::call(src, fmt);
  if (result.is_same(src)) return true;
  *out = std::move(result);
  return false;
}

}  // namespace ops
}  // namespace st
