/* A trace callback that calls back into the library (include/stride.h,
 * st_trace_fn: it "may call any stride function; operators it calls are not
 * reported"): copy plans executed from inside the callback are not
 * reported, a callback that executes a plan on every report does not
 * recurse, and a callback that switches tracing off after such a call
 * returns. A watchdog turns a hang into a failure. */
#include <string.h>

#include "portable.h"
#include "support.h"

#define WATCHDOG_SECONDS 30

typedef struct nested {
  st_copy_plan plan;
  st_tensor dst, src;
  int reports;            /* calls of the callback */
  int executes;           /* plan executes it made */
  int max_executes;       /* how many it makes at most, over all reports */
  int switch_off;         /* then st_set_trace_callback(NULL, NULL), from the outermost callback */
  int depth;              /* callbacks running on this thread */
  st_status last_status;  /* of its last execute */
  char first_name[32];
} nested;

static void execute_inside(void* ctx, const char* op_name, int64_t duration_ns) {
  nested* n = (nested*)ctx;
  (void)duration_ns;
  if (n->reports++ == 0) snprintf(n->first_name, sizeof n->first_name, "%s", op_name);
  n->depth++;
  if (n->executes < n->max_executes) {
    n->executes++;
    n->last_status = st_copy_plan_execute(n->plan, n->dst, n->src, 0);
  }
  /* Were the execute reported, it would have run this callback inside this
   * one (depth 2); the switch is made from the outer one, after it. */
  if (n->switch_off && n->depth == 1) st_set_trace_callback(NULL, NULL);
  n->depth--;
}

static nested make_nested(int max_executes, int switch_off) {
  nested n;
  memset(&n, 0, sizeof n);
  n.dst = make_tensor(DIMS(3, 4), 2, ST_FLOAT32);
  n.src = make_iota_f32(DIMS(4), 1);
  n.plan.id = 0;
  EXPECT_OK(st_copy_plan_create(n.dst, n.src, NULL, ST_PLAN_ESTIMATE, &n.plan));
  n.max_executes = max_executes;
  n.switch_off = switch_off;
  n.last_status = ST_ERROR_INTERNAL;
  return n;
}

static void free_nested(nested* n) {
  EXPECT_OK(st_copy_plan_release(n->plan));
  EXPECT_OK(st_tensor_release(n->dst));
  EXPECT_OK(st_tensor_release(n->src));
}

/* The plan's copy broadcast a row of 0, 1, 2, 3 into every row of dst. */
static void expect_rows_copied(st_tensor dst) {
  for (int64_t r = 0; r < 3; ++r) {
    for (int64_t c = 0; c < 4; ++c) assert_true(read_f32(dst, (const int64_t[]){r, c}) == (float)c);
  }
}

static int arm_watchdog(void** state) {
  (void)state;
  test_watchdog(WATCHDOG_SECONDS);
  return 0;
}

static int disarm_and_turn_off(void** state) {
  (void)state;
  test_watchdog(0);
  st_set_trace_callback(NULL, NULL);
  return 0;
}

static void an_execute_made_inside_the_callback_is_not_reported(void** state) {
  (void)state;
  nested n = make_nested(1, 0);
  EXPECT_OK(st_set_trace_callback(execute_inside, &n));
  EXPECT_OK(st_copy_plan_execute(n.plan, n.dst, n.src, 0));
  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  assert_int_equal(n.reports, 1);
  assert_string_equal(n.first_name, "copy_plan_execute");
  assert_int_equal(n.executes, 1);
  EXPECT_OK(n.last_status);
  expect_rows_copied(n.dst);
  free_nested(&n);
}

static void a_callback_executing_a_plan_on_every_report_does_not_recurse(void** state) {
  (void)state;
  /* Unbounded but for this cap, far below what the stack holds on the
   * first nested report's way down. */
  nested n = make_nested(1000, 0);
  EXPECT_OK(st_set_trace_callback(execute_inside, &n));
  EXPECT_OK(st_copy_plan_execute(n.plan, n.dst, n.src, 0));
  EXPECT_OK(st_copy(n.dst, n.src, 0));
  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  /* One report per outer call, one execute per report. */
  assert_int_equal(n.reports, 2);
  assert_int_equal(n.executes, 2);
  EXPECT_OK(n.last_status);
  free_nested(&n);
}

static void switching_off_inside_after_a_nested_execute_returns(void** state) {
  (void)state;
  /* Outer call a plan's execute, then a plain operator. */
  for (int outer_is_plan = 1; outer_is_plan >= 0; --outer_is_plan) {
    nested n = make_nested(1, 1);
    EXPECT_OK(st_set_trace_callback(execute_inside, &n));
    if (outer_is_plan) {
      EXPECT_OK(st_copy_plan_execute(n.plan, n.dst, n.src, 0));
    } else {
      EXPECT_OK(st_copy(n.dst, n.src, 0));
    }
    assert_int_equal(n.reports, 1);
    assert_string_equal(n.first_name, outer_is_plan ? "copy_plan_execute" : "copy_");
    EXPECT_OK(n.last_status);
    /* Off: nothing more reaches the callback, and switching from outside
     * (which waits for callbacks still running) returns. */
    EXPECT_OK(st_copy_plan_execute(n.plan, n.dst, n.src, 0));
    EXPECT_OK(st_copy(n.dst, n.src, 0));
    assert_int_equal(n.reports, 1);
    EXPECT_OK(st_set_trace_callback(execute_inside, &n));
    EXPECT_OK(st_set_trace_callback(NULL, NULL));
    free_nested(&n);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(an_execute_made_inside_the_callback_is_not_reported, arm_watchdog,
                                      disarm_and_turn_off),
      cmocka_unit_test_setup_teardown(a_callback_executing_a_plan_on_every_report_does_not_recurse, arm_watchdog,
                                      disarm_and_turn_off),
      cmocka_unit_test_setup_teardown(switching_off_inside_after_a_nested_execute_returns, arm_watchdog,
                                      disarm_and_turn_off),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
