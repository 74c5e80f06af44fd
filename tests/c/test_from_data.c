/* st_tensor_from_data: wrapping caller memory without copying, the storage
 * geometry of negative strides, and the deleter's one call. */
#include "support.h"

#define BIG (INT64_C(1) << 62)

typedef struct deleter_log {
  int calls;
  void* data;
  void* ctx;
} deleter_log;

static void log_deleter(void* data, void* ctx) {
  deleter_log* log = ctx;
  log->calls++;
  log->data = data;
  log->ctx = ctx;
}

static float g_buf[64];

static void fill_buffer(void) {
  for (int i = 0; i < 64; ++i) g_buf[i] = (float)i;
}

static st_tensor wrap(void* data, const int64_t* sizes, const int64_t* strides, int32_t ndim) {
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(data, sizes, strides, ndim, ST_FLOAT32, CPU, NULL, NULL, &t));
  return t;
}

static void* data_of(st_tensor t) {
  void* p = (void*)1;
  EXPECT_OK(st_tensor_data_ptr(t, &p));
  return p;
}

/* ---- success paths ------------------------------------------------------- */

static void wraps_a_buffer_without_copying(void** state) {
  (void)state;
  fill_buffer();
  st_tensor t = wrap(g_buf, DIMS(3, 4), DIMS(4, 1), 2);
  expect_layout(t, 2, DIMS(3, 4), DIMS(4, 1), 0);
  assert_ptr_equal(data_of(t), g_buf);
  assert_true(read_f32(t, DIMS(2, 1)) == 9.0f);
  g_buf[9] = 100.0f; /* the tensor sees the caller's writes */
  assert_true(read_f32(t, DIMS(2, 1)) == 100.0f);
  EXPECT_OK(st_tensor_release(t));
}

static void null_strides_mean_row_major(void** state) {
  (void)state;
  fill_buffer();
  st_tensor t = wrap(g_buf, DIMS(2, 3, 4), NULL, 3);
  expect_layout(t, 3, DIMS(2, 3, 4), DIMS(12, 4, 1), 0);
  assert_true(read_f32(t, DIMS(1, 2, 3)) == 23.0f);
  EXPECT_OK(st_tensor_release(t));
}

static void strides_with_gaps_are_kept(void** state) {
  (void)state;
  fill_buffer();
  st_tensor t = wrap(g_buf, DIMS(2, 3), DIMS(8, 2), 2);
  expect_layout(t, 2, DIMS(2, 3), DIMS(8, 2), 0);
  assert_true(read_f32(t, DIMS(1, 2)) == 12.0f);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, 0);
  EXPECT_OK(st_tensor_release(t));
}

static void negative_stride_puts_element_zero_inside_the_storage(void** state) {
  (void)state;
  fill_buffer();
  /* rows run backwards: element (0, 0) is g_buf[8], the storage starts at g_buf[0] */
  st_tensor t = wrap(g_buf + 8, DIMS(3, 4), DIMS(-4, 1), 2);
  expect_layout(t, 2, DIMS(3, 4), DIMS(-4, 1), 8);
  assert_ptr_equal(data_of(t), g_buf + 8);
  assert_true(read_f32(t, DIMS(0, 0)) == 8.0f);
  assert_true(read_f32(t, DIMS(2, 3)) == 3.0f);
  EXPECT_OK(st_tensor_release(t));
}

static void negative_strides_on_every_dim_put_element_zero_at_the_top(void** state) {
  (void)state;
  fill_buffer();
  st_tensor t = wrap(g_buf + 5, DIMS(2, 3), DIMS(-3, -1), 2);
  expect_layout(t, 2, DIMS(2, 3), DIMS(-3, -1), 5);
  assert_true(read_f32(t, DIMS(1, 2)) == 0.0f);
  EXPECT_OK(st_tensor_release(t));
}

static void mixed_sign_strides_span_from_the_lowest_element(void** state) {
  (void)state;
  fill_buffer();
  /* elements g_buf[2 + 3i - j]: the lowest is g_buf[0], the highest g_buf[5] */
  st_tensor t = wrap(g_buf + 2, DIMS(2, 3), DIMS(3, -1), 2);
  expect_layout(t, 2, DIMS(2, 3), DIMS(3, -1), 2);
  assert_true(read_f32(t, DIMS(1, 0)) == 5.0f);
  EXPECT_OK(st_tensor_release(t));
}

