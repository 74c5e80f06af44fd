#include "core/thread_count.h"

#include <atomic>
#include <cstdlib>
#include <thread>

namespace st {
namespace {

std::atomic<int> g_threads{0};  // 0: not read from the environment yet

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
  return n;
}

void set_num_threads(int n) { g_threads.store(n, std::memory_order_relaxed); }

}  // namespace st
