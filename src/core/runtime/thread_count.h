// How many threads CPU kernels may use: the number of cores, or
// ST_NUM_THREADS from the environment, until st_set_num_threads changes it;
// never more than kMaxThreads (ST_MAX_THREADS).
#pragma once

#include "stride.h"

namespace st {

constexpr int kMaxThreads = ST_MAX_THREADS;

// The count for a call on this thread: the process-wide count, or less
// while a ThreadLimit is alive on this thread.
int num_threads();
// `n` from 1 to kMaxThreads; the caller checks it.
void set_num_threads(int n);

// Lowers num_threads() on this thread to at most `n` (0: no limit) for its
// lifetime: a copy plan runs with the thread count its measurement chose.
// The thread-local is read only while some limit is alive somewhere
// (Note [Reading thread-local keys] in dispatch/local_dispatch_key_set.h
// says why), so num_threads() costs nothing more otherwise.
class ThreadLimit {
 public:
  explicit ThreadLimit(int n);
  ~ThreadLimit();
  ThreadLimit(const ThreadLimit&) = delete;
  ThreadLimit& operator=(const ThreadLimit&) = delete;

 private:
  int saved_;
  bool active_;
};

// The default count: `env` (ST_NUM_THREADS's value, or NULL) when it holds a
// count from 1 to kMaxThreads (Note [Reading the environment]), else
// `cores`, at least 1 and at most kMaxThreads.
int default_thread_count(const char* env, unsigned cores);

}  // namespace st
