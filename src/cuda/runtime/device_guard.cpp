#include "cuda/runtime/device_guard.h"

#include <cuda.h>

#include "cuda/runtime/cuda_error.h"

namespace st {
namespace cuda {
namespace {

using PrimaryCtxGetState = CUresult (*)(CUdevice device, unsigned int* flags, int* active);

PrimaryCtxGetState load_primary_ctx_get_state() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  const cudaError_t err =
      cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &fn, 12000, cudaEnableDefault, &found);
  if (err != cudaSuccess || found != cudaDriverEntryPointSuccess) {
    (void)cudaGetLastError();
    return nullptr;
  }
  return reinterpret_cast<PrimaryCtxGetState>(fn);
}

// Runtime device ordinals are the driver's (both count the devices
// CUDA_VISIBLE_DEVICES leaves), as PyTorch's hasPrimaryContext assumes.
bool runtime_has_primary_context(int device) {
  static const PrimaryCtxGetState get_state = load_primary_ctx_get_state();
  if (get_state == nullptr) return true;  // cannot tell: restore, as before
  unsigned int flags = 0;
  int active = 0;
  if (get_state(static_cast<CUdevice>(device), &flags, &active) != CUDA_SUCCESS) return true;
  return active != 0;
}

}  // namespace

const DeviceRuntime& cuda_device_runtime() {
  static const DeviceRuntime runtime{cudaGetDevice, cudaSetDevice, runtime_has_primary_context};
  return runtime;
}

cudaError_t DeviceGuard::enter(int device) noexcept {
  cudaError_t err = runtime_.get_device(&previous_);
  if (err != cudaSuccess) return err;
  if (previous_ != device) {
    err = runtime_.set_device(device);
    if (err != cudaSuccess) return err;
    changed_ = true;
  }
  entered_ = true;
  return cudaSuccess;
}

DeviceGuard::DeviceGuard(int device, const DeviceRuntime& runtime) : runtime_(runtime) {
  const cudaError_t err = enter(device);
  if (err != cudaSuccess) throw_cuda_error(err, "making the device current (cudaGetDevice, cudaSetDevice)");
}

DeviceGuard::DeviceGuard(int device, std::nothrow_t, const DeviceRuntime& runtime) noexcept : runtime_(runtime) {
  if (enter(device) != cudaSuccess) (void)cudaGetLastError();
}

DeviceGuard::~DeviceGuard() {
  // Note [Restoring the current device]. Restoring cannot fail for a device
  // whose context exists; a destructor has nobody to report to anyway.
  if (changed_ && runtime_.has_primary_context(previous_) && runtime_.set_device(previous_) != cudaSuccess)
    (void)cudaGetLastError();
}

}  // namespace cuda
}  // namespace st
