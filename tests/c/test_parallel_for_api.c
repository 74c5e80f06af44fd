/* st_set_parallel_for through the public API: installing, replacing and
 * removing a job system, and the argument it refuses; then large copies and
 * fills run through a test job system (its chunks on its own threads, each
 * recorded), against the serial reference. (The chunks a job system
 * receives are also tested with the internals, tests/cpp/test_parallel_for.cpp.) */
#include <pthread.h>
#include <stdlib.h>

#include "copy_support.h"

static void run_inline(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  (void)grain;
  ++*(int*)ctx;
  task(task_ctx, 0, n);
}

static void install_replace_and_remove(void** state) {
  (void)state;
  int calls_a = 0, calls_b = 0;
  EXPECT_OK(st_set_parallel_for(run_inline, &calls_a));
  EXPECT_OK(st_set_parallel_for(run_inline, &calls_a)); /* the same hook again */
  EXPECT_OK(st_set_parallel_for(run_inline, &calls_b));
  EXPECT_OK(st_set_parallel_for(run_inline, NULL)); /* a NULL ctx is the job system's business */
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  EXPECT_OK(st_set_parallel_for(NULL, NULL)); /* removing twice is fine */
  /* Nothing ran: installing calls nothing. */
  assert_int_equal(calls_a, 0);
  assert_int_equal(calls_b, 0);
}

static void ctx_without_fn_is_invalid(void** state) {
  (void)state;
  int ctx = 0;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_parallel_for(NULL, &ctx));
  expect_message_contains("st_set_parallel_for: fn is NULL but ctx");
  /* The failure changed nothing: installing and removing still work. */
  EXPECT_OK(st_set_parallel_for(run_inline, &ctx));
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
}

/* ---- A test job system ------------------------------------------------------ */

#define MAX_WORKERS 4
#define MAX_CHUNKS 64

typedef struct chunk {
  int64_t begin, end;
} chunk;

typedef struct job_system {
  int workers;   /* threads started per call, none of them the caller */
  int reverse;   /* each worker runs its chunks last to first */
  int skip_last; /* a broken job system: the last chunk never runs */
  pthread_mutex_t mutex;
  int calls;
  int64_t chunks_run;
  int64_t smallest_n; /* over all calls */
  int64_t smallest_grain;
  char problem[160]; /* the first broken promise the job system saw, "" if none */
} job_system;

typedef struct worker {
  job_system* js;
  const chunk* chunks;
  int nchunks, first, step;
  st_parallel_task task;
  void* task_ctx;
} worker;

static void note_problem(job_system* js, const char* what, long long a, long long b) {
  pthread_mutex_lock(&js->mutex);
  if (!js->problem[0]) snprintf(js->problem, sizeof js->problem, "%s (%lld, %lld)", what, a, b);
  pthread_mutex_unlock(&js->mutex);
}

static void* run_worker(void* arg) {
  worker* w = arg;
  for (int k = 0; k < w->nchunks; ++k) {
    int i = w->js->reverse ? w->nchunks - 1 - k : k;
    if (i % w->step != w->first) continue;
    w->task(w->task_ctx, w->chunks[i].begin, w->chunks[i].end);
    pthread_mutex_lock(&w->js->mutex);
    w->js->chunks_run++;
    pthread_mutex_unlock(&w->js->mutex);
  }
  return NULL;
}

/* Splits [0, n) into chunks of at least `grain` (but the last), checks that
 * they cover it exactly once, and runs them on `workers` new threads. */
