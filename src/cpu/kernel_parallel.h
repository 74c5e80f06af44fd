// How the copy kernels spread work over threads: a kernel cuts its work into
// `num_tasks` independent tasks and hands run_tasks a callable over a range
// of them; run_tasks hands the ranges to parallel_for (core/runtime/parallel.h:
// OpenMP, or the host's job system from st_set_parallel_for).
#pragma once

#include <cstdint>

#include "core/runtime/function_ref.h"

namespace st {
namespace cpu {

// Runs tasks [begin, end).
using TaskRange = FunctionRef<void(int64_t begin, int64_t end)>;

// Runs fn over disjoint ranges covering [0, num_tasks), each at least
// `grain` tasks long (except the last), on up to st_get_num_threads()
// threads; serially when one range is enough, or when already inside a
// parallel region (never nested). Returns when every range is done. A
// range may end with streaming stores; each kernel fences its own before
// returning, so the results are visible to every thread afterwards.
void run_tasks(int64_t num_tasks, int64_t grain, TaskRange fn);

// run_tasks for kernels that need working memory: each range gets
// `scratch_bytes` of its own (64-byte aligned), all of it allocated before
// the first range runs, so that a failed allocation throws before anything
// is written. Ranges are made large enough that there are no more of them
// than threads, and a range gives its scratch back when it ends: a job
// system that cuts smaller chunks still runs, and one that runs more chunks
// at once than that gets ST_ERROR_INTERNAL.
using ScratchTaskRange = FunctionRef<void(int64_t begin, int64_t end, char* scratch)>;
void run_tasks_with_scratch(int64_t num_tasks, int64_t grain, int64_t scratch_bytes, ScratchTaskRange fn);

// The grain (in tasks of `bytes_per_task` bytes moved each) below which
// spreading a copy over threads costs more than it saves.
int64_t grain_for_bytes(int64_t bytes_per_task);

}  // namespace cpu
}  // namespace st
