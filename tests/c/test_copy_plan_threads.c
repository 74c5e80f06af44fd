/* One copy plan executed from several threads at once, each on its own
 * memory, and released while other threads are executing it: every
 * execution either copies exactly or answers ST_ERROR_INVALID_HANDLE once
 * the release has happened, and nothing leaks.
 * ctest-labels: concurrency */
#include <pthread.h>
#include <stdlib.h>

#include "support.h"

#define THREADS 4
#define ROUNDS 400
#define ROWS 48
#define COLS 64

typedef struct worker {
  st_copy_plan plan;
  int id;
  atomic_int* started;
  atomic_int* stop;  /* set once the plan is released */
  int ok_after_stop; /* executions that succeeded after stop was seen: must be 0 */
  int failures;
} worker;

/* src: a COLS x ROWS row-major matrix seen as its ROWS x COLS transpose;
 * dst: ROWS x COLS row-major. dst[i][j] = src_mem[j * ROWS + i]. */
static int copy_and_check(st_copy_plan plan, float* src_mem, float* dst_mem, int seed, st_status* status) {
  for (int k = 0; k < ROWS * COLS; ++k) src_mem[k] = (float)(seed * 7 + k), dst_mem[k] = -1.0f;
  *status = st_copy_plan_execute_raw(plan, dst_mem, src_mem, 0);
  if (*status != ST_OK) {
    for (int k = 0; k < ROWS * COLS; ++k)
      if (dst_mem[k] != -1.0f) return 0; /* a failed execute writes nothing */
    return 1;
  }
  for (int i = 0; i < ROWS; ++i)
    for (int j = 0; j < COLS; ++j)
      if (dst_mem[i * COLS + j] != src_mem[j * ROWS + i]) return 0;
  return 1;
}

static void* run_worker(void* arg) {
  worker* w = (worker*)arg;
  float* src = malloc(sizeof(float) * ROWS * COLS);
  float* dst = malloc(sizeof(float) * ROWS * COLS);
  for (int r = 0;; ++r) {
    const int stopped = atomic_load(w->stop);
    st_status s;
    if (!copy_and_check(w->plan, src, dst, w->id * 1000 + r, &s)) w->failures++;
    if (r == 10) atomic_fetch_add(w->started, 1);
    if (s == ST_ERROR_INVALID_HANDLE) {
      if (!stopped && !atomic_load(w->stop)) w->failures++; /* refused before any release */
      break;
    }
    if (s != ST_OK) w->failures++;
    if (stopped) w->ok_after_stop++;
    if (r > 100000) break;
  }
  free(src);
  free(dst);
  return NULL;
}

static st_copy_plan make_plan(void) {
  st_tensor m = make_tensor(DIMS(COLS, ROWS), 2, ST_FLOAT32), src, dst = make_tensor(DIMS(ROWS, COLS), 2, ST_FLOAT32);
  EXPECT_OK(st_transpose(m, 0, 1, &src));
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  EXPECT_OK(st_tensor_release(m));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
  return plan;
}

static void threads_execute_one_plan_on_their_own_memory(void** state) {
  (void)state;
  st_copy_plan plan = make_plan();
  atomic_int started = 0, stop = 0;
  worker w[THREADS];
  pthread_t t[THREADS];
  for (int k = 0; k < THREADS; ++k) {
    w[k] = (worker){plan, k, &started, &stop, 0, 0};
    assert_int_equal(pthread_create(&t[k], NULL, run_worker, &w[k]), 0);
  }
  /* Let every thread run ROUNDS copies' worth, then release under them. */
  while (atomic_load(&started) < THREADS) sched_yield();
  for (int k = 0; k < ROUNDS; ++k) sched_yield();
  EXPECT_OK(st_copy_plan_release(plan));
  atomic_store(&stop, 1);
  for (int k = 0; k < THREADS; ++k) {
    assert_int_equal(pthread_join(t[k], NULL), 0);
    assert_int_equal(w[k].failures, 0);
    /* stop is set after the release returned: an execution begun after
     * seeing it must be refused. */
    assert_int_equal(w[k].ok_after_stop, 0);
  }
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_release(plan));
  int64_t live = -1;
  EXPECT_OK(st_live_plan_count(&live));
  assert_int_equal(live, 0);
}

/* Plans made and released on several threads at once: ids stay unique
 * among live plans, and the count returns to 0. */
static void* create_and_release(void* arg) {
  int* failures = (int*)arg;
  st_tensor a = make_tensor(DIMS(4, 4), 2, ST_FLOAT32), b = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  for (int r = 0; r < ROUNDS; ++r) {
    st_copy_plan p, q;
    if (st_copy_plan_create(a, b, NULL, ST_PLAN_ESTIMATE, &p) != ST_OK) ++*failures;
    if (st_copy_plan_create(b, a, NULL, ST_PLAN_ESTIMATE, &q) != ST_OK) ++*failures;
    if (p.id == q.id) ++*failures;
    if (st_copy_plan_execute(p, a, b, 0) != ST_OK) ++*failures;
    if (st_copy_plan_release(p) != ST_OK) ++*failures;
    if (st_copy_plan_release(q) != ST_OK) ++*failures;
    if (st_copy_plan_release(p) != ST_ERROR_INVALID_HANDLE) ++*failures;
  }
  st_tensor_release(a);
  st_tensor_release(b);
  return NULL;
}

static void threads_create_and_release_plans(void** state) {
  (void)state;
  pthread_t t[THREADS];
  int failures[THREADS] = {0};
  for (int k = 0; k < THREADS; ++k) assert_int_equal(pthread_create(&t[k], NULL, create_and_release, &failures[k]), 0);
  for (int k = 0; k < THREADS; ++k) {
    assert_int_equal(pthread_join(t[k], NULL), 0);
    assert_int_equal(failures[k], 0);
  }
  int64_t live = -1;
  EXPECT_OK(st_live_plan_count(&live));
  assert_int_equal(live, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(threads_execute_one_plan_on_their_own_memory),
      cmocka_unit_test(threads_create_and_release_plans),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
