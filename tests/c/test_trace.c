/* st_set_trace_callback: which calls are reported, in which order, from
 * which threads, and that nothing is once it is turned off; the operators
 * the copy functions are made of, each reported as it ends (nested first). */
/* ctest-labels: concurrency */
#include <pthread.h>

#include "support.h"

#define MAX_REPORTS 64

typedef struct recorder {
  pthread_mutex_t mutex;
  int count;
  char names[MAX_REPORTS][32];
  int64_t durations[MAX_REPORTS];
  int overflow;
} recorder;

static recorder g_rec = {PTHREAD_MUTEX_INITIALIZER, 0, {{0}}, {0}, 0};

static void record(void* ctx, const char* op_name, int64_t duration_ns) {
  recorder* r = (recorder*)ctx;
  pthread_mutex_lock(&r->mutex);
  if (r->count < MAX_REPORTS) {
    snprintf(r->names[r->count], sizeof r->names[0], "%s", op_name);
    r->durations[r->count] = duration_ns;
    r->count++;
  } else {
    r->overflow = 1;
  }
  pthread_mutex_unlock(&r->mutex);
}

static void reset_recorder(void) {
  pthread_mutex_lock(&g_rec.mutex);
  g_rec.count = 0;
  g_rec.overflow = 0;
  pthread_mutex_unlock(&g_rec.mutex);
}

static void expect_reports(int n, const char* const* names) {
  assert_int_equal(g_rec.overflow, 0);
  assert_int_equal(g_rec.count, n);
  for (int i = 0; i < n; ++i) {
    assert_string_equal(g_rec.names[i], names[i]);
    assert_true(g_rec.durations[i] >= 0);
  }
}

static int turn_off(void** state) {
  (void)state;
  st_set_trace_callback(NULL, NULL);
  reset_recorder();
  return 0;
}

static void create_like_reports_empty_strided_then_empty_like(void** state) {
  (void)state;
  int64_t sizes[2] = {3, 4};
  st_tensor src = make_tensor(sizes, 2, ST_FLOAT32), like = {0};
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_tensor_create_like(src, ST_MEMORY_FORMAT_CONTIGUOUS, &like));
  const char* names[] = {"empty_strided", "empty_like"};
  expect_reports(2, names);
  /* empty_like's call contains empty_strided's, on the same clock. */
  assert_true(g_rec.durations[1] >= g_rec.durations[0]);
  EXPECT_OK(st_tensor_release(like));
  EXPECT_OK(st_tensor_release(src));
}

static void create_and_create_strided_report_empty_strided(void** state) {
  (void)state;
  int64_t sizes[2] = {3, 4}, strides[2] = {1, 3};
  st_tensor a = {0}, b = {0};
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_tensor_create(sizes, 2, ST_INT32, CPU, &a));
  EXPECT_OK(st_tensor_create_strided(sizes, strides, 2, ST_INT32, CPU, &b));
  const char* names[] = {"empty_strided", "empty_strided"};
  expect_reports(2, names);
  EXPECT_OK(st_tensor_release(a));
  EXPECT_OK(st_tensor_release(b));
}

static void views_and_queries_are_not_reported(void** state) {
  (void)state;
  int64_t sizes[2] = {3, 4};
  st_tensor x = make_tensor(sizes, 2, ST_FLOAT32), xt = {0};
  int32_t ndim = 0;
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_OK(st_tensor_ndim(xt, &ndim));
  expect_reports(0, NULL);
  EXPECT_OK(st_tensor_release(xt));
  EXPECT_OK(st_tensor_release(x));
}

static void failing_create_like_is_not_reported(void** state) {
  (void)state;
  int64_t sizes[3] = {2, 3, 4};
  st_tensor x = make_tensor(sizes, 3, ST_FLOAT32), like = {0};
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  /* channels-last needs 4 dims: empty_like fails before it allocates. */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create_like(x, ST_MEMORY_FORMAT_CHANNELS_LAST, &like));
  expect_message_contains("st_tensor_create_like: fmt = channels_last needs 4 dims");
  expect_reports(0, NULL);
  assert_true(like.id == 0);
  EXPECT_OK(st_tensor_release(x));
}

/* The rule for failures (st_set_trace_callback: a call that fails is not
 * reported), one case per kind of call: an operator failing in its own
 * checks, one failing at the C boundary, a scaled copy failing on its
 * values, and a plan's execute failing on its operands, through both entry
 * points. Each kind is also shown reported once when it succeeds. */
