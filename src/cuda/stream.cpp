#include "cuda/stream.h"

#include <vector>

#include "cuda/cuda_error.h"
#include "cuda/device_guard.h"
#include "cuda/device_status.h"
#include "cuda/stream_capture.h"

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

void synchronize_current_stream(int device) {
  DeviceGuard guard(device);  // NULL is the current device's default stream
  ST_CUDA_CHECK(cudaStreamSynchronize(current_stream(device)));
}

bool is_capturing_on(int device) {
  DeviceGuard guard(device);
  return is_capturing(current_stream(device));
}

}  // namespace cuda
}  // namespace st
