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
// call the CUDA API, and releasing pinned memory may). Each event is
// queried and destroyed with its own device current: on a thread that has
// no context yet, a runtime call would otherwise create one on device 0.
#pragma once

#include <cuda_runtime_api.h>

#include <mutex>
#include <vector>

#include "core/storage.h"
#include "cuda/runtime/device_guard.h"

namespace st {
namespace cuda {

// `stream` belongs to CUDA device `device`.
void keep_until_done(Storage storage, int device, cudaStream_t stream);

// Drops the storages whose copies have finished.
void release_completed_keepalives();

// The list behind the two calls above, one per process; tests make their
// own with the runtime's answers made up.
class KeepaliveList {
 public:
  // How events are asked about and given back (cudaEventQuery,
  // cudaEventDestroy), and how their device is made current.
  struct Runtime {
    cudaError_t (*query)(cudaEvent_t event);
    cudaError_t (*destroy)(cudaEvent_t event);
    const DeviceRuntime& devices;
  };

  explicit KeepaliveList(const Runtime& runtime) : runtime_(runtime) {}
  KeepaliveList(const KeepaliveList&) = delete;
  KeepaliveList& operator=(const KeepaliveList&) = delete;

  // `event` (of CUDA device `device`, recorded after the copy) now owns
  // the wait for `storage`; completed entries are dropped first.
  void add(cudaEvent_t event, int device, Storage storage);
  void drop_completed();
  size_t pending() const;

 private:
  struct Pending {
    cudaEvent_t event;
    int device;
    Storage storage;
  };
  // With the mutex held; the storages of completed entries go to `released`.
  void drop_completed_locked(std::vector<Storage>& released);

  const Runtime runtime_;
  mutable std::mutex mutex_;
  std::vector<Pending> pending_;
};

}  // namespace cuda
}  // namespace st
