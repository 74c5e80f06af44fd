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
  // present ...", a forked child's (Note [CUDA in a forked child]) or the
  // runtime's own error.
  std::string reason;
};

// Never throws (std::bad_alloc aside).
const DeviceStatus& device_status();

// Throws ST_ERROR_DEVICE_UNAVAILABLE unless `device` (CUDA, or CUDAHost whose
// index names the device that pins the memory) is a device this process has
// and, for CUDA, one whose compute capability runs the kernels this build
// holds (Note [Architectures and images]).
void check_device(Device device);

// Note [CUDA in a forked child]
// The CUDA runtime cannot be used in a child forked after the parent
// initialized it: every call fails there with an initialization error. A
// child of a parent in which stride had found devices therefore has none,
// and says why; a child whose parent had not asked stride yet asks the
// runtime itself, and a failure is reported with a word about the fork.
// (PyTorch answers the same way: "Cannot re-initialize CUDA in forked
// subprocess".)
DeviceStatus status_in_forked_child(const DeviceStatus& parent);
std::string with_fork_note(const std::string& reason);

// Note [Architectures and images]
// The library holds device code for the architectures it was built for
// (docs/cuda.md): SASS for some ("sm_80", which runs on every 8.x device
// from 8.0 up), and PTX ("compute_75"), which the driver compiles for any
// device of that compute capability or newer. A device none of them runs
// on would accept allocations and fail at the first launch with
// cudaErrorNoKernelImageForDevice, so check_device refuses it up front.
// `images` lists them, comma-separated ("sm_75,sm_80,compute_75"; "sm_90a"
// runs on 9.0 only); an empty list is not checked (builds for "all" or
// "native"). `capability` is major * 10 + minor.
bool images_run_on(const std::string& images, int capability);

// The images this build holds, as above.
const char* built_images();

}  // namespace cuda
}  // namespace st
