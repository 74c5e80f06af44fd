/* The tiny path through the C API: st_contiguous, st_clone and st_copy of
 * 4×4 tensors, with tracing off (direct calls, one allocation per tensor,
 * no iterator) and on (every operator reported), their results and their
 * errors; st_contiguous of a contiguous tensor hands back the same handle
 * with one more reference. */
#include "support.h"

static int g_reports;
static char g_names[16][32];

static void record(void* ctx, const char* op_name, int64_t duration_ns) {
  (void)ctx;
  (void)duration_ns;
  if (g_reports < 16) snprintf(g_names[g_reports], sizeof g_names[0], "%s", op_name);
  g_reports++;
}

static int turn_off(void** state) {
  (void)state;
  st_set_trace_callback(NULL, NULL);
  g_reports = 0;
  return 0;
}

/* 4×4 float32 holding 0..15, and its transpose (a view). */
static void make_4x4_and_transpose(st_tensor* a, st_tensor* t) {
  *a = make_iota_f32(DIMS(4, 4), 2);
  EXPECT_OK(st_transpose(*a, 0, 1, t));
}

static void expect_transposed_values(st_tensor c) {
  for (int64_t i = 0; i < 4; ++i) {
    for (int64_t j = 0; j < 4; ++j) assert_true(read_f32(c, DIMS(i, j)) == (float)(j * 4 + i));
  }
}

static void contiguous_of_a_transpose_is_a_new_contiguous_copy(void** state) {
  (void)state;
  st_tensor a, t, c = {GARBAGE_ID};
  make_4x4_and_transpose(&a, &t);
  EXPECT_OK(st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
  assert_true(c.id != t.id && c.id != a.id);
  expect_layout(c, 2, DIMS(4, 4), DIMS(4, 1), 0);
  expect_transposed_values(c);
  EXPECT_OK(st_tensor_release(c));
  expect_dead(c);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(a));
}

static void contiguous_of_a_contiguous_tensor_is_the_same_handle(void** state) {
  (void)state;
  st_tensor a = make_iota_f32(DIMS(4, 4), 2), c = {GARBAGE_ID};
  EXPECT_OK(st_contiguous(a, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
  assert_true(c.id == a.id);
  /* Two references now: the first release leaves the handle live. */
  EXPECT_OK(st_tensor_release(a));
  assert_true(read_f32(c, DIMS(3, 3)) == 15.0f);
  EXPECT_OK(st_tensor_release(c));
  expect_dead(a);
}

static void clone_and_copy_of_4x4_tensors_hold_the_source_values(void** state) {
  (void)state;
  st_tensor a, t, c = {GARBAGE_ID};
  make_4x4_and_transpose(&a, &t);
  EXPECT_OK(st_clone(a, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
  assert_true(c.id != a.id);
  for (int64_t i = 0; i < 16; ++i) assert_true(read_f32(c, DIMS(i / 4, i % 4)) == (float)i);
  /* Into the preallocated c: the transpose. */
  EXPECT_OK(st_copy(c, t, 0));
  expect_transposed_values(c);
  /* A preserve-format clone of the transpose keeps its stride order. */
  st_tensor p = {GARBAGE_ID};
  EXPECT_OK(st_clone(t, ST_MEMORY_FORMAT_PRESERVE, &p));
  expect_layout(p, 2, DIMS(4, 4), DIMS(1, 4), 0);
  expect_transposed_values(p);
  EXPECT_OK(st_tensor_release(p));
  EXPECT_OK(st_tensor_release(c));
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(a));
}

static void errors_leave_out_null_and_name_the_argument(void** state) {
  (void)state;
  st_tensor a, t, c = {GARBAGE_ID};
  make_4x4_and_transpose(&a, &t);
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, NULL));
  expect_message_contains("st_contiguous: out is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_contiguous((st_tensor){0}, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
  expect_null_handle(c);
  expect_message_contains("src is the null handle");
  c.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(t, ST_MEMORY_FORMAT_PRESERVE, &c));
  expect_null_handle(c);
  expect_message_contains("fmt = preserve");
  c.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(a, (st_memory_format)42, &c));
  expect_null_handle(c);
  expect_message_contains("fmt = 42");
  c.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_clone(t, ST_MEMORY_FORMAT_CHANNELS_LAST, &c));
  expect_null_handle(c);
  expect_message_contains("channels_last needs 4 dims");
  /* The failed calls took no reference: one release each ends them. */
  EXPECT_OK(st_tensor_release(t));
  expect_dead(t);
  EXPECT_OK(st_tensor_release(a));
  expect_dead(a);
}

static void with_tracing_every_operator_of_the_chain_is_reported(void** state) {
  (void)state;
  st_tensor a, t, c = {0}, same = {0};
  make_4x4_and_transpose(&a, &t);
  EXPECT_OK(st_set_trace_callback(record, NULL));
  EXPECT_OK(st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
  const char* chain[] = {"empty_strided", "empty_like", "copy_", "clone", "contiguous"};
  assert_int_equal(g_reports, 5);
  for (int i = 0; i < 5; ++i) assert_string_equal(g_names[i], chain[i]);
  expect_transposed_values(c);
  g_reports = 0;
  EXPECT_OK(st_contiguous(c, ST_MEMORY_FORMAT_CONTIGUOUS, &same));
  assert_int_equal(g_reports, 1);
  assert_string_equal(g_names[0], "contiguous");
  assert_true(same.id == c.id);
  /* Off again: nothing is reported, and the results are the same. */
  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  g_reports = 0;
  st_tensor again = {0};
  EXPECT_OK(st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &again));
  assert_int_equal(g_reports, 0);
  expect_transposed_values(again);
  EXPECT_OK(st_tensor_release(again));
  EXPECT_OK(st_tensor_release(same));
  EXPECT_OK(st_tensor_release(c));
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(a));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contiguous_of_a_transpose_is_a_new_contiguous_copy),
      cmocka_unit_test(contiguous_of_a_contiguous_tensor_is_the_same_handle),
      cmocka_unit_test(clone_and_copy_of_4x4_tensors_hold_the_source_values),
      cmocka_unit_test(errors_leave_out_null_and_name_the_argument),
      cmocka_unit_test_teardown(with_tracing_every_operator_of_the_chain_is_reported, turn_off),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
