/* st_live_tensor_count: handles issued and not yet released. */
#include "support.h"

static int64_t live(void) {
  int64_t n = -1;
  EXPECT_OK(st_live_tensor_count(&n));
  assert_true(n >= 0);
  return n;
}

static void creating_adds_one_and_the_last_release_removes_it(void** state) {
  (void)state;
  const int64_t before = live();
  st_tensor t = make_tensor(DIMS(2, 3), 2, ST_FLOAT32);
  assert_int_equal(live(), before + 1);
  EXPECT_OK(st_tensor_retain(t)); /* more references, still one handle */
  assert_int_equal(live(), before + 1);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(live(), before + 1);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(live(), before);
}

static void views_are_handles_of_their_own(void** state) {
  (void)state;
  const int64_t before = live();
  st_tensor t = make_tensor(DIMS(2, 3), 2, ST_FLOAT32), v = {0}, w = {0};
  EXPECT_OK(st_transpose(t, 0, 1, &v));
  EXPECT_OK(st_flip(v, 0, &w));
  assert_int_equal(live(), before + 3);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(live(), before + 2); /* the views live on */
  EXPECT_OK(st_tensor_release(w));
  EXPECT_OK(st_tensor_release(v));
  assert_int_equal(live(), before);
}

static void contiguous_of_a_contiguous_tensor_returns_the_same_handle(void** state) {
  (void)state;
  const int64_t before = live();
  st_tensor t = make_tensor(DIMS(4), 1, ST_FLOAT32), c = {0};
  EXPECT_OK(st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
  assert_true(c.id == t.id);
  assert_int_equal(live(), before + 1);
  EXPECT_OK(st_tensor_release(c));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(live(), before);
}

static void failing_calls_issue_no_handle(void** state) {
  (void)state;
  const int64_t before = live();
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(-1), 1, ST_FLOAT32, CPU, &t));
  expect_null_handle(t);
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_tensor_create(DIMS(INT64_MAX, 2), 2, ST_FLOAT32, CPU, &t));
  assert_int_equal(live(), before);
}

static void null_out_is_invalid_argument(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_live_tensor_count(NULL));
  expect_message_contains("st_live_tensor_count: out is NULL");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(creating_adds_one_and_the_last_release_removes_it),
      cmocka_unit_test(views_are_handles_of_their_own),
      cmocka_unit_test(contiguous_of_a_contiguous_tensor_returns_the_same_handle),
      cmocka_unit_test(failing_calls_issue_no_handle),
      cmocka_unit_test(null_out_is_invalid_argument),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
