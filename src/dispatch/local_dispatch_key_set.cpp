#include "dispatch/local_dispatch_key_set.h"

namespace st {
namespace dispatch {

__thread RawLocalDispatchKeySet t_local_dispatch_key_set __attribute__((tls_model("initial-exec"))) = {0, 0};

std::atomic<uint64_t> g_global_included_keys{DispatchKeySet(DispatchKey::BackendSelect).raw_repr()};

void add_global_included_keys(DispatchKeySet keys) {
  g_global_included_keys.fetch_or(keys.raw_repr(), std::memory_order_relaxed);
}

void remove_global_included_keys(DispatchKeySet keys) {
  g_global_included_keys.fetch_and(~keys.raw_repr(), std::memory_order_relaxed);
}

IncludeDispatchKeyGuard::IncludeDispatchKeyGuard(DispatchKeySet keys) : saved_(t_local_dispatch_key_set.included) {
  t_local_dispatch_key_set.included = saved_ | keys.raw_repr();
}

IncludeDispatchKeyGuard::~IncludeDispatchKeyGuard() { t_local_dispatch_key_set.included = saved_; }

ExcludeDispatchKeyGuard::ExcludeDispatchKeyGuard(DispatchKeySet keys) : saved_(t_local_dispatch_key_set.excluded) {
  t_local_dispatch_key_set.excluded = saved_ | keys.raw_repr();
}

ExcludeDispatchKeyGuard::~ExcludeDispatchKeyGuard() { t_local_dispatch_key_set.excluded = saved_; }

}  // namespace dispatch
}  // namespace st
