#include "core/runtime/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <new>

#include "core/error.h"
#include "core/numeric/float_env.h"
#include "core/runtime/interned_setting.h"
#include "core/runtime/platform/platform.h"
#include "core/runtime/thread_count.h"

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

// Note [Claiming host chunks]
// A job system installed with st_set_parallel_for must run chunks that
// cover [0, n) exactly once. Summing their lengths is not enough: running
// [0, n/2) twice adds up to n and leaves [n/2, n) unwritten. So each chunk
// claims its range before it runs: ranges claimed so far are kept merged,
// as disjoint runs in a map from begin to end, and a chunk that overlaps
// one of them is refused and never runs. The range was covered once iff no
// chunk was refused and the runs have become the one run [0, n). A lock
// per chunk is cheap next to the chunk itself (at least `grain` items, the
// library's grains are worth a quarter of a megabyte), and chunks claimed
// in order keep the map at one run per thread of the job system.
class ChunkClaims {
 public:
  explicit ChunkClaims(int64_t n) : n_(n) {}

  // Claims [b, e), or returns false when it leaves [0, n) or overlaps a
  // claimed range. Throws std::bad_alloc when a new run cannot be recorded.
  bool claim(int64_t b, int64_t e) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (b < 0 || e > n_ || b >= e) {
      outside_ = true;
      return false;
    }
    auto next = runs_.upper_bound(b);  // the first run that starts after b
    auto prev = next == runs_.begin() ? runs_.end() : std::prev(next);
    if ((prev != runs_.end() && prev->second > b) || (next != runs_.end() && next->first < e)) {
      overlap_ = true;
      return false;
    }
    const bool join_prev = prev != runs_.end() && prev->second == b;
    const bool join_next = next != runs_.end() && next->first == e;
    if (join_prev && join_next) {
      prev->second = next->second;
      runs_.erase(next);
    } else if (join_prev) {
      prev->second = e;
    } else if (join_next) {
      const int64_t end = next->second;
      runs_.erase(next);
      runs_.emplace(b, end);
    } else {
      runs_.emplace_hint(next, b, e);
    }
    claimed_ += e - b;
    return true;
  }

  // Throws ST_ERROR_INTERNAL unless [0, n) was claimed exactly once.
  void check_covered() {
    std::lock_guard<std::mutex> lock(mutex_);
    const bool covered = !outside_ && !overlap_ && runs_.size() == 1 && runs_.begin()->first == 0 &&
                         runs_.begin()->second == n_;
    ST_CHECK(covered, ST_ERROR_INTERNAL,
             "the job system installed with st_set_parallel_for ran %lld of %lld elements%s%s; it must run disjoint "
             "chunks covering [0, n) before it returns",
             static_cast<long long>(claimed_), static_cast<long long>(n_),
             outside_ ? " and passed a chunk outside [0, n)" : "",
             overlap_ ? " and passed overlapping chunks (a chunk again, or one overlapping another), which did not run"
                      : "");
  }

 private:
  std::mutex mutex_;
  const int64_t n_;
  std::map<int64_t, int64_t> runs_;  // begin -> end of each run of claimed items
  int64_t claimed_ = 0;
  bool outside_ = false;
  bool overlap_ = false;
};

// What a host chunk needs: the user's range offset, the work, the error
// slot, and the claims that check the job system covered the range once.
struct HostTask {
  int64_t begin;
  FunctionRef<void(int64_t, int64_t)>* f;
  FirstError* error;
  ChunkClaims* claims;
};

void run_host_chunk(void* task_ctx, int64_t chunk_begin, int64_t chunk_end) {
  auto* task = static_cast<HostTask*>(task_ctx);
  ParallelRegionGuard region;
  DefaultFloatEnvironment float_env;  // the job system's threads may have any (Note [The caller's floating-point environment])
  try {
    if (!task->claims->claim(chunk_begin, chunk_end)) return;
    (*task->f)(task->begin + chunk_begin, task->begin + chunk_end);
  } catch (...) {
    task->error->capture();
  }
}

void run_on_host(const HostHook& hook, int64_t begin, int64_t end, int64_t grain,
                 FunctionRef<void(int64_t, int64_t)> f) {
  FirstError error;
  ChunkClaims claims(end - begin);
  HostTask task{begin, &f, &error, &claims};
  hook.fn(hook.ctx, end - begin, grain, run_host_chunk, &task);
  error.rethrow_if_any();
  claims.check_covered();
}

#if defined(STRIDE_HAVE_OPENMP)
int64_t divup(int64_t a, int64_t b) { return a / b + (a % b != 0); }

// Note [Affordable teams]
// libgomp ends the process ("Thread creation failed", exit 1) when the
// system refuses a thread of a team: under a limit on processes
// (RLIMIT_NPROC, a container's pids.max) or on address space (RLIMIT_AS;
// each thread reserves a stack). So before a calling thread asks for a
// larger team than it has had, the library starts the extra threads itself
// (with the default attributes, as libgomp does unless OMP_STACKSIZE says
// otherwise), holds them until all have started, and lets them end; the
// team is as large as the number that started, plus the caller. libgomp
// keeps a pool of threads per calling thread and trims it to the last
// team, so a thread's largest team so far is what it knows the system
// affords, and only a larger one is tried first. A refusal between the
// trial and the team's start would still end the process: that race is
// the part that cannot be avoided from outside libgomp.
void wait_at_gate(void* gate) {
  static_cast<std::mutex*>(gate)->lock();
  static_cast<std::mutex*>(gate)->unlock();
}

int threads_the_system_starts(int wanted) {
  std::unique_ptr<platform::Thread[]> threads(new (std::nothrow) platform::Thread[static_cast<size_t>(wanted)]);
  if (!threads) return 0;
  std::mutex gate;
  gate.lock();
  int started = 0;
  while (started < wanted && threads[started].start(wait_at_gate, &gate)) ++started;
  gate.unlock();
  for (int i = 0; i < started; ++i) threads[i].join();
  return started;
}

// At most `wanted`: the team this thread can start (Note [Affordable teams]).
int affordable_team(int wanted) {
  thread_local int t_afforded = 1;
  if (wanted <= t_afforded) return wanted;
  const int team = 1 + threads_the_system_starts(wanted - 1);
  if (team > t_afforded) t_afforded = team;
  return team;
}

void run_on_openmp(int64_t begin, int64_t end, int wanted, FunctionRef<void(int64_t, int64_t)> f) {
  const int threads = affordable_team(wanted);
  if (threads == 1) {
    ParallelRegionGuard region;  // as on a team's threads: work inside is never split again
    f(begin, end);
    return;
  }
  FirstError error;
#pragma omp parallel num_threads(threads)
  {
    // The team may be smaller than asked for; split by the size it has.
    const int64_t team = omp_get_num_threads();
    const int64_t chunk = divup(end - begin, team);
    const int64_t chunk_begin = begin + omp_get_thread_num() * chunk;
    if (chunk_begin < end) {
      ParallelRegionGuard region;
      DefaultFloatEnvironment float_env;  // as a pool thread was left (Note [The caller's floating-point environment])
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
