/* Versions, status and dtype names, and the thread-local error message. */
/* ctest-labels: concurrency */
#include <pthread.h>

#include "support.h"

static void version_is_major_minor_patch_of_0_3_0(void** state) {
  (void)state;
  assert_int_equal(st_version(), 300);
  assert_int_equal(st_version(), ST_VERSION_MAJOR * 10000 + ST_VERSION_MINOR * 100 + ST_VERSION_PATCH);
}

static void version_string_is_0_3_0(void** state) {
  (void)state;
  assert_string_equal(st_version_string(), "0.3.0");
}

static void status_name_of_every_status(void** state) {
  (void)state;
  static const char* const names[] = {
      "ST_OK",
      "ST_ERROR_INVALID_ARGUMENT",
      "ST_ERROR_INVALID_HANDLE",
      "ST_ERROR_OUT_OF_MEMORY",
      "ST_ERROR_SHAPE_MISMATCH",
      "ST_ERROR_UNSUPPORTED_DTYPE",
      "ST_ERROR_DEVICE_UNAVAILABLE",
      "ST_ERROR_OVERLAP",
      "ST_ERROR_OUT_OF_BOUNDS",
      "ST_ERROR_NOT_IMPLEMENTED",
      "ST_ERROR_DEVICE_FAILURE",
      "ST_ERROR_INTERNAL",
      "ST_ERROR_READ_ONLY",
  };
  for (int s = 0; s <= 12; ++s) assert_string_equal(st_status_name((st_status)s), names[s]);
  assert_string_equal(st_status_name(ST_ERROR_OVERLAP), "ST_ERROR_OVERLAP");
}

static void status_name_of_unknown_value_is_unknown_status(void** state) {
  (void)state;
  assert_string_equal(st_status_name((st_status)13), "ST_UNKNOWN_STATUS");
  assert_string_equal(st_status_name((st_status)-1), "ST_UNKNOWN_STATUS");
  assert_string_equal(st_status_name((st_status)1000), "ST_UNKNOWN_STATUS");
}

static void dtype_itemsize_of_all_twenty_one(void** state) {
  (void)state;
  /* float4_e2m1fn_x2's element is the byte holding two values. */
  static const size_t sizes[21] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16, 2, 4, 8, 1, 1, 1, 1, 1, 1};
  for (int d = 0; d < 21; ++d) assert_int_equal(st_dtype_itemsize((st_dtype)d), sizes[d]);
  assert_int_equal(st_dtype_itemsize(ST_UINT64), 8);
  assert_int_equal(st_dtype_itemsize(ST_FLOAT8_E4M3FN), 1);
}

static void dtype_itemsize_of_unknown_value_is_zero(void** state) {
  (void)state;
  assert_int_equal(st_dtype_itemsize((st_dtype)21), 0);
  assert_int_equal(st_dtype_itemsize((st_dtype)-1), 0);
  assert_int_equal(st_dtype_itemsize((st_dtype)255), 0);
}

static void dtype_name_of_all_twenty_one(void** state) {
  (void)state;
  static const char* const names[21] = {"bool",          "uint8",          "int8",           "int16",
                                        "int32",         "int64",          "float16",        "bfloat16",
                                        "float32",       "float64",        "complex64",      "complex128",
                                        "uint16",        "uint32",         "uint64",         "float8_e4m3fn",
                                        "float8_e5m2",   "float8_e8m0fnu", "float4_e2m1fn_x2", "float6_e2m3fn",
                                        "float6_e3m2fn"};
  for (int d = 0; d < 21; ++d) assert_string_equal(st_dtype_name((st_dtype)d), names[d]);
  assert_string_equal(st_dtype_name(ST_FLOAT8_E5M2), "float8_e5m2");
}

static void dtype_name_of_unknown_value_is_unknown(void** state) {
  (void)state;
  assert_string_equal(st_dtype_name((st_dtype)21), "unknown");
  assert_string_equal(st_dtype_name((st_dtype)-1), "unknown");
}

static void message_names_the_function_the_argument_and_the_values(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), y = {GARBAGE_ID};
  const int32_t dims[3] = {0, 1, 3};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, dims, 3, &y));
  expect_null_handle(y);
  expect_message_contains("st_permute");
  expect_message_contains("dims[2] = 3");
  expect_message_contains("3 dims");
  EXPECT_OK(st_tensor_release(x));
}

