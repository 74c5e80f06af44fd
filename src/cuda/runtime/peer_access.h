// Direct copies between two GPUs.
//
// Note [Peer access between devices]
// cudaMemcpyPeerAsync moves bytes straight from one GPU to the other (over
// NVLink or PCIe) only when each device may access the other's memory;
// otherwise the driver stages the copy through host memory. That access is
// enabled per device and direction (cudaDeviceEnablePeerAccess, which
// answers cudaErrorPeerAccessAlreadyEnabled when the application enabled
// it already), and memory from a pool made with cudaMemPoolCreate does not
// follow it: the pool must grant the other device access itself
// (cudaMemPoolSetAccess; CUDA Programming Guide, "Stream-Ordered Memory
// Allocator": pool accessibility "does not follow cudaDeviceEnablePeerAccess").
// So the first copy between two devices asks cudaDeviceCanAccessPeer both
// ways and, when both answer yes, enables access both ways and grants each
// device's pool to the other; the outcome is remembered per pair, as
// PyTorch's get_p2p_access does. A pair the hardware does not allow, or on
// which enabling fails, keeps copying through the host.
#pragma once

#include <cuda_runtime_api.h>

#include <mutex>
#include <vector>

#include "cuda/runtime/device_guard.h"

namespace st {
namespace cuda {

class PeerAccess {
 public:
  // The runtime calls this makes; tests substitute their own.
  struct Runtime {
    cudaError_t (*can_access)(int* can, int device, int peer);
    // From the current device to `peer` (cudaDeviceEnablePeerAccess(peer, 0)).
    cudaError_t (*enable)(int peer);
    // The pool of `owner`, the current device, grants `accessor` read and
    // write access (cudaMemPoolSetAccess).
    cudaError_t (*grant_pool)(int owner, int accessor);
    const DeviceRuntime& devices;
  };

  PeerAccess(int device_count, const Runtime& runtime)
      : runtime_(runtime), count_(device_count), state_(static_cast<size_t>(device_count) * device_count, kUnknown) {}
  PeerAccess(const PeerAccess&) = delete;
  PeerAccess& operator=(const PeerAccess&) = delete;

  // Whether devices `a` and `b` (valid, different) access each other's
  // memory directly, enabled on the first call for the pair. Never throws
  // for the runtime's refusals: a copy without it still works.
  bool enable(int a, int b);

 private:
  enum State : signed char { kUnknown, kEnabled, kUnavailable };
  bool enable_both_ways(int a, int b);
  bool enable_from(int device, int peer);

  const Runtime runtime_;
  const int count_;
  std::mutex mutex_;
  std::vector<State> state_;  // [min * count + max]
};

// The process's, over device_status().count devices.
PeerAccess& peer_access();

}  // namespace cuda
}  // namespace st