static void run_jobs(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  job_system* js = ctx;
  pthread_mutex_lock(&js->mutex);
  js->calls++;
  if (js->calls == 1 || n < js->smallest_n) js->smallest_n = n;
  if (js->calls == 1 || grain < js->smallest_grain) js->smallest_grain = grain;
  pthread_mutex_unlock(&js->mutex);
  if (grain < 1 || n <= grain) note_problem(js, "called with n <= grain or grain < 1", (long long)n, (long long)grain);

  chunk chunks[MAX_CHUNKS];
  int nchunks = 0;
  int64_t size = (n + 2 * js->workers - 1) / (2 * js->workers);
  if (size < grain) size = grain;
  for (int64_t b = 0; b < n && nchunks < MAX_CHUNKS; b += size) {
    chunks[nchunks].begin = b;
    chunks[nchunks].end = b + size < n ? b + size : n;
    nchunks++;
  }
  /* the promise include/stride.h asks of a job system, checked on the
   * chunks made */
  int64_t covered = 0;
  for (int i = 0; i < nchunks; ++i) {
    if (chunks[i].begin != covered) note_problem(js, "chunks leave a gap or overlap", (long long)i, 0);
    if (i + 1 < nchunks && chunks[i].end - chunks[i].begin < grain)
      note_problem(js, "a chunk other than the last is shorter than grain", (long long)i, (long long)grain);
    covered = chunks[i].end;
  }
  if (covered != n) note_problem(js, "chunks do not cover [0, n)", (long long)covered, (long long)n);
  if (js->skip_last) nchunks--;

  pthread_t threads[MAX_WORKERS];
  worker workers[MAX_WORKERS];
  for (int t = 0; t < js->workers; ++t) {
    workers[t] = (worker){js, chunks, nchunks, t, js->workers, task, task_ctx};
    if (pthread_create(&threads[t], NULL, run_worker, &workers[t]) != 0) {
      run_worker(&workers[t]); /* no thread to be had: run it here */
      threads[t] = pthread_self();
    }
  }
  for (int t = 0; t < js->workers; ++t) {
    if (!pthread_equal(threads[t], pthread_self())) pthread_join(threads[t], NULL);
  }
}

static job_system g_js;

static void job_system_reset(int workers, int reverse, int skip_last) {
  pthread_mutex_lock(&g_js.mutex);
  g_js.workers = workers;
  g_js.reverse = reverse;
  g_js.skip_last = skip_last;
  g_js.calls = 0;
  g_js.chunks_run = 0;
  g_js.smallest_n = 0;
  g_js.smallest_grain = 0;
  g_js.problem[0] = 0;
  pthread_mutex_unlock(&g_js.mutex);
}

static int32_t g_threads_before;

static int install_job_system(void** state) {
  (void)state;
  static int initialized = 0;
  if (!initialized) {
    pthread_mutex_init(&g_js.mutex, NULL);
    initialized = 1;
  }
  job_system_reset(3, 0, 0);
  g_threads_before = st_get_num_threads();
  /* the library hands work to a job system only when it may use more than one thread */
  if (st_set_num_threads(2) != ST_OK) return -1;
  return st_set_parallel_for(run_jobs, &g_js) == ST_OK ? 0 : -1;
}

static int remove_job_system(void** state) {
  (void)state;
  int ok = st_set_parallel_for(NULL, NULL) == ST_OK && st_set_num_threads(g_threads_before) == ST_OK;
  return ok ? 0 : -1;
}

static void expect_no_problem(void) {
  if (g_js.problem[0]) {
    print_error("job system: %s\n", g_js.problem);
    fail();
  }
}

/* st_copy(dst view dl, src view sl) of new buffers against the reference;
 * returns the status st_copy gave (the buffers are checked only on ST_OK). */
static st_status large_copy(st_dtype dst_dtype, layout dl, int64_t dn, st_dtype src_dtype, layout sl, int64_t sn,
                            const char* what) {
  uint64_t rng = 4242;
  buffer db = buffer_create(dst_dtype, dn, &rng), sb = buffer_create(src_dtype, sn, &rng);
  if (dst_dtype != src_dtype) buffer_fill_small_ints(&sb, dst_dtype, &rng);
  const size_t nbytes = (size_t)db.numel * db.itemsize;
  unsigned char* want = malloc(nbytes);
  assert_non_null(want);
  memcpy(want, db.bytes, nbytes);
  reference_copy(want, dst_dtype, &dl, sb.bytes, src_dtype, &sl);
  st_tensor dst = buffer_view(&db, &dl), src = buffer_view(&sb, &sl);
  st_status s = st_copy(dst, src, 0);
  if (s == ST_OK) expect_same_bytes(db.bytes, want, nbytes, db.itemsize, what);
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  free(want);
  buffer_destroy(&db);
  buffer_destroy(&sb);
  return s;
}

static layout transposed(layout l) {
  int64_t t = l.sizes[0];
  l.sizes[0] = l.sizes[1], l.sizes[1] = t;
  t = l.strides[0];
  l.strides[0] = l.strides[1], l.strides[1] = t;
  return l;
}

