// Keys added to or removed from every call: per thread (with RAII guards,
// as PyTorch's c10/core/impl/LocalDispatchKeySet.h) and process-wide.
//
// The keys of a call are
//   (keys of its tensor arguments | thread's included | global included) − thread's excluded
// (then masked by the operator's fall-through keys, see OperatorEntry).
// The global set holds BackendSelect always (PyTorch puts it in every
// thread's default included set) and Tracing while a trace callback is set.
#pragma once

#include <atomic>
#include <cstdint>

#include "dispatch/dispatch_key_set.h"

namespace st {
namespace dispatch {

// Plain words so that the thread-local needs no constructor: the hot path
// reads it with two instructions. Initial-exec TLS, because the
// general-dynamic model costs a call to __tls_get_addr per operator call.
struct RawLocalDispatchKeySet {
  uint64_t included;
  uint64_t excluded;
};
extern __thread RawLocalDispatchKeySet t_local_dispatch_key_set __attribute__((tls_model("initial-exec")));

extern std::atomic<uint64_t> g_global_included_keys;

struct LocalDispatchKeySet {
  DispatchKeySet included;
  DispatchKeySet excluded;
};

ST_FORCE_INLINE LocalDispatchKeySet local_dispatch_key_set() {
  return {DispatchKeySet(DispatchKeySet::RAW, t_local_dispatch_key_set.included),
          DispatchKeySet(DispatchKeySet::RAW, t_local_dispatch_key_set.excluded)};
}

ST_FORCE_INLINE DispatchKeySet global_included_keys() {
  return DispatchKeySet(DispatchKeySet::RAW, g_global_included_keys.load(std::memory_order_relaxed));
}

// (keys | included | global) − excluded: the keys of a call whose tensor
// arguments have `keys` (PyTorch's computeDispatchKeySet without the mask).
ST_FORCE_INLINE DispatchKeySet compute_dispatch_key_set(DispatchKeySet keys) {
  const LocalDispatchKeySet local = local_dispatch_key_set();
  return (keys | local.included | global_included_keys()) - local.excluded;
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
