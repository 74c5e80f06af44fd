#include "cuda/host_keepalive.h"

#include <mutex>
#include <utility>
#include <vector>

#include "cuda/cuda_error.h"
#include "cuda/device_guard.h"
#include "cuda/stream_capture.h"

namespace st {
namespace cuda {
namespace {

struct Pending {
  cudaEvent_t event;
  Storage storage;
};

struct Keepalives {
  std::mutex mutex;
  std::vector<Pending> pending;
};

// Never destroyed: storages released during exit would call into a runtime
// that is already unloading.
Keepalives& keepalives() {
  static Keepalives* k = new Keepalives();
  return *k;
}

// With the mutex held. An event that reports an error (a failed device)
// will never complete; the device no longer reads the memory, so it is
// dropped as well.
void drop_completed(std::vector<Pending>& pending, std::vector<Storage>& released) {
  if (pending.empty()) return;
  // Note [Copies during stream capture]: a query must not break another thread's capture.
  CaptureModeGuard relaxed(cudaStreamCaptureModeRelaxed);
  size_t kept = 0;
  for (Pending& p : pending) {
    const cudaError_t err = cudaEventQuery(p.event);
    if (err == cudaErrorNotReady) {
      // Not an error, but the runtime may still record it as the last one
      // (PyTorch's CUDAEvent::query clears it too); later launch checks read that.
      (void)cudaGetLastError();
      if (&pending[kept] != &p) pending[kept] = std::move(p);
      ++kept;
      continue;
    }
    if (err != cudaSuccess) (void)cudaGetLastError();
    if (cudaEventDestroy(p.event) != cudaSuccess) (void)cudaGetLastError();
    released.push_back(std::move(p.storage));
  }
  pending.resize(kept);
}

}  // namespace

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
  std::vector<Storage> released;  // freed outside the lock
  Keepalives& k = keepalives();
  std::lock_guard<std::mutex> lock(k.mutex);
  drop_completed(k.pending, released);
  k.pending.push_back(Pending{event, std::move(storage)});
}

void release_completed_keepalives() {
  std::vector<Storage> released;
  Keepalives& k = keepalives();
  std::lock_guard<std::mutex> lock(k.mutex);
  drop_completed(k.pending, released);
}

}  // namespace cuda
}  // namespace st
