// Keys added to or removed from every call: per thread (with RAII guards,
// as PyTorch's c10/core/impl/LocalDispatchKeySet.h) and process-wide.
//
// The keys of a call are
//   (keys of its tensor arguments | thread's included | global included) − thread's excluded
// The global set holds Tracing while a trace callback is set.
//
// Note [Reading thread-local keys]
// Reading a thread-local from a shared library costs a call to
// __tls_get_addr (the initial-exec model avoids it but takes static TLS,
// which can make dlopen fail), and almost no call has thread-local keys.
// So the guards also count themselves in a process-wide counter, and a call
// reads its thread's keys only while that counter is non-zero. A thread
// with a guard always sees its own increment, so its calls read its keys;
// other threads may read theirs needlessly (they are empty) but never skip
// keys they have.
#pragma once

#include <atomic>
#include <cstdint>

#include "dispatch/dispatch_key_set.h"

namespace st {
namespace dispatch {

struct alignas(64) GlobalDispatchState {
  std::atomic<uint64_t> included;      // DispatchKeySet bits
  std::atomic<int64_t> active_guards;  // include/exclude guards alive on all threads
};
extern GlobalDispatchState g_dispatch_state;

struct LocalDispatchKeySet {
  DispatchKeySet included;
  DispatchKeySet excluded;
};

// This thread's included and excluded keys.
LocalDispatchKeySet local_dispatch_key_set();

ST_FORCE_INLINE DispatchKeySet global_included_keys() {
  return DispatchKeySet(DispatchKeySet::RAW, g_dispatch_state.included.load(std::memory_order_relaxed));
}

// `keys` with this thread's included keys added and excluded ones removed.
DispatchKeySet apply_local_dispatch_keys(DispatchKeySet keys);

// (keys | included | global) − excluded: the keys of a call whose tensor
// arguments have `keys` (PyTorch's computeDispatchKeySet without the mask).
ST_FORCE_INLINE DispatchKeySet compute_dispatch_key_set(DispatchKeySet keys) {
  const DispatchKeySet with_global = keys | global_included_keys();
  if (ST_UNLIKELY(g_dispatch_state.active_guards.load(std::memory_order_relaxed) != 0)) {
    return apply_local_dispatch_keys(with_global);
  }
  return with_global;
}

// Adds `keys` to the global included set; the caller serializes changes.
void add_global_included_keys(DispatchKeySet keys);
void remove_global_included_keys(DispatchKeySet keys);

// Adds keys to this thread's included set for its lifetime.
class IncludeDispatchKeyGuard {
 public:
  explicit IncludeDispatchKeyGuard(DispatchKeySet keys);
  explicit IncludeDispatchKeyGuard(DispatchKey key) : IncludeDispatchKeyGuard(DispatchKeySet(key)) {}
  ~IncludeDispatchKeyGuard();
  IncludeDispatchKeyGuard(const IncludeDispatchKeyGuard&) = delete;
  IncludeDispatchKeyGuard& operator=(const IncludeDispatchKeyGuard&) = delete;

 private:
  uint64_t saved_;
};

// Adds keys to this thread's excluded set for its lifetime.
class ExcludeDispatchKeyGuard {
 public:
  explicit ExcludeDispatchKeyGuard(DispatchKeySet keys);
  explicit ExcludeDispatchKeyGuard(DispatchKey key) : ExcludeDispatchKeyGuard(DispatchKeySet(key)) {}
  ~ExcludeDispatchKeyGuard();
  ExcludeDispatchKeyGuard(const ExcludeDispatchKeyGuard&) = delete;
  ExcludeDispatchKeyGuard& operator=(const ExcludeDispatchKeyGuard&) = delete;

 private:
  uint64_t saved_;
};

}  // namespace dispatch
}  // namespace st
