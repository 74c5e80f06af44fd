#include "cuda/runtime/stream_capture.h"

#include "cuda/runtime/cuda_error.h"

namespace st {
namespace cuda {

bool is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ST_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace cuda
}  // namespace st
