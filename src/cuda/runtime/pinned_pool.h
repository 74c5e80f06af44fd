// The pool of page-locked host blocks that pinned storages come from.
//
// Note [Pinned block pool]
// cudaHostAlloc and cudaFreeHost both synchronize the whole device, so a
// non_blocking copy staged through a freshly pinned buffer would wait for
// every stream, and so would releasing a pinned tensor. Pinned memory
// (CUDA_HOST tensors and the staging buffers of copies) therefore comes
// from a pool of blocks, as PyTorch's CachingHostAllocator:
//  - a request is rounded up to a power of two (at least 4 KiB) and served
//    from the free blocks of that size, or else by cudaHostAlloc;
//  - a released block goes back to the free blocks of its size, whatever
//    its size: freeing it there would synchronize the device inside the
//    non_blocking copy (or the tensor release) that let go of it, and the
//    next copy of that size would pin a new block, synchronizing again;
//  - the free blocks beyond the cap (kPinnedCacheCap, 256 MiB of free
//    bytes), largest first, are freed with cudaFreeHost by
//    st_cuda_synchronize, which waits for the device anyway; between two
//    synchronizations the pool keeps every block it made (as PyTorch's
//    keeps them until empty_cache);
//  - a block is released when its storage dies, which is after every copy
//    that used it has run: a blocking copy synchronizes its stream before
//    returning, and a non_blocking one keeps the storages it reads or
//    writes alive until an event after it has completed
//    (cuda/runtime/host_keepalive.h). A free block is never in use by a device;
//  - st_cuda_empty_cache frees every free block, and so does an allocation
//    that cudaHostAlloc refuses, before it asks again.
// Memory in use is not capped: that is the tensors the program holds.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

namespace st {
namespace cuda {

constexpr size_t kPinnedCacheCap = size_t{256} << 20;
constexpr size_t kPinnedMinBlock = size_t{4} << 10;

// The block size a request of `nbytes` (> 0) takes: a power of two >= 4 KiB,
// or `nbytes` itself when that would not fit size_t.
size_t pinned_block_size(size_t nbytes);

class PinnedPool {
 public:
  // How blocks are made and given back (cudaHostAlloc portable and
  // cudaFreeHost; tests count calls with their own).
  struct Backend {
    cudaError_t (*alloc)(void** ptr, size_t nbytes);
    cudaError_t (*free)(void* ptr);
  };

  PinnedPool(size_t cap, Backend backend) : cap_(cap), backend_(backend) {}
  PinnedPool(const PinnedPool&) = delete;
  PinnedPool& operator=(const PinnedPool&) = delete;

  // A block of at least `nbytes` (> 0) bytes; *block_bytes receives its size,
  // which release() wants back. Throws ST_ERROR_OUT_OF_MEMORY or
  // ST_ERROR_DEVICE_FAILURE.
  void* allocate(size_t nbytes, size_t* block_bytes);
  // The block is no longer used by anyone, the device included. Kept for
  // reuse: nothing is freed here. False when there was no memory to keep
  // it: then the caller frees it with free_block.
  bool release(void* ptr, size_t block_bytes) noexcept;

  // These free blocks (cudaFreeHost), which needs a current device whose
  // context exists: on a thread with none, the runtime would make one on
  // device 0. Callers hold a DeviceGuard of the device they work for.
  //
  // Frees free blocks, largest first, until at most the cap's bytes are
  // free; returns how many bytes that gave back.
  size_t trim_to_cap() noexcept;
  // Frees every free block; returns how many bytes that gave back.
  size_t trim() noexcept;
  // Frees one block that is not in the pool.
  void free_block(void* ptr) noexcept;

  size_t cached_bytes() const;

 private:
  size_t trim_to(size_t keep) noexcept;

  const size_t cap_;
  const Backend backend_;
  mutable std::mutex mutex_;
  std::map<size_t, std::vector<void*>> free_;  // by block size
  size_t cached_ = 0;
};

// The process's pool (cap kPinnedCacheCap). Never destroyed: pinned
// storages released during exit still return their blocks to it.
PinnedPool& pinned_pool();

}  // namespace cuda
}  // namespace st