static void storage_is_exactly_the_span_of_the_wrapped_elements(void** state) {
  (void)state;
  fill_buffer();
  st_tensor t = wrap(g_buf + 8, DIMS(3, 4), DIMS(-4, 1), 2), all = {0}, past = {GARBAGE_ID},
            below = {GARBAGE_ID};
  /* the storage holds g_buf[0..12) */
  EXPECT_OK(st_as_strided(t, DIMS(12), DIMS(1), 1, 0, &all));
  assert_ptr_equal(data_of(all), g_buf);
  assert_true(read_f32(all, DIMS(11)) == 11.0f);
  EXPECT_STATUS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(t, DIMS(13), DIMS(1), 1, 0, &past));
  expect_null_handle(past);
  EXPECT_STATUS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(t, DIMS(2), DIMS(-1), 1, 0, &below));
  expect_null_handle(below);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(all));
}

static void scalar_wraps_one_element_with_null_sizes(void** state) {
  (void)state;
  double value = 4.25;
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(&value, NULL, NULL, 0, ST_FLOAT64, CPU, NULL, NULL, &t));
  int64_t numel = 0;
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(numel, 1);
  assert_ptr_equal(data_of(t), &value);
  EXPECT_OK(st_tensor_release(t));
}

static void empty_tensor_may_wrap_null_data(void** state) {
  (void)state;
  st_tensor t = wrap(NULL, DIMS(4, 0), NULL, 2);
  expect_layout(t, 2, DIMS(4, 0), DIMS(1, 1), 0);
  assert_null(data_of(t));
  EXPECT_OK(st_tensor_release(t));
}

static void writes_through_a_view_reach_the_callers_buffer(void** state) {
  (void)state;
  fill_buffer();
  st_tensor t = wrap(g_buf, DIMS(3, 4), NULL, 2), v = {0};
  EXPECT_OK(st_transpose(t, 0, 1, &v));
  float* p = data_of(v);
  int64_t strides[2];
  EXPECT_OK(st_tensor_strides(v, strides, 2));
  p[3 * strides[0] + 1 * strides[1]] = -1.0f; /* v[3][1] is t[1][3] */
  assert_true(g_buf[7] == -1.0f);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(v));
}

/* ---- the deleter ---------------------------------------------------------- */

static void deleter_runs_once_after_the_last_view_dies(void** state) {
  (void)state;
  deleter_log log = {0, NULL, NULL};
  st_tensor t = {0}, a = {0}, b = {0};
  EXPECT_OK(st_tensor_from_data(g_buf, DIMS(4, 4), NULL, 2, ST_FLOAT32, CPU, log_deleter, &log, &t));
  EXPECT_OK(st_transpose(t, 0, 1, &a));
  EXPECT_OK(st_slice(a, 0, 1, 3, 1, &b));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(log.calls, 0);
  EXPECT_OK(st_tensor_release(a));
  assert_int_equal(log.calls, 0);
  EXPECT_OK(st_tensor_release(b));
  assert_int_equal(log.calls, 1);
  assert_ptr_equal(log.data, g_buf);
  assert_ptr_equal(log.ctx, &log);
}

static void deleter_waits_for_every_retained_reference(void** state) {
  (void)state;
  deleter_log log = {0, NULL, NULL};
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(g_buf, DIMS(4), NULL, 1, ST_FLOAT32, CPU, log_deleter, &log, &t));
  EXPECT_OK(st_tensor_retain(t));
  EXPECT_OK(st_tensor_retain(t));
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(log.calls, 0);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(log.calls, 1);
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(t));
  assert_int_equal(log.calls, 1);
}

static void deleter_gets_the_data_pointer_given_even_with_negative_strides(void** state) {
  (void)state;
  deleter_log log = {0, NULL, NULL};
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(g_buf + 8, DIMS(3, 4), DIMS(-4, 1), 2, ST_FLOAT32, CPU, log_deleter, &log, &t));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(log.calls, 1);
  assert_ptr_equal(log.data, g_buf + 8);
}

