/* ctest-labels: concurrency */
/* The library's own threads follow the rules whatever floating-point
 * environment they are in: a job system (st_set_parallel_for) whose two
 * threads round upward or toward zero with denormals-are-zero and
 * flush-to-zero set (as a game engine's or an audio host's workers may)
 * runs the chunks of large copies of the conversion tables between every
 * pair of dtypes, and of fills, while the calling thread is in the default
 * environment or in another changed one. Each worker's environment must be
 * its own again after every chunk, and the caller's after every call. */
#include <fenv.h>
#include <pthread.h>
#include <string.h>

#include "fp_environment.h"

#define WORKERS 2

typedef struct job_system {
  fp_env worker_env[WORKERS];
  pthread_mutex_t mutex;
  int64_t next, n, grain; /* the next unclaimed item of the current call */
  st_parallel_task task;
  void* task_ctx;
  int64_t chunks_run;
  int broken_env; /* a chunk returned with its worker's environment changed */
} job_system;

typedef struct worker {
  job_system* js;
  fp_env env;
} worker;

static void* work(void* arg) {
  const worker* w = arg;
  job_system* js = w->js;
  fp_env_set(w->env);
  for (;;) {
    pthread_mutex_lock(&js->mutex);
    const int64_t begin = js->next, end = begin + js->grain < js->n ? begin + js->grain : js->n;
    js->next = end;
    pthread_mutex_unlock(&js->mutex);
    if (begin >= end) break;
    js->task(js->task_ctx, begin, end);
    const int held = fp_env_holds(w->env);
    pthread_mutex_lock(&js->mutex);
    ++js->chunks_run;
    if (!held) js->broken_env = 1;
    pthread_mutex_unlock(&js->mutex);
  }
  return NULL;
}

/* Chunks of `grain` claimed in turn by WORKERS new threads; the caller waits. */
static void run_on_workers(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  job_system* js = ctx;
  js->next = 0;
  js->n = n;
  js->grain = grain;
  js->task = task;
  js->task_ctx = task_ctx;
  pthread_t threads[WORKERS];
  worker workers[WORKERS];
  for (int i = 0; i < WORKERS; ++i) {
    workers[i].js = js;
    workers[i].env = js->worker_env[i];
    if (pthread_create(&threads[i], NULL, work, &workers[i]) != 0) {
      work(&workers[i]); /* no thread: this one does the work */
      threads[i] = pthread_self();
    }
  }
  for (int i = 0; i < WORKERS; ++i)
    if (!pthread_equal(threads[i], pthread_self())) pthread_join(threads[i], NULL);
}

static job_system g_jobs;

static int install_job_system(void** state) {
  (void)state;
  /* The workers: upward with DAZ/FTZ, toward zero with DAZ/FTZ (without an
   * MXCSR or FPCR, the rounding modes alone). */
  const int flush = fp_env_count() > 4;
  g_jobs.worker_env[0] = (fp_env){FE_UPWARD, flush};
  g_jobs.worker_env[1] = (fp_env){FE_TOWARDZERO, flush};
  pthread_mutex_init(&g_jobs.mutex, NULL);
  return st_set_num_threads(2) == ST_OK && st_set_parallel_for(run_on_workers, &g_jobs) == ST_OK ? 0 : -1;
}

static int remove_job_system(void** state) {
  (void)state;
  pthread_mutex_destroy(&g_jobs.mutex);
  return st_set_parallel_for(NULL, NULL) == ST_OK ? 0 : -1;
}

/* The caller's environments: the default, and downward with DAZ/FTZ. */
static fp_env caller_env(int i) { return fp_env_at(i == 0 ? 0 : fp_env_count() - 2); }

static void expect_workers_ran_and_kept_their_environment(int64_t chunks_before) {
  assert_true(g_jobs.chunks_run > chunks_before); /* the large cases reached the job system */
  if (g_jobs.broken_env) {
    print_error("a worker's floating-point environment was changed by a chunk it ran\n");
    fail();
  }
}

static void copies_on_workers(table_layout layout) {
  const int64_t before = g_jobs.chunks_run;
  for (int i = 0; i < 2; ++i) copy_tables_under(caller_env(i), layout);
  expect_workers_ran_and_kept_their_environment(before);
}

static void contiguous_copies_on_workers_follow_the_rules(void** state) {
  (void)state;
  copies_on_workers(TABLE_CONTIGUOUS);
}

static void strided_copies_on_workers_follow_the_rules(void** state) {
  (void)state;
  copies_on_workers(TABLE_STRIDED);
}

static void transposed_copies_on_workers_follow_the_rules(void** state) {
  (void)state;
  copies_on_workers(TABLE_TRANSPOSED);
}

static void fills_on_workers_follow_the_rules(void** state) {
  (void)state;
  const int64_t before = g_jobs.chunks_run;
  for (int i = 0; i < 2; ++i) fill_rows_under(caller_env(i));
  expect_workers_ran_and_kept_their_environment(before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contiguous_copies_on_workers_follow_the_rules),
      cmocka_unit_test(strided_copies_on_workers_follow_the_rules),
      cmocka_unit_test(transposed_copies_on_workers_follow_the_rules),
      cmocka_unit_test(fills_on_workers_follow_the_rules),
  };
  return cmocka_run_group_tests(tests, install_job_system, remove_job_system);
}
