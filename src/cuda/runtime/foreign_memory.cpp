#include "cuda/runtime/foreign_memory.h"

#include <cstdio>

#include "core/error.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/stream_capture.h"

namespace st {
namespace cuda {
namespace {

std::string format(const char* fmt, const char* name, const void* ptr, int a, int b = 0) {
  char text[256];
  std::snprintf(text, sizeof text, fmt, name, ptr, a, b);
  return text;
}

}  // namespace

std::string foreign_memory_mismatch(const cudaPointerAttributes& attr, Device device, const char* name,
                                    const void* ptr) {
  const int index = device.index;
  if (attr.type == cudaMemoryTypeManaged) return {};
  if (device.type == DeviceType::CPU) {
    if (attr.type != cudaMemoryTypeDevice) return {};
    return format("%s = %p is memory of device cuda:%d, not host memory (device type cpu)", name, ptr, attr.device);
  }
  if (device.type == DeviceType::CUDA) {
    switch (attr.type) {
      case cudaMemoryTypeDevice:
        if (attr.device == index) return {};
        return format("%s = %p is memory of device cuda:%d, not of cuda:%d", name, ptr, attr.device, index);
      case cudaMemoryTypeHost:
        return format("%s = %p is page-locked host memory (device type cuda_host), not memory of device cuda:%d", name,
                      ptr, index);
      default:
        return format("%s = %p is host memory that CUDA does not know (device type cpu), not memory of device cuda:%d",
                      name, ptr, index);
    }
  }
  switch (attr.type) {
    case cudaMemoryTypeHost:
      return {};
    case cudaMemoryTypeDevice:
      return format("%s = %p is memory of device cuda:%d, not page-locked host memory (device type cuda_host:%d)", name,
                    ptr, attr.device, index);
    default:
      return format(
          "%s = %p is host memory that is not page-locked: pin it with cudaHostRegister, or label it cpu, not "
          "cuda_host:%d",
          name, ptr, index);
  }
}

namespace {

// Throws when the first or the last of the `nbytes` (> 0) bytes at `base`
// is not memory `device` may hold; the caller has made a device current.
// A query the runtime fails throws too, or with `lenient` accepts the memory.
void check_ends(const void* base, size_t nbytes, Device device, const char* name, bool lenient) {
  // A pure query, which a graph being captured on any thread cannot mind
  // (st_copy_plan_execute_raw checks its addresses inside captures too):
  // relaxed, so that the runtime's capture rules never refuse it.
  CaptureModeGuard relaxed(cudaStreamCaptureModeRelaxed);
  const char* const bytes = static_cast<const char*>(base);
  for (const char* at : {bytes, bytes + (nbytes - 1)}) {
    cudaPointerAttributes attr;
    const cudaError_t err = cudaPointerGetAttributes(&attr, at);
    if (err != cudaSuccess) {
      if (!lenient) throw_cuda_error(err, "cudaPointerGetAttributes(&attr, at)");
      (void)cudaGetLastError();
      return;
    }
    const std::string why = foreign_memory_mismatch(attr, device, name, at);
    ST_CHECK(why.empty(), ST_ERROR_INVALID_ARGUMENT, "%s", why.c_str());
  }
}

}  // namespace

void check_foreign_memory(const void* base, size_t nbytes, Device device, const char* name) {
  check_device(device);
  if (nbytes == 0) return;
  DeviceGuard guard(device.index);
  check_ends(base, nbytes, device, name, false);
}

void check_host_memory(const void* base, size_t nbytes, const char* name) {
  const int count = device_status().count;
  if (count == 0 || nbytes == 0) return;
  int with_context = -1;
  for (int d = 0; d < count && with_context < 0; ++d) {
    if (cuda_device_runtime().has_primary_context(d)) with_context = d;
  }
  if (with_context < 0) return;
  DeviceGuard guard(with_context, std::nothrow);
  if (guard.entered()) check_ends(base, nbytes, cpu_device(), name, true);
}

}  // namespace cuda
}  // namespace st
