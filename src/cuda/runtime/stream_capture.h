// CUDA graph capture and stride's copies.
//
// Note [Copies during stream capture]
// While a stream captures a CUDA graph, work queued on it is recorded, not
// run, and calls that would wait for it (cudaStreamSynchronize,
// cudaDeviceSynchronize) or that implicitly synchronize (cudaEventQuery,
// cudaMalloc and the like, in the default "global" capture mode, from any
// thread) invalidate the capture. So:
//  - a copy within a device on a capturing stream is recorded and st_copy
//    returns at once, whatever non_blocking says: there is nothing to wait
//    for until the graph runs;
//  - a copy between two devices while the current stream of either is
//    capturing is refused (ST_ERROR_INVALID_ARGUMENT): its event barriers
//    would pull the other device's stream into the capture (a stream that
//    waits on an event recorded in a capture joins it), which then must be
//    rejoined before cudaStreamEndCapture (else cudaErrorStreamCaptureUnjoined),
//    its staging copy of src would run at once instead of being recorded,
//    and its staging buffers, allocated outside the capture, would be
//    freed inside it (cudaFreeAsync takes only graph allocations there);
//  - a copy between host and device memory on a capturing stream is
//    refused (ST_ERROR_INVALID_ARGUMENT): its host-side steps would run at
//    capture time, and its host memory would have to outlive every replay
//    of the graph, which stride cannot know;
//  - the keep-alive bookkeeping queries its events in the relaxed capture
//    mode, as PyTorch's CUDAStreamCaptureModeGuard, so a query on this
//    thread does not break another thread's capture.
#pragma once

#include <cuda_runtime_api.h>

namespace st {
namespace cuda {

// Whether `stream` (of the current device, NULL the legacy default) is
// capturing a graph now. Throws ST_ERROR_DEVICE_FAILURE.
bool is_capturing(cudaStream_t stream);

// Puts this thread in `mode` for a scope (cudaThreadExchangeStreamCaptureMode).
class CaptureModeGuard {
 public:
  explicit CaptureModeGuard(cudaStreamCaptureMode mode) noexcept : previous_(mode) {
    if (cudaThreadExchangeStreamCaptureMode(&previous_) != cudaSuccess) {
      (void)cudaGetLastError();
      restore_ = false;
    }
  }
  ~CaptureModeGuard() {
    if (restore_ && cudaThreadExchangeStreamCaptureMode(&previous_) != cudaSuccess) (void)cudaGetLastError();
  }
  CaptureModeGuard(const CaptureModeGuard&) = delete;
  CaptureModeGuard& operator=(const CaptureModeGuard&) = delete;

 private:
  cudaStreamCaptureMode previous_;
  bool restore_ = true;
};

}  // namespace cuda
}  // namespace st
