#include "cuda/runtime/allocator.h"

#include <atomic>
#include <memory>
#include <mutex>

#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_frees.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/pinned_pool.h"
#include "cuda/runtime/stream.h"

namespace st {
namespace cuda {
namespace {

struct DevicePools {
  std::unique_ptr<std::once_flag[]> once;
  std::unique_ptr<std::atomic<cudaMemPool_t>[]> pool;
};

DevicePools& device_pools() {
  // Never destroyed: storages released during exit may still free into them.
  static DevicePools* pools = [] {
    const size_t n = static_cast<size_t>(device_status().count);
    return new DevicePools{std::make_unique<std::once_flag[]>(n), std::make_unique<std::atomic<cudaMemPool_t>[]>(n)};
  }();
  return *pools;
}

// Note [The library's own device pool]. `device` is current.
cudaMemPool_t create_pool(int device) {
  int supported = 0;
  ST_CUDA_CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device));
  ST_CHECK(supported != 0, ST_ERROR_DEVICE_UNAVAILABLE,
           "device cuda:%d does not support the stream-ordered allocator (cudaMallocAsync)", device);
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.handleTypes = cudaMemHandleTypeNone;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = device;
  cudaMemPool_t pool = nullptr;
  ST_CUDA_CHECK(cudaMemPoolCreate(&pool, &props));
  uint64_t threshold = UINT64_MAX;
  const cudaError_t err = cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  if (err != cudaSuccess) {
    (void)cudaMemPoolDestroy(pool);
    throw_cuda_error(err, "cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold)");
  }
  return pool;
}

// The device and the allocating thread, in the release's context word.
constexpr int kDeviceBits = 16;
void* device_context(int device, uint64_t thread) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(thread << kDeviceBits | static_cast<uint64_t>(device)));
}
int context_device(const MemoryRelease& r) {
  return static_cast<int>(reinterpret_cast<uintptr_t>(r.ctx) & ((uintptr_t{1} << kDeviceBits) - 1));
}
uint64_t context_thread(const MemoryRelease& r) {
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(r.ctx) >> kDeviceBits);
}

// Runs from a storage's destructor, which has nobody to report an error to.
// An error here means the runtime is already gone (cudaErrorCudartUnloading
// at process exit) or the device failed, and the memory goes with it.
// Note [Releasing memory during stream capture] says when it is freed.
void free_device(const MemoryRelease& r) noexcept {
  const cudaStream_t stream =
      stream_to_free_on(static_cast<cudaStream_t>(r.extra), context_thread(r), this_thread_id());
  device_frees().release(r.ptr, context_device(r), stream);
}

// The pinning device travels in the context word: a block the pool cannot
// keep is freed with it current (PinnedPool::free_block).
void free_pinned(const MemoryRelease& r) noexcept {
  if (pinned_pool().release(r.ptr, r.nbytes)) return;
  DeviceGuard guard(static_cast<int>(reinterpret_cast<intptr_t>(r.ctx)), std::nothrow);
  pinned_pool().free_block(r.ptr);
}

}  // namespace

cudaMemPool_t device_pool(int device) {
  DevicePools& pools = device_pools();
  // A throw leaves the flag unset: the next allocation tries again.
  std::call_once(pools.once[device], [&] { pools.pool[device].store(create_pool(device)); });
  return pools.pool[device].load();
}

uint64_t this_thread_id() {
  static std::atomic<uint64_t> next{1};
  thread_local const uint64_t id = next.fetch_add(1, std::memory_order_relaxed);
  return id;
}

cudaStream_t stream_to_free_on(cudaStream_t allocated_on, uint64_t allocating, uint64_t releasing) {
  if (allocated_on == cudaStreamPerThread && allocating != releasing) return cudaStreamLegacy;
  return allocated_on;
}

Storage allocate_device_storage(size_t nbytes, int device) {
  const Device where{DeviceType::CUDA, device};
  if (nbytes == 0) return Storage::make(nullptr, 0, where, MemoryRelease{});
  ST_CHECK(device < (1 << kDeviceBits), ST_ERROR_INTERNAL, "device index %d", device);
  DeviceGuard guard(device);
  cudaMemPool_t pool = device_pool(device);
  const cudaStream_t stream = current_stream(device);
  device_frees().free_set_aside();  // back in the pool before it is asked
  MemoryRelease release;
  release.run = free_device;
  release.nbytes = nbytes;
  release.ctx = device_context(device, this_thread_id());
  release.extra = stream;
  ST_CUDA_CHECK(cudaMallocFromPoolAsync(&release.ptr, nbytes, pool, stream));
  try {
    device_frees().allocated(release.ptr, stream);
    return Storage::make(release.ptr, nbytes, where, release);
  } catch (...) {
    free_device(release);
    throw;
  }
}

Storage allocate_pinned_storage(size_t nbytes, int device) {
  const Device where{DeviceType::CUDAHost, device};
  if (nbytes == 0) return Storage::make(nullptr, 0, where, MemoryRelease{});
  DeviceGuard guard(device);  // pinned through `device`'s context, not device 0's
  MemoryRelease release;
  release.run = free_pinned;
  release.ctx = reinterpret_cast<void*>(static_cast<intptr_t>(device));
  release.ptr = pinned_pool().allocate(nbytes, &release.nbytes);
  try {
    return Storage::make(release.ptr, nbytes, where, release);
  } catch (...) {
    free_pinned(release);
    throw;
  }
}

void empty_cache(int device) {
  device_frees().free_set_aside();
  DeviceGuard guard(device);
  DevicePools& pools = device_pools();
  if (cudaMemPool_t pool = pools.pool[device].load()) ST_CUDA_CHECK(cudaMemPoolTrimTo(pool, 0));
  pinned_pool().trim();
}

}  // namespace cuda
}  // namespace st
