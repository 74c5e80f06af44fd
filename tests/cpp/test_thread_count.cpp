// The default thread count: ST_NUM_THREADS when it holds a count from 1 to
// kMaxThreads (1024) by the one rule of the environment (digits only: Note
// [Reading the environment]), else the number of cores, bounded the same way.
#include <initializer_list>

#include "core/runtime/thread_count.h"
#include "cmocka_cxx.h"

using st::default_thread_count;

static void st_num_threads_from_one_to_the_most_is_taken(void**) {
  assert_int_equal(default_thread_count("1", 8), 1);
  assert_int_equal(default_thread_count("3", 8), 3);
  assert_int_equal(default_thread_count("1024", 8), 1024);
}

static void st_num_threads_outside_the_range_or_not_a_number_gives_the_cores(void**) {
  for (const char* env : {"0", "-3", "1025", "4096", "99999999999999999999", "", "4x", "four", " 3", "+2", "3 ",
                          "9223372036854775808", "18446744073709551616"})
    assert_int_equal(default_thread_count(env, 6), 6);
  assert_int_equal(default_thread_count(nullptr, 6), 6);
}

static void the_cores_are_bounded_too(void**) {
  assert_int_equal(default_thread_count(nullptr, 0), 1);  // unknown
  assert_int_equal(default_thread_count(nullptr, 1024), 1024);
  assert_int_equal(default_thread_count(nullptr, 1500), 1024);
  assert_int_equal(default_thread_count("bad", 5000), 1024);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(st_num_threads_from_one_to_the_most_is_taken),
      cmocka_unit_test(st_num_threads_outside_the_range_or_not_a_number_gives_the_cores),
      cmocka_unit_test(the_cores_are_bounded_too),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
