// parallel_for: the one place CPU work is split across threads (as
// PyTorch's at::parallel_for). It runs on OpenMP threads, or on the host's
// own job system once one is installed with st_set_parallel_for.
#pragma once

#include <cstdint>

#include "core/runtime/function_ref.h"
#include "stride.h"

namespace st {

// Elements below which a kernel is not worth splitting (PyTorch's GRAIN_SIZE).
// The fuzz build splits work of a few dozen elements already, so that the
// small tensors it makes reach the job systems it installs (tests/fuzz).
#if defined(STRIDE_FUZZ_SMALL_GRAIN)
constexpr int64_t kGrainSize = 64;
#else
constexpr int64_t kGrainSize = 32768;
#endif

// Runs f(chunk_begin, chunk_end) over disjoint chunks that cover
// [begin, end). Runs f(begin, end) on the calling thread when the range is
// at most `grain` long, when st_get_num_threads() is 1, or when called from
// inside another parallel_for (never nested). Otherwise the chunks go to the
// installed host job system (each at least `grain` long except the last;
// ST_ERROR_INTERNAL unless it runs each item exactly once), or to an
// OpenMP team of at most st_get_num_threads() threads, as many as the
// system lets start (one static chunk per thread); without OpenMP the
// whole range runs serially.
// An exception thrown by f never crosses a thread or a C callback: each
// chunk catches its own, and the first one is rethrown here once every
// chunk has finished.
void parallel_for(int64_t begin, int64_t end, int64_t grain, FunctionRef<void(int64_t, int64_t)> f);

// True while this thread runs a chunk of a parallel_for.
bool in_parallel_region();

// Installs the host's job system; fn NULL restores OpenMP. Safe while other
// threads run parallel_for: each call reads the hook once, atomically.
void set_parallel_for_hook(st_parallel_for_fn fn, void* ctx);

}  // namespace st