static void deleter_of_an_empty_wrap_runs_once(void** state) {
  (void)state;
  deleter_log log = {0, g_buf, NULL};
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(NULL, DIMS(0), NULL, 1, ST_FLOAT32, CPU, log_deleter, &log, &t));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(log.calls, 1);
  assert_null(log.data);
}

static void null_deleter_leaves_the_memory_to_the_caller(void** state) {
  (void)state;
  float local[6] = {0, 1, 2, 3, 4, 5};
  st_tensor t = {0}, v = {0};
  EXPECT_OK(st_tensor_from_data(local, DIMS(2, 3), NULL, 2, ST_FLOAT32, CPU, NULL, NULL, &t));
  EXPECT_OK(st_flip(t, 1, &v));
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(v));
  assert_true(local[5] == 5.0f); /* still the caller's, untouched */
}

/* Every failing wrap: its status, `out` reset, and the deleter never called. */
static void expect_wrap_fails(st_status want, void* data, const int64_t* sizes, const int64_t* strides,
                              int32_t ndim, st_dtype dtype, st_device dev) {
  deleter_log log = {0, NULL, NULL};
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(want, st_tensor_from_data(data, sizes, strides, ndim, dtype, dev, log_deleter, &log, &t));
  expect_null_handle(t);
  assert_int_equal(log.calls, 0);
}

static void null_data_for_a_non_empty_tensor_is_invalid_argument(void** state) {
  (void)state;
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, NULL, DIMS(2, 3), NULL, 2, ST_FLOAT32, CPU);
  expect_message_contains("data is NULL");
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, NULL, NULL, NULL, 0, ST_FLOAT32, CPU); /* a scalar has one */
}

static void from_data_with_null_out_is_invalid_argument_and_keeps_the_memory(void** state) {
  (void)state;
  deleter_log log = {0, NULL, NULL};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT,
                st_tensor_from_data(g_buf, DIMS(2), NULL, 1, ST_FLOAT32, CPU, log_deleter, &log, NULL));
  assert_int_equal(log.calls, 0);
}

static void from_data_with_bad_sizes_is_invalid_argument(void** state) {
  (void)state;
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, DIMS(2, -3), NULL, 2, ST_FLOAT32, CPU);
  expect_message_contains("sizes[1] = -3");
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, NULL, NULL, 2, ST_FLOAT32, CPU);
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, DIMS(2), NULL, -1, ST_FLOAT32, CPU);
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, DIMS(2), NULL, 26, ST_FLOAT32, CPU);
}

/* Addresses that cannot hold the elements the strides describe: the call
 * refuses them without stepping a pointer past either end of the address
 * space (found by the fuzz target; the pointers are never dereferenced). */
static void from_data_whose_elements_leave_the_address_space_is_invalid_argument(void** state) {
  (void)state;
  void* low = (void*)(uintptr_t)64;
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, low, DIMS(3), DIMS(-1000), 1, ST_FLOAT32, CPU);
  expect_message_contains("outside the address space");
  void* high = (void*)(UINTPTR_MAX - 63);
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, high, DIMS(100), NULL, 1, ST_FLOAT32, CPU);
  expect_message_contains("outside the address space");
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, high, DIMS(2, 2), DIMS(-1, 16), 2, ST_FLOAT32, CPU);
}

static void from_data_with_unknown_dtype_or_device_is_invalid_argument(void** state) {
  (void)state;
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, DIMS(2), NULL, 1, (st_dtype)21, CPU);
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, DIMS(2), NULL, 1, ST_FLOAT32, ((st_device){0, 0}));
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, DIMS(2), NULL, 1, ST_FLOAT32, ((st_device){ST_DEVICE_CPU, 1}));
  expect_wrap_fails(ST_ERROR_INVALID_ARGUMENT, g_buf, DIMS(2), NULL, 1, ST_FLOAT32, ((st_device){ST_DEVICE_CPU, -1}));
}

