// The CUDA backend's answers to CudaHooks, installed when the library loads.
// Nothing here calls the CUDA runtime at load time: a machine without a
// driver loads libstride.so and learns "no device" on first use.
#include "core/runtime/cuda_hooks.h"

#include <cuda_runtime_api.h>

#include "cuda/runtime/allocator.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_frees.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/foreign_memory.h"
#include "cuda/runtime/host_keepalive.h"
#include "cuda/runtime/pinned_pool.h"
#include "cuda/runtime/stream.h"

namespace st {
namespace cuda {
namespace {

Device cuda_device(int32_t index) { return Device{DeviceType::CUDA, index}; }

class CudaHooksImpl final : public CudaHooks {
 public:
  bool is_built() const override { return true; }
  int device_count() const override { return device_status().count; }
  void check_device(Device device) const override { cuda::check_device(device); }
  void check_foreign_memory(const void* base, size_t nbytes, Device device, const char* name) const override {
    cuda::check_foreign_memory(base, nbytes, device, name);
  }
  void check_host_memory(const void* base, size_t nbytes, const char* name) const override {
    cuda::check_host_memory(base, nbytes, name);
  }

  void* current_stream(int32_t index) const override {
    cuda::check_device(cuda_device(index));
    return cuda::current_stream(index);
  }

  void set_stream(int32_t index, void* stream) const override {
    cuda::check_device(cuda_device(index));
    auto s = static_cast<cudaStream_t>(stream);
    if (s) {
      // Special handles (cudaStreamPerThread) name the current device's stream.
      DeviceGuard guard(index);
      int owner = -1;
      ST_CUDA_CHECK(cudaStreamGetDevice(s, &owner));
      ST_CHECK(owner == index, ST_ERROR_INVALID_ARGUMENT, "stream %p belongs to device cuda:%d, not cuda:%d", stream,
               owner, index);
    }
    set_current_stream(index, s);
  }

  void synchronize(int32_t index) const override {
    cuda::check_device(cuda_device(index));
    {
      DeviceGuard guard(index);
      ST_CUDA_CHECK(cudaDeviceSynchronize());
    }
    // The device has run every copy queued on it: the storages they kept
    // alive (and the pinned blocks under them) can go, and the free blocks
    // beyond the pool's cap with them (Note [Pinned block pool]).
    release_completed_keepalives();
    device_frees().free_set_aside();  // Note [Releasing memory during stream capture]
    DeviceGuard guard(index);
    pinned_pool().trim_to_cap();
  }

  void empty_cache(int32_t index) const override {
    cuda::check_device(cuda_device(index));
    release_completed_keepalives();
    cuda::empty_cache(index);
  }

  Storage allocate(size_t nbytes, Device device) const override {
    cuda::check_device(device);
    return device.type == DeviceType::CUDA ? allocate_device_storage(nbytes, device.index)
                                           : allocate_pinned_storage(nbytes, device.index);
  }
};

struct Installer {
  Installer() {
    // Never destroyed: storages released during exit may still ask.
    static const CudaHooksImpl* hooks = new CudaHooksImpl();
    install_cuda_hooks(hooks);
  }
};
const Installer g_installer;

}  // namespace
}  // namespace cuda
}  // namespace st
