// What a hostile host does around the calls, for the fuzz target: a job
// system (st_set_parallel_for) that may break its contract, and a changed
// floating-point environment (rounding mode; on x86 the MXCSR's
// denormals-are-zero and flush-to-zero bits) around the operators and
// around each chunk the job system runs, as on a worker thread of its own.
// Releases from inside a trace callback are an operation of their own
// (fuzz_calls_hostile.cpp).
#pragma once

#include <cfenv>
#include <cstdint>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

#include "fuzz_model.h"
#include "stride.h"

namespace fuzz {

// ---- The job system ---------------------------------------------------------

enum class JobMode : uint8_t {
  kInOrder,      // chunks of `grain`, first to last
  kReversed,     // the same, last to first
  kSmallChunks,  // chunks of a third of `grain`: below the contract's size, still an exact cover
  kInterleaved,  // every other chunk, then the ones between
  // The modes below break the contract: the call must answer ST_ERROR_INTERNAL.
  kRepeat,   // the first chunk again in place of the last (task(0, n/2) twice for two chunks)
  kSkip,     // one chunk never runs
  kOverlap,  // the first chunk one item longer, overlapping the second
  kOutside,  // every chunk, then one past n
  kCount
};

struct JobSystem {
  JobMode mode = JobMode::kInOrder;
  bool broke_contract = false;  // during the current call (see check_status)
};
inline JobSystem g_jobs;

// Runs one chunk in the hostile floating-point environment, as a worker
// thread of the host's would (defined below).
inline void run_chunk(st_parallel_task task, void* task_ctx, int64_t begin, int64_t end);

// Runs the chunks on the calling thread, as `mode` says.
inline void run_jobs(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  auto* js = static_cast<JobSystem*>(ctx);
  const int64_t size = js->mode == JobMode::kSmallChunks ? (grain + 2) / 3 : grain;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  for (int64_t b = 0; b < n; b += size) chunks.push_back({b, b + size < n ? b + size : n});
  const size_t last = chunks.size() - 1;
  switch (js->mode) {
    case JobMode::kReversed:
      for (size_t i = chunks.size(); i-- > 0;) run_chunk(task, task_ctx, chunks[i].first, chunks[i].second);
      return;
    case JobMode::kInterleaved:
      for (size_t i = 0; i < chunks.size(); i += 2) run_chunk(task, task_ctx, chunks[i].first, chunks[i].second);
      for (size_t i = 1; i < chunks.size(); i += 2) run_chunk(task, task_ctx, chunks[i].first, chunks[i].second);
      return;
    case JobMode::kRepeat:
      if (last == 0) chunks.push_back(chunks[0]);
      else chunks[last] = chunks[0];
      break;
    case JobMode::kSkip: chunks.erase(chunks.begin() + static_cast<std::ptrdiff_t>(last / 2)); break;
    case JobMode::kOverlap:
      if (last == 0) chunks.push_back({n - 1, n});
      else chunks[0].second += 1;
      break;
    case JobMode::kOutside: chunks.push_back({n, n + 1}); break;
    default: break;
  }
  if (js->mode >= JobMode::kRepeat) js->broke_contract = true;
  for (const auto& c : chunks) run_chunk(task, task_ctx, c.first, c.second);
}

// ---- The floating-point environment ----------------------------------------

struct FpEnv {
  int rounding = FE_TONEAREST;
  bool flush_denormals = false;  // MXCSR DAZ and FTZ, where there is one
};
inline FpEnv g_fp_env;

inline bool fp_env_changed() { return g_fp_env.rounding != FE_TONEAREST || g_fp_env.flush_denormals; }

// Puts g_fp_env in place for one library call (or one chunk of a job
// system) and restores the fuzzer's own afterwards, so that the model
// always computes in the default environment. The values the call wrote
// are checked against the model as under any environment (the library
// converts in the default one whatever its caller's); here, that the call
// left the environment as it found it: the rounding mode, DAZ/FTZ, and a
// raised exception flag still raised.
class HostileFpEnv {
 public:
  HostileFpEnv() : active_(fp_env_changed()) {
    if (!active_) return;
    saved_rounding_ = std::fegetround();
#if defined(__x86_64__) || defined(__i386__)
    saved_csr_ = _mm_getcsr();
#endif
    std::feraiseexcept(FE_DIVBYZERO);  // a flag the caller's own work raised (a conversion never clears it)
    std::fesetround(g_fp_env.rounding);
#if defined(__x86_64__) || defined(__i386__)
    if (g_fp_env.flush_denormals) _mm_setcsr(_mm_getcsr() | kDazFtz);
    set_csr_ = _mm_getcsr();
#endif
  }
  ~HostileFpEnv() {
    if (!active_) return;
    const int rounding = std::fegetround();
    const bool flag_kept = std::fetestexcept(FE_DIVBYZERO) != 0;
#if defined(__x86_64__) || defined(__i386__)
    const unsigned csr = _mm_getcsr();
    _mm_setcsr(saved_csr_);  // the flags too
#else
    std::feclearexcept(FE_DIVBYZERO);
#endif
    std::fesetround(saved_rounding_);
    FUZZ_CHECK(rounding == g_fp_env.rounding && flag_kept,
               "a call left rounding mode %d (it found %d), the raised divide-by-zero flag %s", rounding,
               g_fp_env.rounding, flag_kept ? "raised" : "cleared");
#if defined(__x86_64__) || defined(__i386__)
    // The control bits (masks, rounding, DAZ, FTZ) as they were; flags may have been raised.
    FUZZ_CHECK((csr & ~0x3Fu) == (set_csr_ & ~0x3Fu), "a call left MXCSR 0x%X; it found 0x%X", csr, set_csr_);
#endif
  }
  HostileFpEnv(const HostileFpEnv&) = delete;
  HostileFpEnv& operator=(const HostileFpEnv&) = delete;

 private:
  static constexpr unsigned kDazFtz = 0x8040u;  // DAZ (bit 6) and FTZ (bit 15)
  bool active_;
  int saved_rounding_ = FE_TONEAREST;
  unsigned saved_csr_ = 0, set_csr_ = 0;
};

inline void run_chunk(st_parallel_task task, void* task_ctx, int64_t begin, int64_t end) {
  HostileFpEnv fp;
  task(task_ctx, begin, end);
}

}  // namespace fuzz