/* NCHW (4, 64, 80, 80) row-major into channels-last, 1,638,400 elements. */
static st_status nchw_to_nhwc(st_dtype dst_dtype, st_dtype src_dtype) {
  layout dl = row_major(4, DIMS(4, 64, 80, 80), 0);
  memcpy(dl.strides, DIMS(80 * 80 * 64, 1, 80 * 64, 64), sizeof(int64_t) * 4);
  return large_copy(dst_dtype, dl, 4 * 64 * 80 * 80, src_dtype, row_major(4, DIMS(4, 64, 80, 80), 0), 4 * 64 * 80 * 80,
                    "NCHW to NHWC");
}

static void large_copies_through_a_job_system_match_the_serial_reference(void** state) {
  (void)state;
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT32, ST_FLOAT32));
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT32, ST_UINT8));
  EXPECT_OK(large_copy(ST_FLOAT64, row_major(2, DIMS(700, 300), 0), 700 * 300, ST_FLOAT64,
                       transposed(row_major(2, DIMS(300, 700), 0)), 300 * 700, "transpose"));
  /* both sides contiguous: the bulk byte copy */
  EXPECT_OK(large_copy(ST_INT32, row_major(1, DIMS(3000000), 1), 3000002, ST_INT32, row_major(1, DIMS(3000000), 0),
                       3000000, "contiguous"));
  EXPECT_OK(large_copy(ST_FLOAT32, row_major(2, DIMS(2000, 1000), 0), 2000 * 1000, ST_FLOAT32,
                       row_major(1, DIMS(1000), 0), 1000, "broadcast row"));
  assert_true(g_js.calls >= 5); /* every one of them went through the job system */
  assert_true(g_js.chunks_run >= 2 * g_js.calls);
  expect_no_problem();
}

static void fill_through_a_job_system_matches_the_serial_reference(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(1000, 1000), 2, ST_INT16), tt = {0};
  EXPECT_OK(st_transpose(t, 0, 1, &tt));
  EXPECT_OK(st_fill(tt, 300.7));
  const int16_t* p = data_ptr(t);
  for (int64_t i = 0; i < 1000 * 1000; ++i) {
    if (p[i] != 300) {
      print_error("element %lld is %d, expected 300\n", (long long)i, p[i]);
      fail();
    }
  }
  assert_true(g_js.calls >= 1);
  expect_no_problem();
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(tt));
}

static void chunks_in_reverse_order_on_four_threads_match_the_serial_reference(void** state) {
  (void)state;
  job_system_reset(4, 1, 0);
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT16, ST_INT8));
  EXPECT_OK(large_copy(ST_COMPLEX64, transposed(row_major(2, DIMS(300, 700), 0)), 300 * 700, ST_INT16,
                       row_major(2, DIMS(700, 300), 0), 700 * 300, "into a transpose, converting"));
  assert_true(g_js.calls >= 2);
  expect_no_problem();
}

static void the_job_system_is_asked_only_for_work_above_its_grain(void** state) {
  (void)state;
  EXPECT_OK(large_copy(ST_FLOAT32, row_major(2, DIMS(30, 20), 0), 600, ST_FLOAT32,
                       transposed(row_major(2, DIMS(20, 30), 0)), 600, "small"));
  assert_int_equal(g_js.calls, 0);
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT32, ST_FLOAT32));
  assert_true(g_js.calls >= 1);
  assert_true(g_js.smallest_grain >= 1 && g_js.smallest_n > g_js.smallest_grain);
  expect_no_problem();
}

static void one_thread_never_reaches_the_job_system(void** state) {
  (void)state;
  EXPECT_OK(st_set_num_threads(1));
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT32, ST_FLOAT32));
  assert_int_equal(g_js.calls, 0);
}

static void null_restores_the_built_in_pool(void** state) {
  (void)state;
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT32, ST_FLOAT32));
  EXPECT_OK(large_copy(ST_INT32, row_major(1, DIMS(3000000), 0), 3000000, ST_INT32, row_major(1, DIMS(3000000), 0),
                       3000000, "contiguous"));
  assert_int_equal(g_js.calls, 0);
}

