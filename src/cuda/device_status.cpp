#include "cuda/device_status.h"

#include <cuda_runtime_api.h>

#include <cstdlib>

#include "core/error.h"

namespace st {
namespace cuda {
namespace {

std::string runtime_error_text(cudaError_t err) {
  return std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}

std::string version_text(int v) { return std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10); }

DeviceStatus query_device_status() {
  DeviceStatus s;
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  (void)cudaGetLastError();
  if (err == cudaSuccess && count > 0) {
    s.count = count;
    return s;
  }
  if (err == cudaSuccess || err == cudaErrorNoDevice) {
    s.reason = "no CUDA device is present";
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES")) {
      s.reason += std::string(" (CUDA_VISIBLE_DEVICES=\"") + visible + "\")";
    }
  } else if (err == cudaErrorInsufficientDriver) {
    int driver = 0, runtime = 0;
    (void)cudaDriverGetVersion(&driver);  // 0 when no driver is installed
    (void)cudaRuntimeGetVersion(&runtime);
    (void)cudaGetLastError();
    s.reason = driver == 0 ? "no CUDA driver is installed (libcuda.so.1 could not be loaded)"
                           : "the CUDA driver is too old: it supports CUDA " + version_text(driver) +
                                 ", and stride was built with the CUDA " + version_text(runtime) + " runtime";
  } else {
    s.reason = "the CUDA runtime could not start (" + runtime_error_text(err) + ")";
  }
  return s;
}

}  // namespace

const DeviceStatus& device_status() {
  static const DeviceStatus status = query_device_status();
  return status;
}

void check_device(Device device) {
  const DeviceStatus& s = device_status();
  const char* type = device_type_name(static_cast<int32_t>(device.type));
  const char* what = device.type == DeviceType::CUDAHost ? " (pinned host memory)" : "";
  ST_CHECK(device.type == DeviceType::CUDA || device.type == DeviceType::CUDAHost, ST_ERROR_INVALID_ARGUMENT,
           "device %s:%d is not a CUDA device", type, device.index);
  ST_CHECK(s.count > 0, ST_ERROR_DEVICE_UNAVAILABLE, "device %s:%d%s is unavailable: %s", type, device.index, what,
           s.reason.c_str());
  ST_CHECK(device.index >= 0 && device.index < s.count, ST_ERROR_DEVICE_UNAVAILABLE,
           "device %s:%d%s is out of range: this machine has %d CUDA device%s (indices 0 to %d)", type, device.index,
           what, s.count, s.count == 1 ? "" : "s", s.count - 1);
}

}  // namespace cuda
}  // namespace st
