#include "cuda/empty.h"

#include "core/empty.h"
#include "core/error.h"
#include "core/views.h"
#include "cuda/allocator.h"
#include "cuda/device_status.h"

namespace st {
namespace cuda {
namespace {

// The storage span of (sizes, strides) in bytes, checked as empty_cpu checks it.
size_t checked_nbytes(const DimVector& sizes, const DimVector& strides, ScalarType dtype) {
  check_sizes_nonnegative(sizes);
  for (int i = 0; i < strides.size(); ++i) {
    ST_CHECK(strides[i] >= 0, ST_ERROR_INVALID_ARGUMENT, "strides[%d] = %lld is negative", i,
             static_cast<long long>(strides[i]));
  }
  return static_cast<size_t>(storage_span(sizes, strides, dtype)) * itemsize(dtype);
}

}  // namespace

Tensor empty_strided_cuda(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  ST_CHECK(device.type == DeviceType::CUDA, ST_ERROR_INVALID_ARGUMENT, "device %s:%d is not a CUDA device",
           device_type_name(static_cast<int32_t>(device.type)), device.index);
  check_device(device);
  const size_t nbytes = checked_nbytes(sizes, strides, dtype);
  return Tensor::make(allocate_device_storage(nbytes, device.index), sizes, strides, 0, dtype);
}

Tensor empty_strided_pinned(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device) {
  ST_CHECK(device.type == DeviceType::CUDAHost, ST_ERROR_INVALID_ARGUMENT, "device %s:%d is not pinned host memory",
           device_type_name(static_cast<int32_t>(device.type)), device.index);
  check_device(device);
  const size_t nbytes = checked_nbytes(sizes, strides, dtype);
  return Tensor::make(allocate_pinned_storage(nbytes, device.index), sizes, strides, 0, dtype);
}

}  // namespace cuda
}  // namespace st
