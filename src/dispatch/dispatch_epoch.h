// The dispatch epoch: a process-wide counter bumped after every change that
// can change which kernel a call reaches (see Note [Dispatch table epoch]
// in dispatch/operator_entry.h).
#pragma once

#include <atomic>
#include <cstdint>

#include "core/macros.h"

namespace st {
namespace dispatch {

extern std::atomic<uint64_t> g_dispatch_epoch;

ST_FORCE_INLINE uint64_t dispatch_epoch() { return g_dispatch_epoch.load(std::memory_order_acquire); }

// Called after a change is stored, so that a reader who sees the new epoch
// sees the change.
inline void bump_dispatch_epoch() { g_dispatch_epoch.fetch_add(1, std::memory_order_acq_rel); }

}  // namespace dispatch
}  // namespace st
