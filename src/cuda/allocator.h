// CUDA memory for tensors. Device memory comes from the CUDA runtime's
// stream-ordered allocator (cudaMallocAsync's pool), not a cache of our own:
// the pool already reuses freed blocks in stream order, once its release
// threshold is raised above the default of 0 (which hands memory back to
// the driver at every synchronization). Pinned host memory comes from
// cudaHostAlloc. Each storage remembers how to free itself (MemoryRelease).
#pragma once

#include <cstddef>

#include "core/storage.h"

namespace st {
namespace cuda {

// `nbytes` on CUDA device `device` (a valid index), allocated on this
// thread's current stream there; freed with cudaFreeAsync on that same
// stream when the last tensor using it is released, so work queued on it
// before the release still sees the memory. Zero bytes allocate nothing.
// Throws ST_ERROR_OUT_OF_MEMORY or ST_ERROR_DEVICE_FAILURE.
Storage allocate_device_storage(size_t nbytes, int device);

// `nbytes` of page-locked host memory, pinned through device `device` and
// usable by every device (cudaHostAllocPortable). Freed with cudaFreeHost.
Storage allocate_pinned_storage(size_t nbytes, int device);

}  // namespace cuda
}  // namespace st
