// The one rule for ST_* environment variables (Note [Reading the
// environment] in core/runtime/environment.h): a count is decimal digits
// only, within the variable's range; a word is one of a list, exactly;
// anything else is ignored and noted with the reason.
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "core/runtime/environment.h"
#include "../c/portable.h"
#include "cmocka_cxx.h"

namespace {

using st::env::parse_count;

void counts_are_digits_within_the_range(void**) {
  int64_t v = -1;
  assert_true(parse_count("0", 0, 10, &v));
  assert_int_equal(v, 0);
  assert_true(parse_count("10", 0, 10, &v));
  assert_int_equal(v, 10);
  assert_true(parse_count("007", 0, 10, &v));  // leading zeros are still digits
  assert_int_equal(v, 7);
  assert_true(parse_count("9223372036854775807", 0, INT64_MAX, &v));
  assert_int_equal(v, INT64_MAX);
}

void everything_else_is_refused_and_leaves_the_output(void**) {
  // Empty, text, signs, spaces, suffixes, hex, 2^63, 2^64 and beyond, and
  // values outside the range: the inputs the hostile pass used.
  for (const char* bad : {"", "abc", "-1", "+2", " 3", "3 ", "4x", "4 KiB", "0x10", "1e3", "1.5",
                          "9223372036854775808", "18446744073709551616", "99999999999999999999999", "11"}) {
    int64_t v = 42;
    assert_false(parse_count(bad, 0, 10, &v));
    assert_int_equal(v, 42);
  }
  int64_t v = 42;
  assert_false(parse_count(nullptr, 0, 10, &v));
  assert_false(parse_count("0", 1, 10, &v));
  assert_int_equal(v, 42);
}

void an_ignored_value_is_noted_with_its_reason(void**) {
  int64_t v = 5;
  assert_false(st::env::count_from("ST_TEST_COUNT", " 3", 1, 8, "a whole number from 1 to 8", &v));
  assert_int_equal(v, 5);
  assert_true(st::env::count_from("ST_TEST_COUNT", "3", 1, 8, "a whole number from 1 to 8", &v));
  assert_int_equal(v, 3);
  assert_false(st::env::count_from("ST_TEST_COUNT", nullptr, 1, 8, "unused", &v));  // unset: no note
  const std::string notes = st::env::ignored_notes();
  assert_true(notes.find("ST_TEST_COUNT=' 3' ignored: expected a whole number from 1 to 8\n") != std::string::npos);
  assert_true(notes.find("ST_TEST_COUNT='3'") == std::string::npos);
}

void words_are_exact(void**) {
  const char* const words[] = {"scalar", "avx2", "avx512"};
  test_setenv("ST_TEST_WORD", "avx2");
  assert_int_equal(st::env::read_word("ST_TEST_WORD", words, 3, "scalar, avx2 or avx512"), 1);
  // (Not the empty string: on Windows, setting it removes the variable.)
  for (const char* bad : {"AVX2", " avx2", "avx2 ", "avx", "avx5120"}) {
    test_setenv("ST_TEST_WORD", bad);
    assert_int_equal(st::env::read_word("ST_TEST_WORD", words, 3, "scalar, avx2 or avx512"), -1);
  }
  assert_int_equal(st::env::read_word("ST_TEST_WORD_NEVER_SET", words, 3, "scalar, avx2 or avx512"), -1);
  const std::string notes = st::env::ignored_notes();
  assert_true(notes.find("ST_TEST_WORD='AVX2' ignored: expected scalar, avx2 or avx512\n") != std::string::npos);
  assert_true(notes.find("ST_TEST_WORD=' avx2' ignored") != std::string::npos);
  assert_true(notes.find("ST_TEST_WORD_NEVER_SET") == std::string::npos);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(counts_are_digits_within_the_range),
      cmocka_unit_test(everything_else_is_refused_and_leaves_the_output),
      cmocka_unit_test(an_ignored_value_is_noted_with_its_reason),
      cmocka_unit_test(words_are_exact),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
