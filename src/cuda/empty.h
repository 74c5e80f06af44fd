// Fresh CUDA and pinned host tensors: the storage a layout needs, allocated
// and wrapped. These are the CUDA and CUDAHost kernels of the `empty`
// operator.
//
// Note [Registering the CUDA empty kernels]
// They are meant for the dispatcher's `empty_strided` operator under the
// CUDA backend key (empty_strided_cuda) and, for ST_DEVICE_CUDA_HOST,
// wherever pinned memory is dispatched (empty_strided_pinned); both have the
// signature of ops::empty_strided. Until they are registered,
// ops::empty_strided answers ST_ERROR_NOT_IMPLEMENTED for these devices
// once CudaHooks::check_device has passed.
#pragma once

#include "core/device.h"
#include "core/tensor.h"

namespace st {
namespace cuda {

// An uninitialized tensor in the memory of CUDA device `device`, allocated
// on this thread's current stream there. Strides must be >= 0. Throws
// ST_ERROR_DEVICE_UNAVAILABLE (no such device), ST_ERROR_INVALID_ARGUMENT,
// ST_ERROR_OUT_OF_MEMORY or ST_ERROR_DEVICE_FAILURE.
Tensor empty_strided_cuda(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device);

// The same in page-locked host memory (`device` of type CUDAHost).
Tensor empty_strided_pinned(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device);

}  // namespace cuda
}  // namespace st