static void message_of_a_negative_size_names_the_index_and_value(void** state) {
  (void)state;
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(2, -5), 2, ST_FLOAT32, CPU, &t));
  expect_null_handle(t);
  expect_message_contains("st_tensor_create");
  expect_message_contains("sizes[1] = -5");
}

static void message_of_a_released_handle_names_the_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2), 1, ST_FLOAT32), y = {GARBAGE_ID};
  EXPECT_OK(st_tensor_release(x));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_flip(x, 0, &y));
  expect_null_handle(y);
  expect_message_contains("st_flip");
  expect_message_contains("src");
}

static void message_stays_unchanged_after_a_successful_call(void** state) {
  (void)state;
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(1), 26, ST_FLOAT32, CPU, &t));
  expect_null_handle(t);
  char before[1024];
  snprintf(before, sizeof before, "%s", st_last_error_message());
  assert_true(strstr(before, "ndim = 26") != NULL);

  st_tensor x = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), v = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &v));
  int32_t ndim = 0;
  EXPECT_OK(st_tensor_ndim(v, &ndim));
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release((st_tensor){0}));
  assert_string_equal(st_last_error_message(), before);
}

static void next_failure_replaces_the_message(void** state) {
  (void)state;
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(1), 1, (st_dtype)42, CPU, &t));
  expect_null_handle(t);
  expect_message_contains("dtype = 42");
  t.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(1), 1, ST_FLOAT32, ((st_device){9, 0}), &t));
  expect_null_handle(t);
  expect_message_contains("device.type = 9");
  assert_null(strstr(st_last_error_message(), "dtype = 42"));
}

struct thread_messages {
  char fresh[64];   /* the message a new thread sees before failing */
  char own[1024];   /* its message after its own failure */
};

static void* fail_on_a_fresh_thread(void* arg) {
  struct thread_messages* m = arg;
  snprintf(m->fresh, sizeof m->fresh, "%s", st_last_error_message());
  st_tensor t = {GARBAGE_ID};
  (void)st_tensor_create(DIMS(-3), 1, ST_FLOAT32, CPU, &t);
  snprintf(m->own, sizeof m->own, "%s", st_last_error_message());
  return NULL;
}

static void message_is_empty_on_a_fresh_thread_and_per_thread(void** state) {
  (void)state;
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(1), -1, ST_FLOAT32, CPU, &t));
  expect_null_handle(t);
  char mine[1024];
  snprintf(mine, sizeof mine, "%s", st_last_error_message());

  struct thread_messages m;
  memset(&m, 'x', sizeof m);
  pthread_t th;
  assert_int_equal(pthread_create(&th, NULL, fail_on_a_fresh_thread, &m), 0);
  assert_int_equal(pthread_join(th, NULL), 0);
  assert_string_equal(m.fresh, "");
  assert_non_null(strstr(m.own, "sizes[0] = -3"));
  assert_string_equal(st_last_error_message(), mine);  /* the other thread's failure is its own */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(version_is_major_minor_patch_of_0_3_0),
      cmocka_unit_test(version_string_is_0_3_0),
      cmocka_unit_test(status_name_of_every_status),
      cmocka_unit_test(status_name_of_unknown_value_is_unknown_status),
      cmocka_unit_test(dtype_itemsize_of_all_twenty_one),
      cmocka_unit_test(dtype_itemsize_of_unknown_value_is_zero),
      cmocka_unit_test(dtype_name_of_all_twenty_one),
      cmocka_unit_test(dtype_name_of_unknown_value_is_unknown),
      cmocka_unit_test(message_names_the_function_the_argument_and_the_values),
      cmocka_unit_test(message_of_a_negative_size_names_the_index_and_value),
      cmocka_unit_test(message_of_a_released_handle_names_the_argument),
      cmocka_unit_test(message_stays_unchanged_after_a_successful_call),
      cmocka_unit_test(next_failure_replaces_the_message),
      cmocka_unit_test(message_is_empty_on_a_fresh_thread_and_per_thread),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
