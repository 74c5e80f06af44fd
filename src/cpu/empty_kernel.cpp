// The CPU kernel of empty_strided: ordinary host memory from the CPU
// allocator, and pinned host memory (cuda_host), which dispatches as CPU
// memory since the CPU kernels read and write it, from the CUDA runtime
// through CudaHooks (Note [Registering the CUDA empty kernels] in
// cuda/runtime/empty.h), whose hooks refuse it, after the layout's checks, in a
// build or on a machine without CUDA.
#include "core/empty.h"
#include "core/error.h"
#include "core/runtime/cuda_hooks.h"
#include "dispatch/registration.h"

namespace st {
namespace cpu {
namespace {

// Out of line, so that the kernel's ordinary path is a test and a jump.
[[gnu::noinline]] Tensor empty_strided_pinned_host(const DimVector& sizes, const DimVector& strides, ScalarType dtype,
                                                   Device device) {
  // Every check, overflow included, before the allocation (as empty_cpu).
  Storage storage = cuda_hooks().allocate(checked_storage_bytes(sizes, strides, dtype), device);
  return Tensor::make(std::move(storage), sizes, strides, 0, dtype);
}

Tensor empty_strided_cpu(dispatch::DispatchKeySet, const DimVector& sizes, const DimVector& strides,
                         ScalarType dtype, Device device) {
  if (ST_LIKELY(device.type == DeviceType::CPU)) return empty_cpu(sizes, strides, dtype);
  ST_CHECK(device.type == DeviceType::CUDAHost, ST_ERROR_NOT_IMPLEMENTED, "no allocator for device type %s",
           device_type_name(static_cast<int32_t>(device.type)));
  return empty_strided_pinned_host(sizes, strides, dtype, device);
}
ST_REGISTER_KERNEL("empty_strided", CPU, empty_strided_cpu);

}  // namespace

}  // namespace cpu
}  // namespace st
