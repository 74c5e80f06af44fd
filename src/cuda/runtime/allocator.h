// CUDA memory for tensors. Device memory comes from a stream-ordered pool
// of the CUDA runtime (cudaMallocAsync's), one per device that stride
// creates for itself (Note [The library's own device pool]); pinned host
// memory from the pinned block pool (Note [Pinned block pool] in
// cuda/runtime/pinned_pool.h). Each storage remembers how to free itself
// (MemoryRelease).
//
// Note [The library's own device pool]
// A stream-ordered pool keeps freed blocks for reuse only once its release
// threshold is raised above the default of 0 (which hands memory back to
// the driver at every synchronization). Raising it on the device's default
// pool would change that pool for every other library in the process that
// uses cudaMallocAsync, so stride allocates from a pool of its own
// (cudaMemPoolCreate), by name (cudaMallocFromPoolAsync): the pool we tuned
// is the pool we use even if the application makes another pool current.
// st_cuda_empty_cache gives its unused memory back (cudaMemPoolTrimTo).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "core/storage.h"

namespace st {
namespace cuda {

// `nbytes` on CUDA device `device` (a valid index), allocated on this
// thread's current stream there, and freed with cudaFreeAsync when the last
// tensor using it is released: on that same stream, so that work queued on
// it before the release still sees the memory (Note [Freeing on the
// per-thread stream] for cudaStreamPerThread; Note [Releasing memory during
// stream capture] in cuda/runtime/device_frees.h for a release while that stream
// captures a graph). Zero bytes allocate nothing.
// Throws ST_ERROR_OUT_OF_MEMORY or ST_ERROR_DEVICE_FAILURE.
Storage allocate_device_storage(size_t nbytes, int device);

// `nbytes` of page-locked host memory, pinned through device `device` and
// usable by every device (cudaHostAllocPortable), from the pinned block pool.
Storage allocate_pinned_storage(size_t nbytes, int device);

// The pool device memory of `device` (a valid index, the current device)
// comes from (Note [The library's own device pool]), made on first use;
// its statistics tell a test whether something allocated.
cudaMemPool_t device_pool(int device);

// Gives back what the pools hold unused: the free memory of `device`'s pool
// (if stride made one) and every free pinned block.
void empty_cache(int device);

// Note [Freeing on the per-thread stream]
// cudaStreamPerThread is not a stream but a name that each thread resolves
// to its own stream. A block allocated on it by thread A and released by
// thread B must not be freed on B's per-thread stream: the pool could hand
// it out again while A's work still uses it. B frees it on the legacy
// default stream instead, which waits for all earlier work of every
// blocking stream of the device, A's per-thread stream included (it is a
// blocking stream). A itself frees on its per-thread stream, in order and
// without the legacy stream's device-wide wait. cudaStreamLegacy and the
// streams the application made name the same stream on every thread.
//
// The stream a block allocated on `allocated_on` by thread `allocating`
// is freed on when thread `releasing` releases it (thread ids from
// this_thread_id()).
cudaStream_t stream_to_free_on(cudaStream_t allocated_on, uint64_t allocating, uint64_t releasing);

// A number for the calling thread, never reused within the process.
uint64_t this_thread_id();

}  // namespace cuda
}  // namespace st
