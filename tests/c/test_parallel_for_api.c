/* st_set_parallel_for through the public API: installing, replacing and
 * removing a job system, and the argument it refuses. (The chunks a job
 * system receives are tested with the internals, tests/cpp/test_parallel_for.cpp.) */
#include "support.h"

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(install_replace_and_remove),
      cmocka_unit_test(ctx_without_fn_is_invalid),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