static void failed_calls_of_every_kind_are_not_reported(void** state) {
  (void)state;
  st_tensor a = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), b = make_tensor(DIMS(4), 1, ST_INT32);
  st_tensor wrong = make_tensor(DIMS(4, 3), 2, ST_FLOAT32), out = {0};
  st_copy_plan plan = {0};
  EXPECT_OK(st_zero(b));
  EXPECT_OK(st_copy_plan_create(a, b, NULL, ST_PLAN_ESTIMATE, &plan));
  double scale[3] = {1, 2, 3};
  const st_scale_shift per_row = {scale, NULL, 3, 0, 0};
  const st_scale_shift wrong_n = {scale, NULL, 2, 0, 0};
  float raw_dst[12];
  int32_t raw_src[4] = {0};
  EXPECT_OK(st_set_trace_callback(record, &g_rec));

  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(b, a, 0));           /* in the operator */
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy(a, (st_tensor){0}, 0)); /* at the boundary */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(a, (st_memory_format)99, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(a, b, &wrong_n, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_scaled(a, b, NULL, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, wrong, b, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute_raw(plan, NULL, raw_src, 0));
  expect_reports(0, NULL);

  EXPECT_OK(st_copy(a, b, 0));
  EXPECT_OK(st_copy_scaled(a, b, &per_row, 0));
  EXPECT_OK(st_copy_plan_execute(plan, a, b, 0));
  EXPECT_OK(st_copy_plan_execute_raw(plan, raw_dst, raw_src, 0));
  const char* names[] = {"copy_", "copy_scaled_", "copy_plan_execute", "copy_plan_execute"};
  expect_reports(4, names);

  EXPECT_OK(st_copy_plan_release(plan));
  st_tensor ts[] = {a, b, wrong};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void nothing_is_reported_once_turned_off(void** state) {
  (void)state;
  int64_t sizes[1] = {5};
  st_tensor a = {0}, like = {0};
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_set_trace_callback(NULL, &g_rec));
  EXPECT_OK(st_tensor_create(sizes, 1, ST_UINT8, CPU, &a));
  EXPECT_OK(st_tensor_create_like(a, ST_MEMORY_FORMAT_PRESERVE, &like));
  expect_reports(0, NULL);
  EXPECT_OK(st_tensor_release(like));
  EXPECT_OK(st_tensor_release(a));
}

static void* create_on_this_thread(void* arg) {
  (void)arg;
  int64_t sizes[1] = {7};
  st_tensor t = {0};
  st_status s = st_tensor_create(sizes, 1, ST_FLOAT64, CPU, &t);
  st_tensor_release(t);
  return (void*)(intptr_t)s;
}

static void calls_on_other_threads_are_reported(void** state) {
  (void)state;
  pthread_t thread;
  void* status = NULL;
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  assert_int_equal(pthread_create(&thread, NULL, create_on_this_thread, NULL), 0);
  assert_int_equal(pthread_join(thread, &status), 0);
  assert_int_equal((intptr_t)status, ST_OK);
  const char* names[] = {"empty_strided"};
  expect_reports(1, names);
}

static void contiguous_of_a_non_contiguous_input_reports_the_clone_it_makes(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), xt = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_contiguous(xt, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  const char* names[] = {"empty_strided", "empty_like", "copy_", "clone", "contiguous"};
  expect_reports(5, names);
  /* each call contains the ones it made */
  assert_true(g_rec.durations[4] >= g_rec.durations[3]);
  assert_true(g_rec.durations[3] >= g_rec.durations[2]);
  assert_true(g_rec.durations[1] >= g_rec.durations[0]);
  st_tensor ts[] = {x, xt, out};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void contiguous_of_a_contiguous_input_reports_contiguous_alone(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), out = {0};
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_contiguous(x, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  const char* names[] = {"contiguous"};
  expect_reports(1, names);
  EXPECT_OK(st_tensor_release(out));
  EXPECT_OK(st_tensor_release(x));
}

static void to_a_new_dtype_reports_empty_strided_copy_then_to(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), out = {0}, same = {0};
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_to(x, ST_FLOAT16, CPU, ST_MEMORY_FORMAT_PRESERVE, &out));
  const char* names[] = {"empty_strided", "copy_", "to"};
  expect_reports(3, names);
  reset_recorder();
  EXPECT_OK(st_to(x, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &same)); /* nothing to change */
  const char* alone[] = {"to"};
  expect_reports(1, alone);
  st_tensor ts[] = {x, out, same};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void clone_reports_empty_like_unless_it_keeps_a_dense_layout(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(1, 2, 3, 4), 4, ST_INT8), sliced = {0}, out = {0};
  const st_memory_format fmts[] = {ST_MEMORY_FORMAT_CONTIGUOUS, ST_MEMORY_FORMAT_CHANNELS_LAST};
  EXPECT_OK(st_slice(x, 3, 0, 4, 2, &sliced)); /* every other column: not dense */
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  const char* with_like[] = {"empty_strided", "empty_like", "copy_", "clone"};
  for (int f = 0; f < 2; ++f) {
    reset_recorder();
    EXPECT_OK(st_clone(x, fmts[f], &out));
    expect_reports(4, with_like);
    EXPECT_OK(st_tensor_release(out));
  }
  /* PRESERVE of a layout that is not dense: empty_like works out a dense one */
  reset_recorder();
  EXPECT_OK(st_clone(sliced, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_reports(4, with_like);
  EXPECT_OK(st_tensor_release(out));
  /* PRESERVE of a dense layout: its own strides, straight to empty_strided */
  reset_recorder();
  EXPECT_OK(st_clone(x, ST_MEMORY_FORMAT_PRESERVE, &out));
  const char* kept[] = {"empty_strided", "copy_", "clone"};
  expect_reports(3, kept);
  EXPECT_OK(st_tensor_release(out));
  EXPECT_OK(st_tensor_release(sliced));
  EXPECT_OK(st_tensor_release(x));
}

static void copy_fill_and_zero_report_one_call_each(void** state) {
  (void)state;
  st_tensor a = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), b = make_tensor(DIMS(4), 1, ST_INT32);
  EXPECT_OK(st_zero(b));
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_copy(a, b, 0));
  EXPECT_OK(st_fill(a, 2.0));
  EXPECT_OK(st_zero(a));                                    /* st_zero is fill_ with 0 */
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(b, a, 0)); /* failing calls are not reported */
  const char* names[] = {"copy_", "fill_", "fill_"};
  expect_reports(3, names);
  EXPECT_OK(st_tensor_release(a));
  EXPECT_OK(st_tensor_release(b));
}

