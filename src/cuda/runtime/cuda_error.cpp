#include "cuda/runtime/cuda_error.h"

namespace st {
namespace cuda {

void throw_cuda_error(cudaError_t err, const char* call) {
  (void)cudaGetLastError();
  const st_status code = err == cudaErrorMemoryAllocation ? ST_ERROR_OUT_OF_MEMORY : ST_ERROR_DEVICE_FAILURE;
  fail(code, "%s failed: %s: %s", call, cudaGetErrorName(err), cudaGetErrorString(err));
}

}  // namespace cuda
}  // namespace st
