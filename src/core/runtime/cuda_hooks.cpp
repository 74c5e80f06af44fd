#include "core/runtime/cuda_hooks.h"

#include <atomic>

#include "core/error.h"

namespace st {
namespace {

std::atomic<const CudaHooks*> g_hooks{nullptr};

[[noreturn]] void no_cuda(Device device) {
  fail(ST_ERROR_DEVICE_UNAVAILABLE, "device %s:%d needs CUDA, and this build of stride has no CUDA support",
       device_type_name(static_cast<int32_t>(device.type)), device.index);
}

Device cuda_device(int32_t index) { return Device{DeviceType::CUDA, index}; }

}  // namespace

void CudaHooks::check_device(Device device) const { no_cuda(device); }
void* CudaHooks::current_stream(int32_t index) const { no_cuda(cuda_device(index)); }
void CudaHooks::set_stream(int32_t index, void*) const { no_cuda(cuda_device(index)); }
void CudaHooks::synchronize(int32_t index) const { no_cuda(cuda_device(index)); }
void CudaHooks::empty_cache(int32_t index) const { no_cuda(cuda_device(index)); }
void CudaHooks::check_foreign_memory(const void*, size_t, Device device, const char*) const { no_cuda(device); }
void CudaHooks::check_host_memory(const void*, size_t, const char*) const {}
Storage CudaHooks::allocate(size_t, Device device) const { no_cuda(device); }

const CudaHooks& cuda_hooks() {
  // A function-local object: usable from any static initializer.
  static const CudaHooks no_cuda_hooks;
  const CudaHooks* h = g_hooks.load(std::memory_order_acquire);
  return h ? *h : no_cuda_hooks;
}

void install_cuda_hooks(const CudaHooks* hooks) { g_hooks.store(hooks, std::memory_order_release); }

}  // namespace st
