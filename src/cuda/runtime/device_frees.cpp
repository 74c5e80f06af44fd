#include "cuda/runtime/device_frees.h"

namespace st {
namespace cuda {
namespace {

cudaError_t capture_id_of(cudaStream_t stream, unsigned long long* id) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  *id = 0;
  const cudaError_t err = cudaStreamGetCaptureInfo(stream, &status, id);
  if (err == cudaSuccess && status == cudaStreamCaptureStatusNone) *id = 0;
  return err;
}

}  // namespace

unsigned long long DeviceFrees::capture_of(cudaStream_t stream) const noexcept {
  unsigned long long id = 0;
  if (runtime_.capture_id(stream, &id) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;  // as before captures were looked at: freed on the stream
  }
  return id;
}

void DeviceFrees::allocated(void* ptr, cudaStream_t stream) {
  const unsigned long long capture = capture_of(stream);
  if (capture == 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  graph_blocks_[ptr] = capture;
}

void DeviceFrees::release(void* ptr, int device, cudaStream_t stream) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  free_set_aside_locked();
  unsigned long long owner = 0;
  if (!graph_blocks_.empty()) {
    const auto it = graph_blocks_.find(ptr);
    if (it != graph_blocks_.end()) {
      owner = it->second;
      graph_blocks_.erase(it);
    }
  }
  DeviceGuard guard(device, std::nothrow, runtime_.devices);
  if (!guard.entered()) return;
  const unsigned long long capture = capture_of(stream);
  if (capture != 0 && capture != owner) {
    try {
      set_aside_.push_back(Block{ptr, device, stream});
      return;
    } catch (...) {
      return;  // no memory to remember it: the block stays allocated
    }
  }
  if (runtime_.free_async(ptr, stream) != cudaSuccess) (void)cudaGetLastError();
}

void DeviceFrees::free_set_aside() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  free_set_aside_locked();
}

size_t DeviceFrees::set_aside() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return set_aside_.size();
}

void DeviceFrees::free_set_aside_locked() noexcept {
  size_t kept = 0;
  for (Block& b : set_aside_) {
    DeviceGuard guard(b.device, std::nothrow, runtime_.devices);
    if (guard.entered() && capture_of(b.stream) != 0) {
      set_aside_[kept++] = b;
      continue;
    }
    if (!guard.entered() || runtime_.free_async(b.ptr, b.stream) != cudaSuccess) (void)cudaGetLastError();
  }
  set_aside_.resize(kept);
}

DeviceFrees& device_frees() {
  // Never destroyed: storages released during exit still free through it.
  static DeviceFrees* frees = new DeviceFrees(DeviceFrees::Runtime{capture_id_of, cudaFreeAsync, cuda_device_runtime()});
  return *frees;
}

}  // namespace cuda
}  // namespace st
