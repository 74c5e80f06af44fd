#include "cpu/kernel_parallel.h"

#include "cpu/thread_count.h"

#if defined(STRIDE_HAVE_OPENMP)
#include <omp.h>
#endif

namespace st {
namespace cpu {
namespace {

// Waking a thread and joining it costs a few microseconds, in which one core
// moves some 100 KB; below this many bytes per thread a copy stays serial.
constexpr int64_t kMinBytesPerThread = 256 * 1024;

}  // namespace

int64_t grain_for_bytes(int64_t bytes_per_task) {
  if (bytes_per_task <= 0) return 1;
  const int64_t g = (kMinBytesPerThread + bytes_per_task - 1) / bytes_per_task;
  return g < 1 ? 1 : g;
}

void run_tasks(int64_t num_tasks, int64_t grain, TaskRange fn) {
  if (num_tasks <= 0) return;
  if (grain < 1) grain = 1;
  int64_t threads = num_threads();
  const int64_t max_useful = (num_tasks + grain - 1) / grain;
  if (threads > max_useful) threads = max_useful;
#if defined(STRIDE_HAVE_OPENMP)
  if (threads > 1 && !omp_in_parallel()) {
#pragma omp parallel num_threads(static_cast<int>(threads))
    {
      const int64_t t = omp_get_thread_num(), n = omp_get_num_threads();
      const int64_t begin = num_tasks * t / n, end = num_tasks * (t + 1) / n;
      if (begin < end) fn(begin, end);
    }
    return;
  }
#endif
  fn(0, num_tasks);
}

}  // namespace cpu
}  // namespace st
