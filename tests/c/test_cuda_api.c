/* The CUDA functions of the C API as a machine without a GPU sees them, in
 * builds with and without CUDA: no devices, and every use of one answers
 * ST_ERROR_DEVICE_UNAVAILABLE with the reason. On a machine with GPUs the
 * same calls must succeed, and only out-of-range indices fail. */
#include "support.h"

#ifndef STRIDE_TEST_WITH_CUDA
#error "tests/CMakeLists.txt defines STRIDE_TEST_WITH_CUDA"
#endif

static int32_t device_count(void) {
  int32_t n = -1;
  EXPECT_OK(st_cuda_device_count(&n));
  assert_true(n >= 0);
  return n;
}

/* The message says why no device can be used. */
static void expect_reason(void) {
  if (!STRIDE_TEST_WITH_CUDA) {
    expect_message_contains("this build of stride has no CUDA support");
    return;
  }
  expect_message_contains(" is unavailable: ");
  const char* msg = st_last_error_message();
  const char* reasons[] = {"no CUDA driver is installed", "the CUDA driver is too old", "no CUDA device is present",
                           "the CUDA runtime could not start"};
  for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; ++i) {
    if (strstr(msg, reasons[i])) return;
  }
  print_error("message \"%s\" gives no reason for the missing device\n", msg);
  fail();
}

static void device_count_is_zero_without_cuda(void** state) {
  (void)state;
  int32_t n = device_count();
  if (!STRIDE_TEST_WITH_CUDA) assert_int_equal(n, 0);
  print_message("st_cuda_device_count: %d\n", n);
}

static void device_count_needs_out(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_cuda_device_count(NULL));
  expect_message_contains("st_cuda_device_count: out is NULL");
}

/* st_tensor_create and st_tensor_create_strided on `device`: refused, with
 * the reason, and out left {0}. */
static void expect_create_unavailable(st_device device, const char* device_text) {
  int64_t sizes[2] = {2, 3}, strides[2] = {3, 1};
  st_tensor t = {12345};
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_tensor_create(sizes, 2, ST_FLOAT32, device, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains("st_tensor_create: ");
  expect_message_contains(device_text);
  t.id = 12345;
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_tensor_create_strided(sizes, strides, 2, ST_INT64, device, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains("st_tensor_create_strided: ");
  expect_message_contains(device_text);
}

static void creating_on_a_missing_device_says_why(void** state) {
  (void)state;
  int32_t n = device_count();
  if (n == 0) {
    expect_create_unavailable((st_device){ST_DEVICE_CUDA, 0}, "device cuda:0 ");
    expect_reason();
    expect_create_unavailable((st_device){ST_DEVICE_CUDA_HOST, 0}, "device cuda_host:0 ");
    if (STRIDE_TEST_WITH_CUDA) expect_message_contains("(pinned host memory)");
    expect_reason();
    expect_create_unavailable((st_device){ST_DEVICE_CUDA, 7}, "device cuda:7 ");
    expect_reason();
  } else {
    char text[64];
    snprintf(text, sizeof text, "device cuda:%d is out of range", (int)n);
    expect_create_unavailable((st_device){ST_DEVICE_CUDA, n}, text);
    snprintf(text, sizeof text, "device cuda_host:%d (pinned host memory) is out of range", (int)n);
    expect_create_unavailable((st_device){ST_DEVICE_CUDA_HOST, n}, text);
  }
}

static int deleter_calls = 0;
static void count_deleter(void* data, void* ctx) {
  (void)data;
  (void)ctx;
  ++deleter_calls;
}

/* Wrapping memory that claims to be on a missing device: refused, and the
 * caller keeps ownership (the deleter never runs). */
static void wrapping_memory_of_a_missing_device_is_refused(void** state) {
  (void)state;
  int32_t n = device_count();
  float fake[6];
  int64_t sizes[2] = {2, 3};
  st_device devices[2] = {{ST_DEVICE_CUDA, n}, {ST_DEVICE_CUDA_HOST, n}};
  for (int i = 0; i < 2; ++i) {
    st_tensor t = {12345};
    deleter_calls = 0;
    EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE,
                  st_tensor_from_data(fake, sizes, NULL, 2, ST_FLOAT32, devices[i], count_deleter, NULL, &t));
    assert_int_equal(t.id, 0);
    assert_int_equal(deleter_calls, 0);
    expect_message_contains("st_tensor_from_data: device ");
    if (n == 0) {
      expect_reason();
    } else {
      expect_message_contains("is out of range");
    }
  }
}

static void set_stream_and_synchronize_answer(void** state) {
  (void)state;
  int32_t n = device_count();
  if (n == 0) {
    EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_set_stream(0, NULL));
    expect_message_contains("st_cuda_set_stream: device cuda:0");
    expect_reason();
    EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_synchronize(0));
    expect_message_contains("st_cuda_synchronize: device cuda:0");
    expect_reason();
  } else {
    EXPECT_OK(st_cuda_set_stream(0, NULL));
    EXPECT_OK(st_cuda_synchronize(0));
  }
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_set_stream(n, NULL));
  expect_message_contains("st_cuda_set_stream: device cuda:");
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_synchronize(n));
  expect_message_contains("st_cuda_synchronize: device cuda:");
}

/* st_cuda_empty_cache: without a device refused with the reason; with one
 * it succeeds (tests/cuda/test_cuda_runtime.cpp checks what it gives back). */
static void empty_cache_answers(void** state) {
  (void)state;
  int32_t n = device_count();
  if (n == 0) {
    EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_empty_cache(0));
    expect_message_contains("st_cuda_empty_cache: device cuda:0");
    expect_reason();
  } else {
    EXPECT_OK(st_cuda_empty_cache(0));
  }
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_empty_cache(n));
  expect_message_contains("st_cuda_empty_cache: device cuda:");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_cuda_empty_cache(-3));
  expect_message_contains("st_cuda_empty_cache: device = -3 is negative");
}

static void negative_device_index_is_an_argument_error(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_cuda_set_stream(-1, NULL));
  expect_message_contains("st_cuda_set_stream: device = -1 is negative");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_cuda_synchronize(-2));
  expect_message_contains("st_cuda_synchronize: device = -2 is negative");
  int64_t sizes[1] = {4};
  st_tensor t = {12345};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(sizes, 1, ST_FLOAT32, (st_device){ST_DEVICE_CUDA, -1}, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains("device.index = -1 is negative");
}

/* A failing CUDA call leaves CPU work alone. */
static void cpu_tensors_work_after_cuda_errors(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_synchronize(device_count()));
  int64_t sizes[2] = {2, 3};
  st_tensor t = make_tensor(sizes, 2, ST_FLOAT32);
  int64_t strides[2] = {3, 1};
  expect_layout(t, 2, sizes, strides, 0);
  EXPECT_OK(st_tensor_release(t));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_count_is_zero_without_cuda),
      cmocka_unit_test(device_count_needs_out),
      cmocka_unit_test(creating_on_a_missing_device_says_why),
      cmocka_unit_test(wrapping_memory_of_a_missing_device_is_refused),
      cmocka_unit_test(set_stream_and_synchronize_answer),
      cmocka_unit_test(empty_cache_answers),
      cmocka_unit_test(negative_device_index_is_an_argument_error),
      cmocka_unit_test(cpu_tensors_work_after_cuda_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
