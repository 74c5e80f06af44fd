#include "core/cuda_hooks.h"

#include <atomic>

#include "core/error.h"

namespace st {
namespace {

const CudaHooks g_no_cuda;
std::atomic<const CudaHooks*> g_hooks{nullptr};

}  // namespace

void CudaHooks::check_device(Device device) const {
  fail(ST_ERROR_DEVICE_UNAVAILABLE, "device %s:%d needs CUDA, and this build of stride has no CUDA support",
       device_type_name(static_cast<int32_t>(device.type)), device.index);
}

const CudaHooks& cuda_hooks() {
  const CudaHooks* h = g_hooks.load(std::memory_order_acquire);
  return h ? *h : g_no_cuda;
}

void install_cuda_hooks(const CudaHooks* hooks) { g_hooks.store(hooks, std::memory_order_release); }

}  // namespace st
