// DeviceGuard: makes a CUDA device current for a scope and restores the
// caller's current device afterwards, as PyTorch's CUDAGuard. The runtime's
// current device is per thread and may belong to the application.
//
// Note [Restoring the current device]
// On a thread that never chose a device, cudaGetDevice answers 0 although
// no context exists there yet, and since CUDA 12 cudaSetDevice creates the
// device's primary context (hundreds of MB of device memory and a start-up
// pause). Restoring "device 0" after work on cuda:1 would therefore create
// a context on a GPU the program never asked for. So the guard restores the
// previous device only when its primary context already exists, as
// PyTorch's MaybeSetDevice does; otherwise the guarded device stays
// current on that thread. A thread that chose its device with cudaSetDevice
// has that device's context, so its choice is always restored.
#pragma once

#include <cuda_runtime_api.h>

#include <new>

namespace st {
namespace cuda {

// The runtime calls a DeviceGuard makes. Tests substitute their own to
// check the policy without a GPU.
struct DeviceRuntime {
  cudaError_t (*get_device)(int* device);
  cudaError_t (*set_device)(int device);
  // Whether `device`'s primary context exists; true when that cannot be told.
  bool (*has_primary_context)(int device);
};

// The CUDA runtime's own (cuDevicePrimaryCtxGetState through
// cudaGetDriverEntryPointByVersion: libstride does not link the driver).
const DeviceRuntime& cuda_device_runtime();

class DeviceGuard {
 public:
  // Throws ST_ERROR_DEVICE_FAILURE when `device` cannot be made current.
  explicit DeviceGuard(int device, const DeviceRuntime& runtime = cuda_device_runtime());
  // Never throws, for code with nobody to report to (a storage's release):
  // entered() says whether `device` is current.
  DeviceGuard(int device, std::nothrow_t, const DeviceRuntime& runtime = cuda_device_runtime()) noexcept;
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

  bool entered() const { return entered_; }

 private:
  cudaError_t enter(int device) noexcept;

  const DeviceRuntime& runtime_;
  int previous_ = -1;
  bool changed_ = false;
  bool entered_ = false;
};

}  // namespace cuda
}  // namespace st
