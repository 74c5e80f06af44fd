// How many threads CPU kernels may use: the number of cores, or
// ST_NUM_THREADS from the environment, until st_set_num_threads changes it;
// never more than kMaxThreads (ST_MAX_THREADS).
#pragma once

#include "stride.h"

namespace st {

constexpr int kMaxThreads = ST_MAX_THREADS;

int num_threads();
// `n` from 1 to kMaxThreads; the caller checks it.
void set_num_threads(int n);

// The default count: `env` (ST_NUM_THREADS's value, or NULL) when it holds an
// integer from 1 to kMaxThreads, else `cores`, at least 1 and at most kMaxThreads.
int default_thread_count(const char* env, unsigned cores);

}  // namespace st
