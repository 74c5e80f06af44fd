#include "core/runtime/thread_count.h"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

#include "core/runtime/environment.h"

namespace st {
namespace {

std::atomic<int> g_threads{0};  // 0: not read from the environment yet
std::atomic<int> g_limits{0};   // ThreadLimits alive on all threads
thread_local int t_limit = 0;   // 0: none on this thread

}  // namespace

int default_thread_count(const char* env, unsigned cores) {
  int64_t n = 0;
  if (env::parse_count(env, 1, kMaxThreads, &n)) return static_cast<int>(n);
  if (cores < 1) return 1;
  return cores > static_cast<unsigned>(kMaxThreads) ? kMaxThreads : static_cast<int>(cores);
}

int num_threads() {
  int n = g_threads.load(std::memory_order_relaxed);
  if (n == 0) {
    int expected = 0;
    int64_t unused = 0;
    const char* text = std::getenv("ST_NUM_THREADS");
    const int chosen = default_thread_count(text, std::thread::hardware_concurrency());
    if (g_threads.compare_exchange_strong(expected, chosen, std::memory_order_relaxed) && text &&
        !env::parse_count(text, 1, kMaxThreads, &unused)) {
      env::note_ignored("ST_NUM_THREADS", text, "expected a whole number from 1 to " + std::to_string(kMaxThreads));
    }
    n = g_threads.load(std::memory_order_relaxed);
  }
  if (g_limits.load(std::memory_order_relaxed) != 0) {
    // A thread with a limit always sees its own increment.
    const int limit = t_limit;
    if (limit > 0 && limit < n) n = limit;
  }
  return n;
}

ThreadLimit::ThreadLimit(int n) : saved_(0), active_(n > 0) {
  if (!active_) return;
  g_limits.fetch_add(1, std::memory_order_relaxed);
  saved_ = t_limit;
  t_limit = n;
}

ThreadLimit::~ThreadLimit() {
  if (!active_) return;
  t_limit = saved_;
  g_limits.fetch_sub(1, std::memory_order_relaxed);
}

void set_num_threads(int n) { g_threads.store(n, std::memory_order_relaxed); }

}  // namespace st
