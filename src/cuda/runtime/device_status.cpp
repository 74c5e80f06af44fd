#include "cuda/runtime/device_status.h"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <sstream>

#include "core/error.h"
#include "core/runtime/platform/platform.h"

#ifndef STRIDE_CUDA_IMAGES
#define STRIDE_CUDA_IMAGES ""
#endif

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

// Note [CUDA in a forked child]: set in the child by the fork handler,
// which registers before the first query, at load time (no CUDA call).
std::atomic<bool> g_queried{false};
std::atomic<bool> g_forked_child{false};
std::atomic<bool> g_parent_queried{false};

void on_fork_child() {
  g_parent_queried.store(g_queried.load());
  g_forked_child.store(true);
}

struct ForkHandler {
  ForkHandler() { platform::on_fork_in_child(on_fork_child); }
};
const ForkHandler g_fork_handler;

const DeviceStatus& parent_status() {
  static const DeviceStatus status = [] {
    DeviceStatus s = query_device_status();
    g_queried.store(true);
    return s;
  }();
  return status;
}

const DeviceStatus& child_status() {
  static const DeviceStatus status = [] {
    if (g_parent_queried.load()) return status_in_forked_child(parent_status());
    DeviceStatus s = parent_status();  // first asked here, in the child
    if (s.count == 0) s.reason = with_fork_note(s.reason);
    return s;
  }();
  return status;
}

// Note [Architectures and images]: per device, 0 unknown, 1 runs, 2 does not.
void check_images(int index) {
  static const std::unique_ptr<std::atomic<int>[]> verdicts(new std::atomic<int>[device_status().count]());
  const int verdict = verdicts[index].load(std::memory_order_relaxed);
  if (verdict == 1) return;
  int major = 0, minor = 0;
  if (verdict == 0) {
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index) != cudaSuccess) {
      (void)cudaGetLastError();
      return;  // the launch will tell
    }
    const bool runs = images_run_on(built_images(), major * 10 + minor);
    verdicts[index].store(runs ? 1 : 2, std::memory_order_relaxed);
    if (runs) return;
  } else {
    (void)cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index);
    (void)cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index);
    (void)cudaGetLastError();
  }
  fail(ST_ERROR_DEVICE_UNAVAILABLE,
       "device cuda:%d has compute capability %d.%d, which none of this build's kernel images runs on (%s): "
       "rebuild stride with CMAKE_CUDA_ARCHITECTURES naming %d%d",
       index, major, minor, built_images(), major, minor);
}

}  // namespace

DeviceStatus status_in_forked_child(const DeviceStatus& parent) {
  if (parent.count == 0) return parent;
  DeviceStatus s;
  s.reason =
      "this process is a child forked after CUDA was initialized in its parent, and the CUDA runtime cannot be "
      "used after fork(): start the child with exec (Python multiprocessing: the 'spawn' start method)";
  return s;
}

std::string with_fork_note(const std::string& reason) {
  return reason +
         "; this process is a forked child, and if its parent had initialized CUDA, the CUDA runtime cannot be used "
         "here: start the child with exec (Python multiprocessing: the 'spawn' start method)";
}

bool images_run_on(const std::string& images, int capability) {
  if (images.empty()) return true;
  std::istringstream list(images);
  std::string image;
  while (std::getline(list, image, ',')) {
    const bool sass = image.rfind("sm_", 0) == 0, ptx = image.rfind("compute_", 0) == 0;
    if (!sass && !ptx) continue;
    const std::string rest = image.substr(sass ? 3 : 8);
    size_t digits = 0;
    while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
    if (digits < 2) continue;
    const int arch = std::atoi(rest.substr(0, digits).c_str());
    const std::string suffix = rest.substr(digits);
    if (suffix == "a") {
      if (arch == capability) return true;  // architecture-specific: that one only
    } else if (ptx) {
      if (capability >= arch) return true;  // the driver compiles PTX for newer devices
    } else if (capability / 10 == arch / 10 && capability >= arch) {
      return true;  // SASS runs within its major version, from its minor up
    }
  }
  return false;
}

const char* built_images() { return STRIDE_CUDA_IMAGES; }

const DeviceStatus& device_status() {
  if (g_forked_child.load(std::memory_order_relaxed)) return child_status();
  return parent_status();
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
  if (device.type == DeviceType::CUDA) check_images(device.index);
}

}  // namespace cuda
}  // namespace st
