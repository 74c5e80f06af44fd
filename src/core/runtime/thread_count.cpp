#include "core/runtime/thread_count.h"

#include <atomic>
#include <cstdlib>
#include <thread>

namespace st {
namespace {

std::atomic<int> g_threads{0};  // 0: not read from the environment yet
std::atomic<int> g_limits{0};   // ThreadLimits alive on all threads
thread_local int t_limit = 0;   // 0: none on this thread

}  // namespace

int default_thread_count(const char* env, unsigned cores) {
  if (env) {
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n >= 1 && n <= kMaxThreads) return static_cast<int>(n);
  }
  if (cores < 1) return 1;
  return cores > static_cast<unsigned>(kMaxThreads) ? kMaxThreads : static_cast<int>(cores);
}

int num_threads() {
  int n = g_threads.load(std::memory_order_relaxed);
  if (n == 0) {
    int expected = 0;
    g_threads.compare_exchange_strong(expected, default_thread_count(std::getenv("ST_NUM_THREADS"),
                                                                     std::thread::hardware_concurrency()),
                                      std::memory_order_relaxed);
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
