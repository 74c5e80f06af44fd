// The CPU kernel of empty_strided: ordinary host memory from the CPU
// allocator. Pinned host memory (cuda_host) also dispatches to the CPU
// backend but must come from the CUDA runtime, which this kernel cannot do.
#include "cpu/empty_kernel.h"

#include "core/empty.h"
#include "core/error.h"
#include "dispatch/registration.h"

namespace st {
namespace cpu {

Tensor empty_strided_cpu(dispatch::DispatchKeySet, const DimVector& sizes, const DimVector& strides,
                         ScalarType dtype, Device device) {
  ST_CHECK(device.type == DeviceType::CPU, ST_ERROR_NOT_IMPLEMENTED, "no allocator for device type %s",
           device_type_name(static_cast<int32_t>(device.type)));
  return empty_cpu(sizes, strides, dtype);
}

namespace {
ST_REGISTER_KERNEL("empty_strided", CPU, empty_strided_cpu);
}  // namespace

}  // namespace cpu
}  // namespace st
