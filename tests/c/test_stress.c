/* Concurrency stress: 8 threads for a fixed number of operations each, on
 * tensors they share. They retain and release the shared handles, hand
 * references and views to each other through a mailbox (so a handle is
 * often released by another thread than the one that made it), make views
 * of shared tensors, copy them into tensors of their own and check every
 * value against the formula the shared tensors were filled with. Meanwhile
 * three of them also switch the trace callback on and off, change the
 * thread count, and install and remove a job system (st_set_parallel_for)
 * that runs chunks on threads of its own. At the end every handle has been
 * freed (st_live_tensor_count is back where it started) and the CPU
 * allocator's calls balance. The TSan build runs this (tools/test-all.sh)
 * and must report nothing. Thread i draws its choices from seed 1000 + i. */
/* ctest-labels: concurrency */
#include <pthread.h>
#include <stdlib.h>

#include "support.h"

#define THREADS 8
#define OPS_PER_THREAD 1000
#define SHARED 4
#define MAILBOX 64
#define BIG 192 /* a BIG x BIG tensor: above the parallel grain of 32768 elements */

/* Shared tensor k (rows x cols float32) holds value(k, i, j) at (i, j). */
static const int64_t g_rows[SHARED] = {6, 5, 7, BIG};
static const int64_t g_cols[SHARED] = {10, 8, 3, BIG};
static st_tensor g_shared[SHARED];

static float value(int k, int64_t i, int64_t j) { return (float)(k * 100000 + i * 1000 + j); }

static counting_allocator g_alloc;
static atomic_long g_trace_reports;
static atomic_long g_job_calls;
static atomic_int g_failures;

/* ---- failures from worker threads: recorded, then asserted by main ---- */

