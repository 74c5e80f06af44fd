#include "core/thread_count.h"

#include <atomic>
#include <cstdlib>
#include <thread>

namespace st {
namespace {

int default_thread_count() {
  if (const char* env = std::getenv("ST_NUM_THREADS")) {
    char* end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n >= 1 && n <= 4096) return static_cast<int>(n);
  }
  unsigned cores = std::thread::hardware_concurrency();
  return cores >= 1 ? static_cast<int>(cores) : 1;
}

std::atomic<int> g_threads{0};  // 0: not read from the environment yet

}  // namespace

int num_threads() {
  int n = g_threads.load(std::memory_order_relaxed);
  if (n == 0) {
    int expected = 0;
    g_threads.compare_exchange_strong(expected, default_thread_count(), std::memory_order_relaxed);
    n = g_threads.load(std::memory_order_relaxed);
  }
  return n;
}

void set_num_threads(int n) { g_threads.store(n, std::memory_order_relaxed); }

}  // namespace st
