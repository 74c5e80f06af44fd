// Where a tensor's memory lives. DeviceType has the numbers of
// st_device_type (and of DLPack's DLDeviceType).
#pragma once

#include <cstdint>

#include "stride.h"

namespace st {

enum class DeviceType : int32_t {
  CPU = ST_DEVICE_CPU,
  CUDA = ST_DEVICE_CUDA,
  CUDAHost = ST_DEVICE_CUDA_HOST,  // page-locked host memory: CPU-addressable
};

struct Device {
  DeviceType type = DeviceType::CPU;
  int32_t index = 0;

  // Memory the CPU can read and write directly (CPU and pinned host).
  bool is_host() const { return type != DeviceType::CUDA; }
  bool is_cuda() const { return type == DeviceType::CUDA; }
  friend bool operator==(Device a, Device b) { return a.type == b.type && a.index == b.index; }
  friend bool operator!=(Device a, Device b) { return !(a == b); }
};

inline Device cpu_device() { return Device{DeviceType::CPU, 0}; }

// "cpu", "cuda", "cuda_host" or "unknown".
const char* device_type_name(int32_t type);

}  // namespace st
