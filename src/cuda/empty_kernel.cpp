// The CUDA kernel of empty_strided (Note [Registering the CUDA empty
// kernels] in cuda/runtime/empty.h): device memory on this thread's current stream.
#include "cuda/runtime/empty.h"
#include "dispatch/registration.h"

namespace st {
namespace cuda {
namespace {

Tensor empty_strided_kernel(dispatch::DispatchKeySet, const DimVector& sizes, const DimVector& strides,
                            ScalarType dtype, Device device) {
  return empty_strided_cuda(sizes, strides, dtype, device);
}
ST_REGISTER_KERNEL("empty_strided", CUDA, empty_strided_kernel);

}  // namespace
}  // namespace cuda
}  // namespace st
