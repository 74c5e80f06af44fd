#include "cuda/runtime/empty.h"

#include "core/contiguity.h"
#include "core/empty.h"
#include "core/error.h"
#include "cuda/runtime/allocator.h"
#include "cuda/runtime/device_status.h"

namespace st {
namespace cuda {

Tensor empty_strided_cuda(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  ST_CHECK(device.type == DeviceType::CUDA, ST_ERROR_INVALID_ARGUMENT, "device %s:%d is not a CUDA device",
           device_type_name(static_cast<int32_t>(device.type)), device.index);
  const size_t nbytes = checked_storage_bytes(sizes, strides, dtype);  // argument errors before the device's answer
  check_device(device);
  return Tensor::make(allocate_device_storage(nbytes, device.index), sizes, strides, 0, dtype);
}

Tensor empty_strided_pinned(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  ST_CHECK(device.type == DeviceType::CUDAHost, ST_ERROR_INVALID_ARGUMENT, "device %s:%d is not pinned host memory",
           device_type_name(static_cast<int32_t>(device.type)), device.index);
  const size_t nbytes = checked_storage_bytes(sizes, strides, dtype);
  check_device(device);
  return Tensor::make(allocate_pinned_storage(nbytes, device.index), sizes, strides, 0, dtype);
}

Tensor empty_strided_on(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  switch (device.type) {
    case DeviceType::CPU:
      return empty_cpu(sizes, strides, dtype);
    case DeviceType::CUDA:
      return empty_strided_cuda(sizes, strides, dtype, device);
    case DeviceType::CUDAHost:
      return empty_strided_pinned(sizes, strides, dtype, device);
  }
  fail(ST_ERROR_INTERNAL, "empty_strided_on: device type %d", static_cast<int>(device.type));
}

Tensor empty_contiguous_on(const DimVector& sizes, ScalarType dtype, Device device) {
  return empty_strided_on(sizes, contiguous_strides(sizes), dtype, device);
}

}  // namespace cuda
}  // namespace st
