#include "cuda/stream_capture.h"

#include "cuda/cuda_error.h"

namespace st {
namespace cuda {

bool is_capturing(cudaStream_t stream) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  ST_CUDA_CHECK(cudaStreamIsCapturing(stream, &status));
  return status != cudaStreamCaptureStatusNone;
}

}  // namespace cuda
}  // namespace st
