// The one way CUDA runtime errors enter stride: ST_CUDA_CHECK(call) throws
// st::Error with the call, the runtime's error name and its text, e.g.
// "cudaStreamSynchronize(stream) failed: cudaErrorIllegalAddress: an
// illegal memory access was encountered". Out of device memory is
// ST_ERROR_OUT_OF_MEMORY; every other error ST_ERROR_DEVICE_FAILURE.
#pragma once

#include <cuda_runtime_api.h>

#include "core/error.h"
#include "core/macros.h"

namespace st {
namespace cuda {

// Clears the runtime's record of a non-sticky error, so that the next
// unrelated call does not report it again, then throws.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call);

}  // namespace cuda
}  // namespace st

#define ST_CUDA_CHECK(call)                                       \
  do {                                                            \
    const cudaError_t st_cuda_err_ = (call);                      \
    if (ST_UNLIKELY(st_cuda_err_ != cudaSuccess)) {               \
      ::st::cuda::throw_cuda_error(st_cuda_err_, #call);          \
    }                                                             \
  } while (0)
