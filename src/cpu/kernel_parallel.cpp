#include "cpu/kernel_parallel.h"

#include "core/parallel.h"

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

void run_tasks(int64_t num_tasks, int64_t grain, TaskRange fn) { parallel_for(0, num_tasks, grain, fn); }

}  // namespace cpu
}  // namespace st
