// What the rest of the library may ask about CUDA without linking it
// (as PyTorch's CUDAHooksInterface). The default answers for a build
// without CUDA; the CUDA backend installs its own at load time.
#pragma once

#include "core/device.h"

namespace st {

class CudaHooks {
 public:
  virtual ~CudaHooks() = default;
  virtual bool is_built() const { return false; }
  // 0 without a driver or a GPU; never throws.
  virtual int device_count() const { return 0; }
  // Throws ST_ERROR_DEVICE_UNAVAILABLE saying why `device` (CUDA or pinned
  // host) cannot be used: not built in, no driver, no device, index out of range.
  virtual void check_device(Device device) const;
};

const CudaHooks& cuda_hooks();
// Called once by the CUDA backend's static initializer.
void install_cuda_hooks(const CudaHooks* hooks);

}  // namespace st
