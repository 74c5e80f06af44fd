// contiguous for every backend, as PyTorch's CompositeImplicit contiguous:
// the source itself when its cached layout flag says so, else a clone.
#include "core/error.h"
#include "dispatch/registration.h"
#include "ops/copy.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Contiguous, "contiguous", "contiguous(Tensor(a) self, MemoryFormat memory_format) -> Tensor(a)",
                   Tensor(const Tensor&, MemoryFormat));

Tensor contiguous_composite(dispatch::DispatchKeySet, const Tensor& src, MemoryFormat fmt) {
  ST_CHECK(fmt != MemoryFormat::Preserve, ST_ERROR_INVALID_ARGUMENT,
           "fmt = preserve is not a layout to make a tensor contiguous in (as in PyTorch)");
  if (src.is_contiguous(fmt)) return src;
  return clone(src, fmt);
}
ST_REGISTER_KERNEL("contiguous", CompositeImplicit, contiguous_composite);

}  // namespace

Tensor contiguous(const Tensor& src, MemoryFormat fmt) { return Contiguous::call(src, fmt); }

}  // namespace ops
}  // namespace st
