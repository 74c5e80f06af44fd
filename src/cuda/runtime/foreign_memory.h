// Checks that memory a user wraps (st_tensor_from_data, a DLPack import,
// the host side of a plan's raw execute) is what its device label says. A host pointer labelled cuda:N would fault
// in the first kernel with cudaErrorIllegalAddress, which poisons the
// context for the whole process; a device pointer labelled cpu or
// cuda_host would crash the CPU kernels. cudaPointerGetAttributes tells,
// at wrap time, what an address is.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>

#include "core/device.h"

namespace st {
namespace cuda {

// Empty when memory of the kind `attr` describes may be labelled `device`;
// else why not, naming the memory `name` = `ptr`:
//  - cuda:N takes device memory of device N, and managed memory;
//  - cuda_host takes page-locked (pinned or registered) host memory, and
//    managed memory;
//  - cpu takes every memory the host can read: all but device memory.
std::string foreign_memory_mismatch(const cudaPointerAttributes& attr, Device device, const char* name,
                                    const void* ptr);

// Throws ST_ERROR_INVALID_ARGUMENT with foreign_memory_mismatch's reason
// when the first or the last of the `nbytes` bytes at `base` is not memory
// `device` may hold (device checked with check_device first; nothing to
// check when nbytes is 0). `name` is the argument's name for the message.
void check_foreign_memory(const void* base, size_t nbytes, Device device, const char* name);

// The same for memory labelled cpu, which any process may wrap whether or
// not it uses a GPU: nothing is checked when no device has a context (no
// device memory can exist then, and asking would create one), and a query
// the runtime fails is no reason to refuse host memory.
void check_host_memory(const void* base, size_t nbytes, const char* name);

}  // namespace cuda
}  // namespace st
