#include "cpu/kernel_parallel.h"

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/error.h"
#include "core/parallel.h"
#include "core/thread_count.h"

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

void run_tasks_with_scratch(int64_t num_tasks, int64_t grain, int64_t scratch_bytes, ScratchTaskRange fn) {
  if (num_tasks <= 0) return;
  if (grain < 1) grain = 1;
  // At most one range per thread: parallel_for then makes no more (OpenMP
  // cuts one range per thread; a job system's chunks are at least `grain`).
  const int64_t threads = in_parallel_region() ? 1 : num_threads();
  int64_t ranges = (num_tasks + grain - 1) / grain;
  if (ranges > threads) ranges = threads;
  const int64_t range_grain = (num_tasks + ranges - 1) / ranges;
  const int64_t stride = (scratch_bytes + 63) / 64 * 64;
  std::unique_ptr<char[]> block(new char[static_cast<size_t>(ranges * stride + 64)]);
  char* const base = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(block.get()) + 63) & ~uintptr_t{63});
  std::atomic<int64_t> next{0};
  parallel_for(0, num_tasks, range_grain, [&](int64_t begin, int64_t end) {
    const int64_t slot = next.fetch_add(1, std::memory_order_relaxed);
    ST_CHECK(slot < ranges, ST_ERROR_INTERNAL,
             "the job system installed with st_set_parallel_for ran more chunks than [0, %lld) in chunks of at least "
             "%lld makes", static_cast<long long>(num_tasks), static_cast<long long>(range_grain));
    fn(begin, end, base + slot * stride);
  });
}

}  // namespace cpu
}  // namespace st
