#include "cuda/host_copy.h"

#include "dispatch/registration.h"

namespace st {
namespace cuda {

void copy_on_host(const Tensor& dst, const Tensor& src) {
  static const auto op = dispatch::find_operator("copy_").typed<void(const Tensor&, const Tensor&, bool)>();
  op.redispatch(dispatch::DispatchKeySet(dispatch::DispatchKey::CPU), dst, src, false);
}

}  // namespace cuda
}  // namespace st