static void reshape_reports_the_clone_only_when_it_copies(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), xt = {0}, v = {0}, c = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_OK(st_set_trace_callback(record, &g_rec));
  EXPECT_OK(st_reshape(x, DIMS(12), 1, &v)); /* a view: not an operator */
  expect_reports(0, NULL);
  EXPECT_OK(st_reshape(xt, DIMS(12), 1, &c));
  const char* names[] = {"empty_strided", "empty_like", "copy_", "clone"};
  expect_reports(4, names);
  st_tensor ts[] = {x, xt, v, c};
  for (int i = 0; i < 4; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(create_like_reports_empty_strided_then_empty_like, turn_off),
      cmocka_unit_test_teardown(create_and_create_strided_report_empty_strided, turn_off),
      cmocka_unit_test_teardown(views_and_queries_are_not_reported, turn_off),
      cmocka_unit_test_teardown(failing_create_like_is_not_reported, turn_off),
      cmocka_unit_test_teardown(failed_calls_of_every_kind_are_not_reported, turn_off),
      cmocka_unit_test_teardown(nothing_is_reported_once_turned_off, turn_off),
      cmocka_unit_test_teardown(calls_on_other_threads_are_reported, turn_off),
      cmocka_unit_test_teardown(contiguous_of_a_non_contiguous_input_reports_the_clone_it_makes, turn_off),
      cmocka_unit_test_teardown(contiguous_of_a_contiguous_input_reports_contiguous_alone, turn_off),
      cmocka_unit_test_teardown(to_a_new_dtype_reports_empty_strided_copy_then_to, turn_off),
      cmocka_unit_test_teardown(clone_reports_empty_like_unless_it_keeps_a_dense_layout, turn_off),
      cmocka_unit_test_teardown(copy_fill_and_zero_report_one_call_each, turn_off),
      cmocka_unit_test_teardown(reshape_reports_the_clone_only_when_it_copies, turn_off),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
