#include "cpu/kernel_parallel.h"

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/error.h"
#include "core/runtime/parallel.h"
#include "core/runtime/thread_count.h"

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
  // Each chunk takes a free slot and gives it back when done, so a job
  // system that cuts smaller chunks than asked (an exact cover all the same)
  // still runs, as long as no more than `ranges` chunks run at once.
  std::unique_ptr<std::atomic<bool>[]> busy(new std::atomic<bool>[static_cast<size_t>(ranges)]);
  for (int64_t i = 0; i < ranges; ++i) busy[i].store(false, std::memory_order_relaxed);
  parallel_for(0, num_tasks, range_grain, [&](int64_t begin, int64_t end) {
    int64_t slot = -1;
    for (int64_t i = 0; i < ranges && slot < 0; ++i) {
      bool expected = false;
      if (!busy[i].load(std::memory_order_relaxed) &&
          busy[i].compare_exchange_strong(expected, true, std::memory_order_acquire)) {
        slot = i;
      }
    }
    ST_CHECK(slot >= 0, ST_ERROR_INTERNAL,
             "the job system installed with st_set_parallel_for ran more than %lld chunks of [0, %lld) at once",
             static_cast<long long>(ranges), static_cast<long long>(num_tasks));
    struct GiveBack {
      std::atomic<bool>& flag;
      ~GiveBack() { flag.store(false, std::memory_order_release); }
    } give_back{busy[slot]};
    fn(begin, end, base + slot * stride);
  });
}

}  // namespace cpu
}  // namespace st
