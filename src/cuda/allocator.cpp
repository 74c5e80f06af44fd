#include "cuda/allocator.h"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include "cuda/cuda_error.h"
#include "cuda/device_guard.h"
#include "cuda/device_status.h"
#include "cuda/stream.h"

namespace st {
namespace cuda {
namespace {

// The device's default pool, with its release threshold raised once so that
// freed memory stays in the pool for reuse. We allocate from this pool by
// name (cudaMallocFromPoolAsync is cudaMallocAsync with the pool spelled
// out), so the pool we tuned is the pool we use even if the application
// makes another pool current with cudaDeviceSetMemPool.
cudaMemPool_t device_pool(int device) {
  struct Pools {
    std::unique_ptr<std::once_flag[]> once;
    std::unique_ptr<cudaMemPool_t[]> pool;
  };
  static const Pools pools = [] {
    const size_t n = static_cast<size_t>(device_status().count);
    return Pools{std::make_unique<std::once_flag[]>(n), std::make_unique<cudaMemPool_t[]>(n)};
  }();
  // A throw leaves the flag unset: the next allocation tries again.
  std::call_once(pools.once[device], [&] {
    int supported = 0;
    ST_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
    ST_CHECK(supported != 0, ST_ERROR_DEVICE_UNAVAILABLE,
             "device cuda:%d does not support the stream-ordered allocator (cudaMallocAsync)", device);
    cudaMemPool_t pool = nullptr;
    ST_CUDA_CHECK(cudaDeviceGetDefaultMemPool(&pool, device));
    uint64_t threshold = UINT64_MAX;
    ST_CUDA_CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    pools.pool[device] = pool;
  });
  return pools.pool[device];
}

void* device_context(int device) { return reinterpret_cast<void*>(static_cast<intptr_t>(device)); }
int context_device(const MemoryRelease& r) { return static_cast<int>(reinterpret_cast<intptr_t>(r.ctx)); }

// Runs from a storage's destructor, which has nobody to report an error to.
// An error here means the runtime is already gone (cudaErrorCudartUnloading
// at process exit) or the device failed, and the memory goes with it.
void free_device(const MemoryRelease& r) noexcept {
  int previous = -1;
  const int device = context_device(r);
  // cudaFreeAsync on the legacy default stream frees on the current device's.
  bool ok = cudaGetDevice(&previous) == cudaSuccess;
  if (ok && previous != device) ok = cudaSetDevice(device) == cudaSuccess;
  if (ok) ok = cudaFreeAsync(r.ptr, static_cast<cudaStream_t>(r.extra)) == cudaSuccess;
  if (previous >= 0 && previous != device && cudaSetDevice(previous) != cudaSuccess) ok = false;
  if (!ok) (void)cudaGetLastError();
}

void free_pinned(const MemoryRelease& r) noexcept {
  if (cudaFreeHost(r.ptr) != cudaSuccess) (void)cudaGetLastError();
}

}  // namespace

Storage allocate_device_storage(size_t nbytes, int device) {
  const Device where{DeviceType::CUDA, device};
  if (nbytes == 0) return Storage::make(nullptr, 0, where, MemoryRelease{});
  DeviceGuard guard(device);
  cudaMemPool_t pool = device_pool(device);
  const cudaStream_t stream = current_stream(device);
  MemoryRelease release;
  release.run = free_device;
  release.nbytes = nbytes;
  release.ctx = device_context(device);
  release.extra = stream;
  ST_CUDA_CHECK(cudaMallocFromPoolAsync(&release.ptr, nbytes, pool, stream));
  try {
    return Storage::make(release.ptr, nbytes, where, release);
  } catch (...) {
    free_device(release);
    throw;
  }
}

Storage allocate_pinned_storage(size_t nbytes, int device) {
  const Device where{DeviceType::CUDAHost, device};
  if (nbytes == 0) return Storage::make(nullptr, 0, where, MemoryRelease{});
  DeviceGuard guard(device);
  MemoryRelease release;
  release.run = free_pinned;
  release.nbytes = nbytes;
  ST_CUDA_CHECK(cudaHostAlloc(&release.ptr, nbytes, cudaHostAllocPortable));
  try {
    return Storage::make(release.ptr, nbytes, where, release);
  } catch (...) {
    free_pinned(release);
    throw;
  }
}

}  // namespace cuda
}  // namespace st
