/* st_runtime_settings: the kernel level ST_CPU_CAPABILITY chose, the
 * streaming and transpose lines, and every ST_* value the library ignored,
 * with the reason (docs/tuning.md). main() sets the environment before the
 * first call into the library. */
#include <string.h>

#include "portable.h"
#include "support.h"

static void has_line(const char* text, const char* line) {
  if (!strstr(text, line)) {
    print_error("missing line '%s' in:\n%s", line, text);
    fail();
  }
}

static void the_level_is_the_one_st_cpu_capability_names(void** state) {
  (void)state;
  /* scalar is a level of every target and every CPU. */
  const char* text = st_runtime_settings();
  assert_non_null(text);
  has_line(text, "cpu level: scalar");
  has_line(text, "threads: ");
  has_line(text, "stream threshold: ");
  has_line(text, "transpose blocks: ");
}

static void each_ignored_value_is_listed_with_its_reason(void** state) {
  (void)state;
  const char* text = st_runtime_settings();
  has_line(text, "ignored: ST_NUM_THREADS=' 3' ignored: expected a whole number from 1 to 1024\n");
  has_line(text, "ignored: ST_STREAM_PAGES='3' ignored: expected 1, 2 or 4\n");
  has_line(text, "ignored: ST_CPU_BLOCK_CACHE_BYTES='-1' ignored: expected a byte count");
  has_line(text, "ignored: ST_TRANSPOSE_SRC_BYTES='1000' ignored: expected a power of two from 64 to 65536\n");
  /* A value that was ignored leaves the default: the cores, in order. */
  assert_true(st_get_num_threads() >= 1);
  has_line(text, "stream pages side by side: 1");
}

static void the_text_belongs_to_the_library_and_lasts_until_the_next_call(void** state) {
  (void)state;
  const char* first = st_runtime_settings();
  char copy[4096];
  strncpy(copy, first, sizeof copy - 1);
  copy[sizeof copy - 1] = '\0';
  EXPECT_OK(st_set_num_threads(7));
  const char* second = st_runtime_settings();
  has_line(second, "threads: 7\n");
  assert_string_not_equal(copy, second);
  EXPECT_OK(st_set_num_threads(1));
}

int main(void) {
  /* before any call into the library */
  test_setenv("ST_CPU_CAPABILITY", "scalar");
  test_setenv("ST_NUM_THREADS", " 3");
  test_setenv("ST_STREAM_PAGES", "3");
  test_setenv("ST_CPU_BLOCK_CACHE_BYTES", "-1");
  test_setenv("ST_TRANSPOSE_SRC_BYTES", "1000");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_level_is_the_one_st_cpu_capability_names),
      cmocka_unit_test(each_ignored_value_is_listed_with_its_reason),
      cmocka_unit_test(the_text_belongs_to_the_library_and_lasts_until_the_next_call),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
