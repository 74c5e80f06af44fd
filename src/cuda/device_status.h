// How many CUDA devices this process can use, and if none, why. Asked of
// the runtime once (as PyTorch's device_count): a machine does not gain a
// driver or a GPU while a process runs.
#pragma once

#include <string>

#include "core/device.h"

namespace st {
namespace cuda {

struct DeviceStatus {
  int count = 0;
  // Empty when count > 0; else says why there is no device: "no CUDA driver
  // is installed", "the CUDA driver is too old ...", "no CUDA device is
  // present ..." or the runtime's own error.
  std::string reason;
};

// Never throws (std::bad_alloc aside).
const DeviceStatus& device_status();

// Throws ST_ERROR_DEVICE_UNAVAILABLE unless `device` (CUDA, or CUDAHost whose
// index names the device that pins the memory) is a device this process has.
void check_device(Device device);

}  // namespace cuda
}  // namespace st
