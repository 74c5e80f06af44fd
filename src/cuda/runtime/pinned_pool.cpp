#include "cuda/runtime/pinned_pool.h"

#include <cstdint>

#include "cuda/runtime/cuda_error.h"

namespace st {
namespace cuda {
namespace {

cudaError_t host_alloc_portable(void** ptr, size_t nbytes) { return cudaHostAlloc(ptr, nbytes, cudaHostAllocPortable); }

}  // namespace

size_t pinned_block_size(size_t nbytes) {
  size_t block = kPinnedMinBlock;
  while (block < nbytes) {
    if (block > SIZE_MAX / 2) return nbytes;
    block *= 2;
  }
  return block;
}

void* PinnedPool::allocate(size_t nbytes, size_t* block_bytes) {
  const size_t block = pinned_block_size(nbytes);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(block);
    if (it != free_.end() && !it->second.empty()) {
      void* ptr = it->second.back();
      it->second.pop_back();
      cached_ -= block;
      *block_bytes = block;
      return ptr;
    }
  }
  void* ptr = nullptr;
  cudaError_t err = backend_.alloc(&ptr, block);
  if (err == cudaErrorMemoryAllocation && trim() > 0) {
    (void)cudaGetLastError();
    err = backend_.alloc(&ptr, block);  // the cached blocks may have been in the way
  }
  if (err != cudaSuccess) throw_cuda_error(err, "cudaHostAlloc(&ptr, nbytes, cudaHostAllocPortable)");
  *block_bytes = block;
  return ptr;
}

bool PinnedPool::release(void* ptr, size_t block_bytes) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  try {
    free_[block_bytes].push_back(ptr);
    cached_ += block_bytes;
    return true;
  } catch (...) {
    return false;  // no memory for the list entry
  }
}

void PinnedPool::free_block(void* ptr) noexcept {
  if (backend_.free(ptr) != cudaSuccess) (void)cudaGetLastError();
}

size_t PinnedPool::trim_to(size_t keep) noexcept {
  std::vector<void*> blocks;
  size_t bytes = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    // Largest first: the fewest cudaFreeHost calls for the bytes given back.
    for (auto it = free_.rbegin(); it != free_.rend() && cached_ > keep; ++it) {
      std::vector<void*>& of_size = it->second;
      while (!of_size.empty() && cached_ > keep) {
        try {
          blocks.push_back(of_size.back());
        } catch (...) {
          break;  // no memory for the list: keep the rest for now
        }
        of_size.pop_back();
        cached_ -= it->first;
        bytes += it->first;
      }
    }
  }
  for (void* ptr : blocks) free_block(ptr);
  return bytes;
}

size_t PinnedPool::trim() noexcept { return trim_to(0); }

size_t PinnedPool::trim_to_cap() noexcept { return trim_to(cap_); }

size_t PinnedPool::cached_bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cached_;
}

PinnedPool& pinned_pool() {
  static PinnedPool* pool = new PinnedPool(kPinnedCacheCap, PinnedPool::Backend{host_alloc_portable, cudaFreeHost});
  return *pool;
}

}  // namespace cuda
}  // namespace st
