#include "ops/direct_calls.h"

namespace st {
namespace ops {
namespace detail {

std::atomic<uint64_t> g_direct_call_verdict{0};

bool check_direct_calls(uint64_t epoch) {
  using dispatch::DispatchKey;
  using dispatch::DispatchKeySet;
  // The keys of a call with CPU tensors while direct_calls_allowed()'s
  // other conditions hold.
  const DispatchKeySet keys = DispatchKeySet(DispatchKey::CPU) | DispatchKeySet(DispatchKey::BackendSelect);
  const bool allowed = contiguous_reaches_own_kernel(keys) && clone_reaches_own_kernel(keys) &&
                       empty_like_reaches_own_kernel(keys) && empty_strided_reaches_own_kernels(keys) &&
                       copy_reaches_own_kernel(keys);
  // The epoch was read before the tables: a change made meanwhile has
  // moved it on, and the next call checks again.
  g_direct_call_verdict.store((epoch << 1) | (allowed ? 1 : 0), std::memory_order_relaxed);
  return allowed;
}

}  // namespace detail
}  // namespace ops
}  // namespace st
