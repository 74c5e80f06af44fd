// How a block of device memory goes back to stride's pool: cudaFreeAsync
// on the stream it was allocated on (cuda/runtime/allocator.h), unless that
// stream is capturing a CUDA graph that does not own the block.
//
// Note [Releasing memory during stream capture]
// During stream capture cudaFreeAsync records a free node, and a free node
// takes only a graph allocation: memory allocated on a stream of that same
// capture. A tensor allocated before cudaStreamBeginCapture and released
// inside the capture cannot be freed there (the call fails, and a storage's
// release has nobody to report that to: the block would leak, and the
// capture may be invalidated). So:
//  - an allocation made on a capturing stream remembers that capture's id;
//  - a release while the block's stream captures frees it at once (a free
//    node) only when the block belongs to that capture; any other block is
//    put aside, and freed on its stream once the stream no longer captures
//    (looked at on every allocation and release of device memory,
//    st_cuda_synchronize and st_cuda_empty_cache), after the work queued
//    on it before the capture, in stream order as any free;
//  - a graph that uses such a block must not be replayed after the block
//    is freed, as after any release of what a graph uses.
#pragma once

#include <cuda_runtime_api.h>

#include <mutex>
#include <unordered_map>
#include <vector>

#include "cuda/runtime/device_guard.h"

namespace st {
namespace cuda {

class DeviceFrees {
 public:
  // The runtime calls this makes; tests substitute their own.
  struct Runtime {
    // The id of the capture `stream` takes part in now, 0 when none
    // (cudaStreamGetCaptureInfo). Of the current device's streams.
    cudaError_t (*capture_id)(cudaStream_t stream, unsigned long long* id);
    cudaError_t (*free_async)(void* ptr, cudaStream_t stream);
    const DeviceRuntime& devices;
  };

  explicit DeviceFrees(const Runtime& runtime) : runtime_(runtime) {}
  DeviceFrees(const DeviceFrees&) = delete;
  DeviceFrees& operator=(const DeviceFrees&) = delete;

  // `ptr` was just allocated on `stream` of device `device` (current).
  void allocated(void* ptr, cudaStream_t stream);
  // Frees `ptr` (of device `device`, allocated on `stream` or to be freed
  // there) now or, during a capture that does not own it, later. Never
  // throws: a failure means the device or the runtime is gone, and the
  // memory with it.
  void release(void* ptr, int device, cudaStream_t stream) noexcept;
  // Frees the blocks put aside whose streams no longer capture.
  void free_set_aside() noexcept;
  size_t set_aside() const;

 private:
  struct Block {
    void* ptr;
    int device;
    cudaStream_t stream;
  };
  // 0 when `stream` is not capturing or cannot tell; `device` is current.
  unsigned long long capture_of(cudaStream_t stream) const noexcept;
  void free_set_aside_locked() noexcept;

  const Runtime runtime_;
  mutable std::mutex mutex_;
  std::unordered_map<void*, unsigned long long> graph_blocks_;  // allocated during a capture: its id
  std::vector<Block> set_aside_;
};

// The process's.
DeviceFrees& device_frees();

}  // namespace cuda
}  // namespace st
