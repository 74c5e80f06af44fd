#include "dispatch/tracing.h"

#include <atomic>
#include <mutex>
#include <thread>

#include "dispatch/local_dispatch_key_set.h"

namespace st {
namespace dispatch {
namespace {

// Note [Changing the trace callback]
// The callback is two words, (fn, ctx), that reporting threads read while
// another thread may change them; nothing is ever allocated or freed.
//  - A seqlock keeps the pair whole: g_version is odd while a change writes
//    it, and a reporter keeps a pair only if g_version was even and the same
//    before and after it read both words. Every access is sequentially
//    consistent (no fences, which ThreadSanitizer cannot follow); on x86
//    that costs the reporters nothing.
//  - Each version is an epoch; a reporter counts itself in g_reporting[epoch
//    parity] before it reads and leaves after the callback returns. The
//    change stores the new version (seq_cst), then waits until the count of
//    the epoch it replaced is zero: a reporter that validated the old
//    version incremented that count before the new version was stored, so
//    the wait sees it (Dekker's argument). Reporters of the new epoch count
//    in the other slot and cannot delay the wait.
//  - Changes from outside a callback are serialized whole (g_change_mutex),
//    so no epoch reuses a slot that is being drained. A change made from
//    inside a callback only publishes: waiting there could wait for this
//    very thread, or for another callback that waits for this one.
std::mutex g_change_mutex;   // changes from outside callbacks, publish and wait
std::mutex g_publish_mutex;  // the write of the pair itself; never held while waiting
std::atomic<uint64_t> g_version{0};
std::atomic<int64_t> g_reporting[2] = {};
std::atomic<TraceFn> g_fn{nullptr};
std::atomic<void*> g_ctx{nullptr};

// Whether this thread is inside the callback (operators called from the
// callback are not traced, so it is never nested).
thread_local bool t_in_callback = false;

int epoch_slot(uint64_t version) { return static_cast<int>((version >> 1) & 1); }

// Publishes (fn, ctx) and returns the version it replaced.
uint64_t publish(TraceFn fn, void* ctx) {
  std::lock_guard<std::mutex> lock(g_publish_mutex);
  // Calls that begin from now on skip the Tracing key.
  if (!fn) remove_global_included_keys(DispatchKeySet(DispatchKey::Tracing));
  const uint64_t version = g_version.load(std::memory_order_relaxed);
  g_version.store(version + 1, std::memory_order_seq_cst);
  g_fn.store(fn, std::memory_order_seq_cst);
  g_ctx.store(ctx, std::memory_order_seq_cst);
  g_version.store(version + 2, std::memory_order_seq_cst);
  if (fn) add_global_included_keys(DispatchKeySet(DispatchKey::Tracing));
  return version;
}

}  // namespace

void report_trace(const char* op_name, int64_t duration_ns) noexcept {
  // A report from inside the callback would nest it, and on leaving would
  // clear t_in_callback under the outer callback, whose own change of the
  // callback would then wait for itself.
  if (t_in_callback) return;
  for (;;) {
    const uint64_t version = g_version.load(std::memory_order_acquire);
    if (version & 1) {  // a change is writing the pair
      std::this_thread::yield();
      continue;
    }
    std::atomic<int64_t>& reporting = g_reporting[epoch_slot(version)];
    reporting.fetch_add(1, std::memory_order_seq_cst);
    const TraceFn fn = g_fn.load(std::memory_order_seq_cst);
    void* const ctx = g_ctx.load(std::memory_order_seq_cst);
    if (g_version.load(std::memory_order_seq_cst) != version) {
      reporting.fetch_sub(1, std::memory_order_seq_cst);
      continue;
    }
    if (fn) {
      ExcludeDispatchKeyGuard no_tracing(DispatchKey::Tracing);
      t_in_callback = true;
      fn(ctx, op_name, duration_ns);
      t_in_callback = false;
    }
    reporting.fetch_sub(1, std::memory_order_seq_cst);
    return;
  }
}

void set_trace_callback(TraceFn fn, void* ctx) {
  if (t_in_callback) {
    publish(fn, ctx);
    return;
  }
  std::lock_guard<std::mutex> lock(g_change_mutex);
  const uint64_t replaced = publish(fn, ctx);
  const std::atomic<int64_t>& reporting = g_reporting[epoch_slot(replaced)];
  while (reporting.load(std::memory_order_seq_cst) != 0) std::this_thread::yield();
}

}  // namespace dispatch
}  // namespace st
