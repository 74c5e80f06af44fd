#include "cuda/runtime/host_keepalive.h"

#include <utility>

#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/stream_capture.h"

namespace st {
namespace cuda {
namespace {

// Never destroyed: storages released during exit would call into a runtime
// that is already unloading.
KeepaliveList& keepalives() {
  static KeepaliveList* k = new KeepaliveList(KeepaliveList::Runtime{cudaEventQuery, cudaEventDestroy, cuda_device_runtime()});
  return *k;
}

}  // namespace

void KeepaliveList::add(cudaEvent_t event, int device, Storage storage) {
  std::vector<Storage> released;  // freed outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  drop_completed_locked(released);
  pending_.push_back(Pending{event, device, std::move(storage)});
}

void KeepaliveList::drop_completed() {
  std::vector<Storage> released;
  std::lock_guard<std::mutex> lock(mutex_);
  drop_completed_locked(released);
}

size_t KeepaliveList::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_.size();
}

// An event that reports an error (a failed device) will never complete;
// the device no longer reads the memory, so it is dropped as well.
void KeepaliveList::drop_completed_locked(std::vector<Storage>& released) {
  if (pending_.empty()) return;
  // Note [Copies during stream capture]: a query must not break another thread's capture.
  CaptureModeGuard relaxed(cudaStreamCaptureModeRelaxed);
  size_t kept = 0;
  for (Pending& p : pending_) {
    DeviceGuard guard(p.device, std::nothrow, runtime_.devices);
    const cudaError_t err = guard.entered() ? runtime_.query(p.event) : cudaErrorInvalidDevice;
    if (err == cudaErrorNotReady) {
      // Not an error, but the runtime may still record it as the last one
      // (PyTorch's CUDAEvent::query clears it too); later launch checks read that.
      (void)cudaGetLastError();
      if (&pending_[kept] != &p) pending_[kept] = std::move(p);
      ++kept;
      continue;
    }
    if (err != cudaSuccess) (void)cudaGetLastError();
    if (runtime_.destroy(p.event) != cudaSuccess) (void)cudaGetLastError();
    released.push_back(std::move(p.storage));
  }
  pending_.resize(kept);
}

void keep_until_done(Storage storage, int device, cudaStream_t stream) {
  cudaEvent_t event = nullptr;
  {
    DeviceGuard guard(device);
    ST_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming));
    const cudaError_t err = cudaEventRecord(event, stream);
    if (err != cudaSuccess) {
      (void)cudaEventDestroy(event);
      throw_cuda_error(err, "cudaEventRecord(event, stream)");
    }
  }
  keepalives().add(event, device, std::move(storage));
}

void release_completed_keepalives() { keepalives().drop_completed(); }

}  // namespace cuda
}  // namespace st
