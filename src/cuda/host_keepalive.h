// Keeps host memory that an asynchronous copy still reads or writes alive
// until the copy has finished, as PyTorch's caching host allocator records
// an event on a pinned block used by a non_blocking copy. A pinned tensor
// released by its user right after st_copy(..., non_blocking) would
// otherwise be freed (cudaFreeHost) under the DMA engine.
//
// An event is recorded on the stream after the copy; the storage reference
// is dropped once the event has completed. Completed entries are dropped at
// the next keep_until_done or release_completed_keepalives call (every
// cross-device copy, st_cuda_synchronize and st_cuda_empty_cache make
// one); the storages are never freed from a CUDA callback (which may not
// call the CUDA API, and releasing pinned memory may).
#pragma once

#include <cuda_runtime_api.h>

#include "core/storage.h"

namespace st {
namespace cuda {

// `stream` belongs to CUDA device `device`.
void keep_until_done(Storage storage, int device, cudaStream_t stream);

// Drops the storages whose copies have finished.
void release_completed_keepalives();

}  // namespace cuda
}  // namespace st
