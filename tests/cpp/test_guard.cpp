// api::guarded, the boundary between C++ and C: every kind of exception that
// can leave a function body becomes the status include/stride.h documents
// for what went wrong (Note [From exceptions to statuses] in
// src/api/guard.cpp), with "fn: what" as the thread's message; only what is
// not a documented failure is ST_ERROR_INTERNAL.
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "api/guard.h"
#include "cmocka_cxx.h"
#include "core/error.h"

namespace {

template <typename Throw>
void expect_status(st_status want, const char* want_message, Throw&& throw_it) {
  const st_status got = st::api::guarded("st_probe", [&] { throw_it(); });
  assert_int_equal(got, want);
  const std::string expected = std::string("st_probe: ") + want_message;
  assert_string_equal(st::api::last_error_message(), expected.c_str());
}

void a_body_that_returns_is_ok(void**) {
  int ran = 0;
  assert_int_equal(st::api::guarded("st_probe", [&] { ran = 1; }), ST_OK);
  assert_int_equal(ran, 1);
}

void library_errors_keep_their_status(void**) {
  expect_status(ST_ERROR_SHAPE_MISMATCH, "sizes differ", [] { throw st::Error(ST_ERROR_SHAPE_MISMATCH, "sizes differ"); });
  expect_status(ST_ERROR_READ_ONLY, "read only", [] { throw st::Error(ST_ERROR_READ_ONLY, "read only"); });
}

void allocation_failures_are_out_of_memory(void**) {
  expect_status(ST_ERROR_OUT_OF_MEMORY, "out of memory", [] { throw std::bad_alloc(); });
  expect_status(ST_ERROR_OUT_OF_MEMORY, "out of memory", [] { throw std::bad_array_new_length(); });
  expect_status(ST_ERROR_OUT_OF_MEMORY, "vector::_M_default_append",
                [] { throw std::length_error("vector::_M_default_append"); });
  expect_status(ST_ERROR_OUT_OF_MEMORY, "count overflows", [] { throw std::overflow_error("count overflows"); });
  expect_status(ST_ERROR_OUT_OF_MEMORY, "out of range", [] { throw std::range_error("out of range"); });
  // A real one: a vector asked for more than it can hold.
  assert_int_equal(st::api::guarded("st_probe", [] { std::vector<double>().resize(SIZE_MAX / 2); }),
                   ST_ERROR_OUT_OF_MEMORY);
}

void bad_values_are_invalid_arguments(void**) {
  expect_status(ST_ERROR_INVALID_ARGUMENT, "bad value", [] { throw std::invalid_argument("bad value"); });
  expect_status(ST_ERROR_INVALID_ARGUMENT, "no such value", [] { throw std::domain_error("no such value"); });
}

void indexes_outside_are_out_of_bounds(void**) {
  expect_status(ST_ERROR_OUT_OF_BOUNDS, "index 9", [] { throw std::out_of_range("index 9"); });
}

// The category of errno's values in a system_error: system_category on
// POSIX; on Windows that one holds Windows' own error codes, and the C++
// runtime reports errno's (a refused thread's EAGAIN) in generic_category.
const std::error_category& errno_category() {
#ifdef _WIN32
  return std::generic_category();
#else
  return std::system_category();
#endif
}

void system_errors_out_of_resources_are_out_of_memory_others_internal(void**) {
  const std::string enomem = std::system_error(ENOMEM, std::generic_category(), "thread").what();
  const std::string eagain = std::system_error(EAGAIN, errno_category(), "thread").what();
  const std::string eperm = std::system_error(EPERM, std::generic_category(), "thread").what();
  expect_status(ST_ERROR_OUT_OF_MEMORY, enomem.c_str(),
                [] { throw std::system_error(ENOMEM, std::generic_category(), "thread"); });
  expect_status(ST_ERROR_OUT_OF_MEMORY, eagain.c_str(),
                [] { throw std::system_error(EAGAIN, errno_category(), "thread"); });
  expect_status(ST_ERROR_INTERNAL, eperm.c_str(),
                [] { throw std::system_error(EPERM, std::generic_category(), "thread"); });
}

void anything_else_is_internal(void**) {
  expect_status(ST_ERROR_INTERNAL, "a logic error", [] { throw std::logic_error("a logic error"); });
  expect_status(ST_ERROR_INTERNAL, "a runtime error", [] { throw std::runtime_error("a runtime error"); });
  expect_status(ST_ERROR_INTERNAL, "unknown exception", [] { throw 42; });
}

}  // namespace

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(a_body_that_returns_is_ok),
      cmocka_unit_test(library_errors_keep_their_status),
      cmocka_unit_test(allocation_failures_are_out_of_memory),
      cmocka_unit_test(bad_values_are_invalid_arguments),
      cmocka_unit_test(indexes_outside_are_out_of_bounds),
      cmocka_unit_test(system_errors_out_of_resources_are_out_of_memory_others_internal),
      cmocka_unit_test(anything_else_is_internal),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