static void from_data_on_cuda_is_device_unavailable(void** state) {
  (void)state;
  expect_wrap_fails(ST_ERROR_DEVICE_UNAVAILABLE, g_buf, DIMS(2), NULL, 1, ST_FLOAT32,
                    ((st_device){ST_DEVICE_CUDA, 0}));
  expect_wrap_fails(ST_ERROR_DEVICE_UNAVAILABLE, g_buf, DIMS(2), NULL, 1, ST_FLOAT32,
                    ((st_device){ST_DEVICE_CUDA_HOST, 0}));
}

static void from_data_whose_span_overflows_is_out_of_memory(void** state) {
  (void)state;
  /* (2^62) * 4 elements reach past int64 */
  expect_wrap_fails(ST_ERROR_OUT_OF_MEMORY, g_buf, DIMS(BIG, 4), NULL, 2, ST_FLOAT32, CPU);
  /* from -2^62 to +2^62: the distance overflows although each end fits */
  expect_wrap_fails(ST_ERROR_OUT_OF_MEMORY, g_buf, DIMS(2, 2), DIMS(-BIG, BIG), 2, ST_INT8, CPU);
  /* 2^61 + 1 elements fit, their bytes do not */
  expect_wrap_fails(ST_ERROR_OUT_OF_MEMORY, g_buf, DIMS(2), DIMS(INT64_C(1) << 61), 1, ST_FLOAT32, CPU);
}

static void from_data_whose_numel_overflows_is_out_of_memory(void** state) {
  (void)state;
  expect_wrap_fails(ST_ERROR_OUT_OF_MEMORY, g_buf, DIMS(BIG, 4), DIMS(0, 0), 2, ST_FLOAT32, CPU);
}

static void from_data_with_int64_min_stride_on_a_size_one_dim_wraps(void** state) {
  (void)state;
  fill_buffer();
  st_tensor t = wrap(g_buf, DIMS(1, 3), DIMS(INT64_MIN, 1), 2), f = {0};
  expect_layout(t, 2, DIMS(1, 3), DIMS(INT64_MIN, 1), 0);
  EXPECT_OK(st_flip(t, 0, &f)); /* flipping a size-1 dim touches no element */
  assert_true(read_f32(f, DIMS(0, 2)) == 2.0f);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(f));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(wraps_a_buffer_without_copying),
      cmocka_unit_test(null_strides_mean_row_major),
      cmocka_unit_test(strides_with_gaps_are_kept),
      cmocka_unit_test(negative_stride_puts_element_zero_inside_the_storage),
      cmocka_unit_test(negative_strides_on_every_dim_put_element_zero_at_the_top),
      cmocka_unit_test(mixed_sign_strides_span_from_the_lowest_element),
      cmocka_unit_test(storage_is_exactly_the_span_of_the_wrapped_elements),
      cmocka_unit_test(scalar_wraps_one_element_with_null_sizes),
      cmocka_unit_test(empty_tensor_may_wrap_null_data),
      cmocka_unit_test(writes_through_a_view_reach_the_callers_buffer),
      cmocka_unit_test(deleter_runs_once_after_the_last_view_dies),
      cmocka_unit_test(deleter_waits_for_every_retained_reference),
      cmocka_unit_test(deleter_gets_the_data_pointer_given_even_with_negative_strides),
      cmocka_unit_test(deleter_of_an_empty_wrap_runs_once),
      cmocka_unit_test(null_deleter_leaves_the_memory_to_the_caller),
      cmocka_unit_test(null_data_for_a_non_empty_tensor_is_invalid_argument),
      cmocka_unit_test(from_data_with_null_out_is_invalid_argument_and_keeps_the_memory),
      cmocka_unit_test(from_data_with_bad_sizes_is_invalid_argument),
      cmocka_unit_test(from_data_with_unknown_dtype_or_device_is_invalid_argument),
      cmocka_unit_test(from_data_on_cuda_is_device_unavailable),
      cmocka_unit_test(from_data_whose_span_overflows_is_out_of_memory),
      cmocka_unit_test(from_data_whose_elements_leave_the_address_space_is_invalid_argument),
      cmocka_unit_test(from_data_whose_numel_overflows_is_out_of_memory),
      cmocka_unit_test(from_data_with_int64_min_stride_on_a_size_one_dim_wraps),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
