#include "dispatch/local_dispatch_key_set.h"

#include "dispatch/dispatch_epoch.h"

namespace st {
namespace dispatch {
namespace {

struct RawLocalDispatchKeySet {
  uint64_t included;
  uint64_t excluded;
};
thread_local RawLocalDispatchKeySet t_local = {0, 0};

}  // namespace

GlobalDispatchState g_dispatch_state = {{0}, {0}};

LocalDispatchKeySet local_dispatch_key_set() {
  return {DispatchKeySet(DispatchKeySet::RAW, t_local.included), DispatchKeySet(DispatchKeySet::RAW, t_local.excluded)};
}

DispatchKeySet apply_local_dispatch_keys(DispatchKeySet keys) {
  const LocalDispatchKeySet local = local_dispatch_key_set();
  return (keys | local.included) - local.excluded;
}

void add_global_included_keys(DispatchKeySet keys) {
  g_dispatch_state.included.fetch_or(keys.raw_repr(), std::memory_order_relaxed);
  bump_dispatch_epoch();
}

void remove_global_included_keys(DispatchKeySet keys) {
  g_dispatch_state.included.fetch_and(~keys.raw_repr(), std::memory_order_relaxed);
  bump_dispatch_epoch();
}

// See Note [Reading thread-local keys]: count first, then change the keys;
// restore the keys, then uncount.
IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet keys) : saved_(t_local.included) {
  g_dispatch_state.active_guards.fetch_add(1, std::memory_order_relaxed);
  t_local.included = saved_ | keys.raw_repr();
}

IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() {
  t_local.included = saved_;
  g_dispatch_state.active_guards.fetch_sub(1, std::memory_order_relaxed);
}

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet keys) : saved_(t_local.excluded) {
  g_dispatch_state.active_guards.fetch_add(1, std::memory_order_relaxed);
  t_local.excluded = saved_ | keys.raw_repr();
}

ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() {
  t_local.excluded = saved_;
  g_dispatch_state.active_guards.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace dispatch
}  // namespace st
