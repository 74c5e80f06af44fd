#include "core/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>

#include "core/error.h"
#include "core/interned_setting.h"
#include "core/thread_count.h"

#if defined(STRIDE_HAVE_OPENMP)
#include <omp.h>
#endif

namespace st {
namespace {

thread_local bool t_in_parallel_region = false;

// Marks this thread as inside a parallel region for the guard's lifetime.
class ParallelRegionGuard {
 public:
  ParallelRegionGuard() : previous_(t_in_parallel_region) { t_in_parallel_region = true; }
  ~ParallelRegionGuard() { t_in_parallel_region = previous_; }
  ParallelRegionGuard(const ParallelRegionGuard&) = delete;
  ParallelRegionGuard& operator=(const ParallelRegionGuard&) = delete;

 private:
  bool previous_;
};

// The first exception any chunk threw; the others are dropped.
class FirstError {
 public:
  void capture() noexcept {
    if (!taken_.test_and_set(std::memory_order_acq_rel)) error_ = std::current_exception();
  }
  void rethrow_if_any() {
    if (error_) std::rethrow_exception(error_);
  }

 private:
  std::atomic_flag taken_ = ATOMIC_FLAG_INIT;
  std::exception_ptr error_;
};

struct HostHook {
  st_parallel_for_fn fn;
  void* ctx;
};

InternedSetting<HostHook> g_host_hook;

// What a host chunk needs: the user's range offset, the work, the error
// slot, and a count of the elements run, to detect a job system that skips
// part of the range.
struct HostTask {
  int64_t begin;
  int64_t n;
  FunctionRef<void(int64_t, int64_t)>* f;
  FirstError* error;
  std::atomic<int64_t> covered{0};
  std::atomic<bool> bad_chunk{false};
};

void run_host_chunk(void* task_ctx, int64_t chunk_begin, int64_t chunk_end) {
  auto* task = static_cast<HostTask*>(task_ctx);
  if (chunk_begin < 0 || chunk_end > task->n || chunk_begin >= chunk_end) {
    task->bad_chunk.store(true, std::memory_order_relaxed);
    return;
  }
  task->covered.fetch_add(chunk_end - chunk_begin, std::memory_order_relaxed);
  ParallelRegionGuard region;
  try {
    (*task->f)(task->begin + chunk_begin, task->begin + chunk_end);
  } catch (...) {
    task->error->capture();
  }
}

void run_on_host(const HostHook& hook, int64_t begin, int64_t end, int64_t grain,
                 FunctionRef<void(int64_t, int64_t)> f) {
  FirstError error;
  HostTask task;
  task.begin = begin;
  task.n = end - begin;
  task.f = &f;
  task.error = &error;
  hook.fn(hook.ctx, task.n, grain, run_host_chunk, &task);
  error.rethrow_if_any();
  ST_CHECK(!task.bad_chunk.load() && task.covered.load() == task.n, ST_ERROR_INTERNAL,
           "the job system installed with st_set_parallel_for ran %lld of %lld elements%s; it must run disjoint "
           "chunks covering [0, n) before it returns",
           static_cast<long long>(task.covered.load()), static_cast<long long>(task.n),
           task.bad_chunk.load() ? " and passed a chunk outside [0, n)" : "");
}

#if defined(STRIDE_HAVE_OPENMP)
int64_t divup(int64_t a, int64_t b) { return a / b + (a % b != 0); }

void run_on_openmp(int64_t begin, int64_t end, int threads, FunctionRef<void(int64_t, int64_t)> f) {
  FirstError error;
#pragma omp parallel num_threads(threads)
  {
    // The team may be smaller than asked for; split by the size it has.
    const int64_t team = omp_get_num_threads();
    const int64_t chunk = divup(end - begin, team);
    const int64_t chunk_begin = begin + omp_get_thread_num() * chunk;
    if (chunk_begin < end) {
      ParallelRegionGuard region;
      try {
        f(chunk_begin, std::min(end, chunk_begin + chunk));
      } catch (...) {
        error.capture();
      }
    }
  }
  error.rethrow_if_any();
}
#endif

}  // namespace

bool in_parallel_region() { return t_in_parallel_region; }

void parallel_for(int64_t begin, int64_t end, int64_t grain, FunctionRef<void(int64_t, int64_t)> f) {
  if (begin >= end) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t n = end - begin;
  const int threads = num_threads();
  if (n <= grain || threads == 1 || t_in_parallel_region) {
    f(begin, end);
    return;
  }
  if (const HostHook* hook = g_host_hook.get()) {
    run_on_host(*hook, begin, end, grain, f);
    return;
  }
#if defined(STRIDE_HAVE_OPENMP)
  run_on_openmp(begin, end, static_cast<int>(std::min<int64_t>(threads, divup(n, grain))), f);
#else
  f(begin, end);
#endif
}

void set_parallel_for_hook(st_parallel_for_fn fn, void* ctx) {
  const HostHook hook{fn, ctx};
  g_host_hook.set(fn ? &hook : nullptr, [](const HostHook& a, const HostHook& b) { return a.fn == b.fn && a.ctx == b.ctx; });
}

}  // namespace st