static void a_job_system_that_skips_a_chunk_makes_the_copy_fail_with_internal(void** state) {
  (void)state;
  job_system_reset(2, 0, 1);
  EXPECT_STATUS(ST_ERROR_INTERNAL, nchw_to_nhwc(ST_FLOAT32, ST_FLOAT32));
  expect_message_contains("st_copy: the job system installed with st_set_parallel_for ran ");
  job_system_reset(2, 0, 0); /* and a working one works again */
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT32, ST_FLOAT32));
}

/* The job system of the report: the first half twice, the second half never
 * (task(0, n/2) twice); every length adds up. */
static void run_first_half_twice(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  (void)grain;
  ++*(int*)ctx;
  task(task_ctx, 0, n / 2);
  task(task_ctx, 0, n / 2);
}

static void a_job_system_that_runs_a_chunk_twice_and_skips_another_gets_internal(void** state) {
  (void)state;
  const int32_t threads_before = st_get_num_threads();
  int calls = 0;
  EXPECT_OK(st_set_num_threads(2));
  EXPECT_OK(st_set_parallel_for(run_first_half_twice, &calls));
  const int64_t n = 4 << 20;
  st_tensor src = make_tensor(DIMS(n), 1, ST_FLOAT32), dst = make_tensor(DIMS(n), 1, ST_FLOAT32);
  EXPECT_STATUS(ST_ERROR_INTERNAL, st_copy(dst, src, 0));
  expect_message_contains("st_copy: the job system installed with st_set_parallel_for ran ");
  expect_message_contains("overlapping");
  EXPECT_STATUS(ST_ERROR_INTERNAL, st_fill(dst, 1.0));
  expect_message_contains("st_fill: the job system installed with st_set_parallel_for ran ");
  assert_true(calls >= 2);
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  EXPECT_OK(st_set_num_threads(threads_before));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

/* Chunks of a third of the grain, in order on the calling thread: smaller
 * than the contract asks, yet an exact cover, so every copy still runs,
 * the converting transpose (whose ranges each take working memory) too. */
static void run_small_chunks(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  ++*(int*)ctx;
  const int64_t size = grain / 3 > 0 ? grain / 3 : 1;
  for (int64_t b = 0; b < n; b += size) task(task_ctx, b, b + size < n ? b + size : n);
}

static void a_job_system_that_cuts_smaller_chunks_still_copies(void** state) {
  (void)state;
  const int32_t threads_before = st_get_num_threads();
  int calls = 0;
  EXPECT_OK(st_set_num_threads(2));
  EXPECT_OK(st_set_parallel_for(run_small_chunks, &calls));
  EXPECT_OK(large_copy(ST_FLOAT32, row_major(2, DIMS(700, 700), 0), 700 * 700, ST_FLOAT16,
                       transposed(row_major(2, DIMS(700, 700), 0)), 700 * 700, "converting transpose, small chunks"));
  EXPECT_OK(nchw_to_nhwc(ST_FLOAT32, ST_UINT8));
  assert_true(calls >= 2);
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  EXPECT_OK(st_set_num_threads(threads_before));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(install_replace_and_remove),
      cmocka_unit_test(ctx_without_fn_is_invalid),
      cmocka_unit_test_setup_teardown(large_copies_through_a_job_system_match_the_serial_reference, install_job_system,
                                      remove_job_system),
      cmocka_unit_test_setup_teardown(fill_through_a_job_system_matches_the_serial_reference, install_job_system,
                                      remove_job_system),
      cmocka_unit_test_setup_teardown(chunks_in_reverse_order_on_four_threads_match_the_serial_reference,
                                      install_job_system, remove_job_system),
      cmocka_unit_test_setup_teardown(the_job_system_is_asked_only_for_work_above_its_grain, install_job_system,
                                      remove_job_system),
      cmocka_unit_test_setup_teardown(one_thread_never_reaches_the_job_system, install_job_system, remove_job_system),
      cmocka_unit_test_setup_teardown(null_restores_the_built_in_pool, install_job_system, remove_job_system),
      cmocka_unit_test_setup_teardown(a_job_system_that_skips_a_chunk_makes_the_copy_fail_with_internal,
                                      install_job_system, remove_job_system),
      cmocka_unit_test(a_job_system_that_runs_a_chunk_twice_and_skips_another_gets_internal),
      cmocka_unit_test(a_job_system_that_cuts_smaller_chunks_still_copies),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
