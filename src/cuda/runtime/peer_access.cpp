#include "cuda/runtime/peer_access.h"

#include <algorithm>

#include "cuda/runtime/allocator.h"
#include "cuda/runtime/device_status.h"

namespace st {
namespace cuda {
namespace {

cudaError_t enable_peer(int peer) { return cudaDeviceEnablePeerAccess(peer, 0); }

cudaError_t grant_pool(int owner, int accessor) {
  cudaMemAccessDesc access = {};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = accessor;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  try {
    return cudaMemPoolSetAccess(device_pool(owner), &access, 1);
  } catch (...) {
    return cudaErrorMemoryAllocation;  // the pool could not be made: nothing to grant
  }
}

}  // namespace

bool PeerAccess::enable(int a, int b) {
  std::lock_guard<std::mutex> lock(mutex_);
  State& state = state_[static_cast<size_t>(std::min(a, b)) * count_ + std::max(a, b)];
  if (state == kUnknown) state = enable_both_ways(a, b) ? kEnabled : kUnavailable;
  return state == kEnabled;
}

bool PeerAccess::enable_both_ways(int a, int b) {
  int a_to_b = 0, b_to_a = 0;
  if (runtime_.can_access(&a_to_b, a, b) != cudaSuccess || runtime_.can_access(&b_to_a, b, a) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a_to_b && b_to_a && enable_from(a, b) && enable_from(b, a);
}

bool PeerAccess::enable_from(int device, int peer) {
  DeviceGuard guard(device, std::nothrow, runtime_.devices);
  if (!guard.entered()) return false;
  const cudaError_t enabled = runtime_.enable(peer);
  if (enabled != cudaSuccess) {
    (void)cudaGetLastError();  // the application's own enabling is as good as ours
    if (enabled != cudaErrorPeerAccessAlreadyEnabled) return false;
  }
  // `device`'s pool lets `peer` in, as the peer's context now lets `device`'s in.
  if (runtime_.grant_pool(device, peer) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return true;
}

PeerAccess& peer_access() {
  // Never destroyed, as the device pools it grants.
  static PeerAccess* access =
      new PeerAccess(device_status().count, PeerAccess::Runtime{cudaDeviceCanAccessPeer, enable_peer, grant_pool,
                                                                 cuda_device_runtime()});
  return *access;
}

}  // namespace cuda
}  // namespace st
