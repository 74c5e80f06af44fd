// Fresh CUDA and pinned host tensors: the storage a layout needs, allocated
// and wrapped. These are the CUDA and CUDAHost kernels of the `empty`
// operator.
//
// Note [Registering the CUDA empty kernels]
// empty_strided_cuda is the CUDA kernel of the dispatcher's empty_strided
// operator (cuda/empty_kernel.cpp). Pinned host memory dispatches as CPU
// memory (it is host memory, and the CPU kernels read and write it), so
// the CPU kernel of empty_strided allocates it, through
// CudaHooks::allocate, which lands in allocate_pinned_storage; the CUDA
// backend calls empty_strided_pinned directly for its staging buffers.
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

// One of the three above by the device's type (CPU: core's empty_cpu), for
// the staging buffers of copies.
Tensor empty_strided_on(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device);

// The same with contiguous strides: the temporaries that copies stage
// through.
Tensor empty_contiguous_on(const DimVector& sizes, ScalarType dtype, Device device);

}  // namespace cuda
}  // namespace st
