// to for every backend: the source itself when nothing would change, else a
// new tensor (empty_strided in the asked layout, then copy_).
#include "ops/to.h"

#include "core/copy_preconditions.h"
#include "dispatch/registration.h"
#include "ops/copy.h"
#include "ops/empty.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(To, "to",
                   "to(Tensor(a) self, ScalarType dtype, Device device, MemoryFormat memory_format) -> Tensor(a)",
                   Tensor(const Tensor&, ScalarType, Device, MemoryFormat));

Tensor to_composite(dispatch::DispatchKeySet, const Tensor& src, ScalarType dtype, Device device,
                    MemoryFormat fmt) {
  if (src.dtype() == dtype && src.device() == device && (fmt == MemoryFormat::Preserve || src.is_contiguous(fmt)))
    return src;
  check_converts(dtype, src.dtype());  // before the result is allocated
  Tensor out = empty_strided(src.sizes(), strides_like(src, fmt), dtype, device);
  copy_(out, src, false);
  return out;
}
ST_REGISTER_KERNEL("to", CompositeImplicit, to_composite);

}  // namespace

Tensor to(const Tensor& src, ScalarType dtype, Device device, MemoryFormat fmt) {
  return To::call(src, dtype, device, fmt);
}

}  // namespace ops
}  // namespace st
