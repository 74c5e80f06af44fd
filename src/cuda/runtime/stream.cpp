#include "cuda/runtime/stream.h"

#include <vector>

#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/stream_capture.h"

namespace st {
namespace cuda {
namespace {

// One slot per device, made on this thread's first use.
std::vector<cudaStream_t>& thread_streams() {
  thread_local std::vector<cudaStream_t> streams(static_cast<size_t>(device_status().count), nullptr);
  return streams;
}

}  // namespace

cudaStream_t current_stream(int device) { return thread_streams()[static_cast<size_t>(device)]; }

void set_current_stream(int device, cudaStream_t stream) { thread_streams()[static_cast<size_t>(device)] = stream; }

void synchronize_unless_capturing(int device) {
  DeviceGuard guard(device);  // NULL is the current device's default stream
  const cudaStream_t stream = current_stream(device);
  if (!is_capturing(stream)) ST_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace cuda
}  // namespace st
