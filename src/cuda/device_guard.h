// DeviceGuard: makes a CUDA device current for a scope and restores the
// caller's current device afterwards, as PyTorch's CUDAGuard. The runtime's
// current device is per thread and may belong to the application.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/cuda_error.h"

namespace st {
namespace cuda {

class DeviceGuard {
 public:
  explicit DeviceGuard(int device) {
    ST_CUDA_CHECK(cudaGetDevice(&previous_));
    if (previous_ != device) {
      ST_CUDA_CHECK(cudaSetDevice(device));
      changed_ = true;
    }
  }
  ~DeviceGuard() {
    // Restoring cannot fail for a device that was current a moment ago;
    // a destructor has nobody to report to anyway.
    if (changed_ && cudaSetDevice(previous_) != cudaSuccess) (void)cudaGetLastError();
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool changed_ = false;
};

}  // namespace cuda
}  // namespace st
