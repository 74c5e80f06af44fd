// The current stream: per thread and per device, as PyTorch's
// getCurrentCUDAStream. Work stride queues on a device goes to the calling
// thread's current stream there, and device memory is allocated and freed
// in its order. NULL (the default) is the legacy default stream.
#pragma once

#include <cuda_runtime_api.h>

namespace st {
namespace cuda {

// `device` is a valid index (check_device first).
cudaStream_t current_stream(int device);
// `stream` is the caller's, on `device` (or NULL); stride never destroys it.
void set_current_stream(int device, cudaStream_t stream);
// How a blocking copy finishes: waits until the work queued on this
// thread's current stream of `device` has run, unless that stream is
// capturing a CUDA graph (Note [Copies during stream capture]).
void synchronize_unless_capturing(int device);

}  // namespace cuda
}  // namespace st