static void fail_here(const char* what, st_status s, int line) {
  fprintf(stderr, "test_stress.c:%d: %s (status %s: %s)\n", line, what, st_status_name(s), st_last_error_message());
  atomic_fetch_add(&g_failures, 1);
}
#define CHECK_OK(call)                               \
  do {                                               \
    st_status s_ = (call);                           \
    if (s_ != ST_OK) fail_here(#call, s_, __LINE__); \
  } while (0)
#define CHECK(cond)                                 \
  do {                                              \
    if (!(cond)) fail_here(#cond, ST_OK, __LINE__); \
  } while (0)

/* ---- the mailbox: references made on one thread, released on another ---- */

typedef struct letter {
  st_tensor t;
  int k;       /* the shared tensor it views */
  int flipped; /* a view flipped along dim 1, else the tensor itself */
} letter;

static pthread_mutex_t g_mailbox_mutex = PTHREAD_MUTEX_INITIALIZER;
static letter g_mailbox[MAILBOX];
static int g_mail;

static int post(letter l) {
  pthread_mutex_lock(&g_mailbox_mutex);
  const int ok = g_mail < MAILBOX;
  if (ok) g_mailbox[g_mail++] = l;
  pthread_mutex_unlock(&g_mailbox_mutex);
  return ok;
}

static int fetch(letter* l) {
  pthread_mutex_lock(&g_mailbox_mutex);
  const int ok = g_mail > 0;
  if (ok) *l = g_mailbox[--g_mail];
  pthread_mutex_unlock(&g_mailbox_mutex);
  return ok;
}

/* ---- a job system with threads of its own ---- */

typedef struct chunk_job {
  st_parallel_task task;
  void* task_ctx;
  int64_t begin, end;
} chunk_job;

static void* run_chunk(void* arg) {
  chunk_job* j = arg;
  j->task(j->task_ctx, j->begin, j->end);
  return NULL;
}

/* The second half on a new thread, the first on the caller's. */
static void two_thread_job_system(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  (void)ctx;
  atomic_fetch_add(&g_job_calls, 1);
  int64_t half = n / 2;
  if (half < grain) half = n < grain ? n : grain;
  chunk_job second = {task, task_ctx, half, n};
  pthread_t th;
  const int started = half < n && pthread_create(&th, NULL, run_chunk, &second) == 0;
  task(task_ctx, 0, half);
  if (started)
    pthread_join(th, NULL);
  else if (half < n)
    task(task_ctx, half, n);
}

static void count_trace(void* ctx, const char* op_name, int64_t duration_ns) {
  (void)ctx;
  if (op_name && duration_ns >= 0) atomic_fetch_add(&g_trace_reports, 1);
}

/* ---- checks of a tensor's values against the shared formula ---- */

/* t is rows x cols float32 holding value(k, i, j) at (i, j), read through
 * its own strides; with flipped, at (i, cols - 1 - j). */
static void check_values(st_tensor t, int k, int flipped, int transposed) {
  int64_t sizes[2], strides[2];
  const float* p = NULL;
  CHECK_OK(st_tensor_sizes(t, sizes, 2));
  CHECK_OK(st_tensor_strides(t, strides, 2));
  CHECK_OK(st_tensor_data_ptr(t, (void**)&p));
  const int64_t rows = transposed ? sizes[1] : sizes[0], cols = transposed ? sizes[0] : sizes[1];
  CHECK(rows == g_rows[k] && cols == g_cols[k]);
  if (rows != g_rows[k] || cols != g_cols[k]) return;
  const int64_t step = k == SHARED - 1 ? 7 : 1; /* the big one: every 7th row and column */
  for (int64_t i = 0; i < rows; i += step) {
    for (int64_t j = 0; j < cols; j += step) {
      const int64_t at = transposed ? j * strides[0] + i * strides[1] : i * strides[0] + j * strides[1];
      const float want = value(k, i, flipped ? cols - 1 - j : j);
      if (p[at] != want) {
        fail_here("a value differs from the formula", ST_OK, __LINE__);
        return;
      }
    }
  }
}

/* ---- the workers ---- */

typedef struct worker {
  int index;
  unsigned seed;
  st_tensor own[SHARED]; /* this thread's destinations, one per shared shape */
} worker;

static unsigned next(unsigned* seed) {
  *seed = *seed * 1103515245u + 12345u;
  return (*seed >> 16) & 0x7fff;
}

static void one_operation(worker* w) {
  const unsigned r = next(&w->seed);
  int k = (int)(next(&w->seed) % SHARED);
  if (k == SHARED - 1 && next(&w->seed) % 8 != 0) k = 0; /* the big tensor one time in eight */
  const st_tensor shared = g_shared[k];
  switch (r % 8) {
    case 0: { /* retain here, release on whichever thread fetches it */
      CHECK_OK(st_tensor_retain(shared));
      letter l = {shared, k, 0};
      if (!post(l)) CHECK_OK(st_tensor_release(shared));
      break;
    }
    case 1: { /* a view made here, used and released elsewhere */
      letter l = {{0}, k, 1};
      CHECK_OK(st_flip(shared, 1, &l.t));
      if (!post(l)) CHECK_OK(st_tensor_release(l.t));
      break;
    }
    case 2: { /* a letter from another thread: copy from it, check, release */
      letter l;
      if (!fetch(&l)) break;
      CHECK_OK(st_copy(w->own[l.k], l.t, 0));
      check_values(w->own[l.k], l.k, l.flipped, 0);
      CHECK_OK(st_tensor_release(l.t));
      break;
    }
    case 3: { /* contiguous of a transposed view: a real transpose copy */
      st_tensor t = {0}, c = {0};
      CHECK_OK(st_transpose(shared, 0, 1, &t));
      CHECK_OK(st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
      check_values(c, k, 0, 1);
      CHECK_OK(st_tensor_release(t));
      CHECK_OK(st_tensor_release(c));
      break;
    }
    case 4: { /* into this thread's own tensor, through a flipped view of it */
      st_tensor f = {0};
      CHECK_OK(st_flip(w->own[k], 1, &f));
      CHECK_OK(st_copy(f, shared, 0));
      check_values(w->own[k], k, 1, 0);
      CHECK_OK(st_tensor_release(f));
      break;
    }
    case 5: { /* to float64 and back */
      st_tensor d = {0};
      CHECK_OK(st_to(shared, ST_FLOAT64, CPU, ST_MEMORY_FORMAT_PRESERVE, &d));
      CHECK_OK(st_copy(w->own[k], d, 0));
      check_values(w->own[k], k, 0, 0);
      CHECK_OK(st_tensor_release(d));
      break;
    }
    case 6: { /* views and metadata of a shared tensor */
      st_tensor s = {0}, v = {0};
      CHECK_OK(st_slice(shared, 0, 1, g_rows[k], 2, &s));
      CHECK_OK(st_unsqueeze(s, 0, &v));
      int32_t ndim = 0;
      CHECK_OK(st_tensor_ndim(v, &ndim));
      CHECK(ndim == 3);
      CHECK_OK(st_tensor_release(s));
      CHECK_OK(st_tensor_release(v));
      break;
    }
    default: { /* clone, then a failing call: a stale handle */
      st_tensor c = {0};
      CHECK_OK(st_clone(shared, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
      check_values(c, k, 0, 0);
      CHECK_OK(st_tensor_release(c));
      CHECK(st_tensor_retain(c) == ST_ERROR_INVALID_HANDLE);
      break;
    }
  }
}

/* Thread 0 switches tracing, 1 the thread count, 2 the job system. */
static void switch_something(worker* w, int op) {
  if (op % 10 != 0) return;
  const int on = (op / 10) % 2 == 0;
  switch (w->index) {
    case 0: CHECK_OK(st_set_trace_callback(on ? count_trace : NULL, NULL)); break;
    case 1: CHECK_OK(st_set_num_threads(1 + (int32_t)(next(&w->seed) % 4))); break;
    case 2: CHECK_OK(st_set_parallel_for(on ? two_thread_job_system : NULL, NULL)); break;
    default: break;
  }
}

static void* run_worker(void* arg) {
  worker* w = arg;
  for (int k = 0; k < SHARED; ++k) {
    const int64_t sizes[2] = {g_rows[k], g_cols[k]};
    CHECK_OK(st_tensor_create(sizes, 2, ST_FLOAT32, CPU, &w->own[k]));
  }
  for (int op = 0; op < OPS_PER_THREAD; ++op) {
    switch_something(w, op);
    one_operation(w);
  }
  for (int k = 0; k < SHARED; ++k) CHECK_OK(st_tensor_release(w->own[k]));
  return NULL;
}

static void eight_threads_share_handles_and_leave_nothing_behind(void** state) {
  (void)state;
  int64_t live_before = -1;
  EXPECT_OK(st_live_tensor_count(&live_before));
  counting_allocator_install(&g_alloc);
  atomic_init(&g_trace_reports, 0);
  atomic_init(&g_job_calls, 0);
  atomic_init(&g_failures, 0);
  const int32_t threads_before = st_get_num_threads();

  for (int k = 0; k < SHARED; ++k) {
    const int64_t sizes[2] = {g_rows[k], g_cols[k]};
    g_shared[k] = make_tensor(sizes, 2, ST_FLOAT32);
    float* p = NULL;
    EXPECT_OK(st_tensor_data_ptr(g_shared[k], (void**)&p));
    for (int64_t i = 0; i < g_rows[k]; ++i)
      for (int64_t j = 0; j < g_cols[k]; ++j) p[i * g_cols[k] + j] = value(k, i, j);
  }

  pthread_t threads[THREADS];
  worker workers[THREADS];
  for (int i = 0; i < THREADS; ++i) {
    workers[i].index = i;
    workers[i].seed = 1000u + (unsigned)i;
    assert_int_equal(pthread_create(&threads[i], NULL, run_worker, &workers[i]), 0);
  }
  for (int i = 0; i < THREADS; ++i) assert_int_equal(pthread_join(threads[i], NULL), 0);
  assert_int_equal(atomic_load(&g_failures), 0);

  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  EXPECT_OK(st_set_num_threads(threads_before));
  letter l;
  while (fetch(&l)) EXPECT_OK(st_tensor_release(l.t));
  for (int k = 0; k < SHARED; ++k) EXPECT_OK(st_tensor_release(g_shared[k]));

  int64_t live_after = -1;
  EXPECT_OK(st_live_tensor_count(&live_after));
  assert_int_equal(live_after, live_before);
  assert_true(atomic_load(&g_alloc.allocs) > 0);
  assert_int_equal(atomic_load(&g_alloc.allocs), atomic_load(&g_alloc.frees));
  assert_int_equal(atomic_load(&g_alloc.live_bytes), 0);
  assert_int_equal(atomic_load(&g_alloc.bad_frees), 0);
  assert_true(atomic_load(&g_trace_reports) > 0);
  print_message("%ld allocations, %ld trace reports, %ld job system calls\n", atomic_load(&g_alloc.allocs),
                atomic_load(&g_trace_reports), atomic_load(&g_job_calls));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(eight_threads_share_handles_and_leave_nothing_behind, restore_default_allocator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
