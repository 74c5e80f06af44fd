// The CUDA kernel of fill_: the value is converted to dst's dtype on the
// host by the CPU's rules (core/numeric/convert.h), and the device stores its bytes
// into every element, queued on this thread's current stream. As on the
// CPU, an expanded dst is allowed: each address receives the same bytes.
#include <cstring>

#include "core/copy_preconditions.h"
#include "core/numeric/convert.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/numeric/float_env.h"
#include "cuda/device_copy.h"
#include "cuda/kernels/element_io.h"
#include "cuda/runtime/device_status.h"
#include "dispatch/registration.h"

namespace st {
namespace cuda {
namespace {

void fill_cuda(dispatch::DispatchKeySet, const Tensor& dst, double value) {
  check_fill(dst);
  check_device(dst.device());
  Word16 bytes{};
  const DefaultFloatEnvironment float_env;  // Note [The caller's floating-point environment]
  ST_DISPATCH_ALL_TYPES(dst.dtype(), "fill", [&] {
    if constexpr (IsPacked<scalar_t>::value) {
      fail_unsupported_dtype("fill", dst.dtype());  // check_fill refused it
    } else {
      const memory_t<scalar_t> element = to_memory<scalar_t>(convert<scalar_t>(value));
      static_assert(sizeof(element) <= sizeof(bytes), "an element fits 16 bytes");
      std::memcpy(&bytes, &element, sizeof(element));
    }
  });
  fill_on_device(dst, bytes);
}
ST_REGISTER_KERNEL("fill_", CUDA, fill_cuda);

}  // namespace
}  // namespace cuda
}  // namespace st
