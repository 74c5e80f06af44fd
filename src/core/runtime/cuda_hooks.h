// What the rest of the library may ask about CUDA without linking it
// (as PyTorch's CUDAHooksInterface). The defaults answer for a build
// without CUDA: no devices, and every other call throws
// ST_ERROR_DEVICE_UNAVAILABLE. The CUDA backend (src/cuda/runtime/hooks.cpp)
// installs its own at load time.
#pragma once

#include <cstddef>

#include "core/device.h"
#include "core/storage.h"

namespace st {

class CudaHooks {
 public:
  virtual ~CudaHooks() = default;
  virtual bool is_built() const { return false; }
  // 0 without CUDA support, a driver or a GPU; never throws.
  virtual int device_count() const { return 0; }
  // Throws ST_ERROR_DEVICE_UNAVAILABLE saying why `device` (CUDA or pinned
  // host) cannot be used: not built in, no driver, no device, index out of range.
  virtual void check_device(Device device) const;
  // Checks `device` as check_device does, then that the `nbytes` bytes at
  // `base` are memory of that device (a wrapped pointer, see
  // cuda/runtime/foreign_memory.h): ST_ERROR_INVALID_ARGUMENT naming `name` if not.
  virtual void check_foreign_memory(const void* base, size_t nbytes, Device device, const char* name) const;
  // That the `nbytes` bytes at `base`, wrapped as CPU memory, are not CUDA
  // device memory (cuda/runtime/foreign_memory.h): ST_ERROR_INVALID_ARGUMENT naming
  // `name` if they are. Nothing to check without CUDA, and never
  // ST_ERROR_DEVICE_UNAVAILABLE: the CPU is always there.
  virtual void check_host_memory(const void* base, size_t nbytes, const char* name) const;

  // Each of these first checks CUDA device `index` as check_device does.
  // This thread's current stream on the device (a cudaStream_t; NULL is the
  // default stream), and setting it (the caller's own stream, or NULL).
  virtual void* current_stream(int32_t index) const;
  virtual void set_stream(int32_t index, void* stream) const;
  // Waits until all work queued on the device has finished.
  virtual void synchronize(int32_t index) const;
  // Gives back the memory stride keeps for reuse: the unused memory of the
  // device's pool and the free pinned host blocks.
  virtual void empty_cache(int32_t index) const;
  // `nbytes` of device memory on `device` (allocated and later freed in the
  // order of this thread's current stream), or of pinned host memory for a
  // CUDAHost device. Zero bytes allocate nothing.
  virtual Storage allocate(size_t nbytes, Device device) const;
};

const CudaHooks& cuda_hooks();
// Called once by the CUDA backend's static initializer.
void install_cuda_hooks(const CudaHooks* hooks);

}  // namespace st
