// contiguous for every backend, as PyTorch's CompositeImplicit contiguous:
// the source itself when its cached layout flag says so, else a clone.
//
// Note [contiguous answers "self" without a reference]
// Most st_contiguous calls find the source contiguous already and hand
// its own handle back. Returning the source as a Tensor would take and drop
// a reference (two atomic operations, as long as the whole call otherwise),
// so the operator says "self" with its bool and writes *out only for a new
// tensor.
#include "ops/contiguous.h"

#include "core/error.h"
#include "dispatch/registration.h"
#include "ops/clone.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Contiguous, "contiguous",
                   "contiguous(Tensor(a) self, MemoryFormat memory_format, Tensor(b!)? out) -> bool",
                   bool(const Tensor&, MemoryFormat, Tensor*));

bool contiguous_composite(dispatch::DispatchKeySet, const Tensor& src, MemoryFormat fmt, Tensor* out) {
  ST_CHECK(fmt != MemoryFormat::Preserve, ST_ERROR_INVALID_ARGUMENT,
           "fmt = preserve is not a layout to make a tensor contiguous in (as in PyTorch)");
  if (src.is_contiguous(fmt)) return true;
  *out = clone(src, fmt);
  return false;
}
ST_REGISTER_KERNEL("contiguous", CompositeImplicit, contiguous_composite);

}  // namespace

bool contiguous_is_self(const Tensor& src, MemoryFormat fmt, Tensor* out) { return Contiguous::call(src, fmt, out); }

Tensor contiguous(const Tensor& src, MemoryFormat fmt) {
  Tensor out;
  return contiguous_is_self(src, fmt, &out) ? src : out;
}

}  // namespace ops
}  // namespace st
