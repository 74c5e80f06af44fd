/* st_tensor_format: the text of a few tensors (each expected string is
 * NumPy 1.24's numpy.array2string of the same array, options included),
 * the buffer protocol (cap, needed, nothing written when it does not fit)
 * and every error it answers. tests/numpy/test_numpy_format.py compares
 * many more arrays with NumPy itself. */
#include <math.h>
#include <stdlib.h>

#include "support.h"

static void expect_text(st_tensor t, const st_format_options* opts, const char* want) {
  char* got = tensor_text(t, opts);
  assert_string_equal(got, want);
  free(got);
}

static st_format_options options(int32_t precision, int32_t edgeitems, int64_t threshold, int32_t linewidth) {
  st_format_options o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.precision = precision;
  o.edgeitems = edgeitems;
  o.threshold = threshold;
  o.linewidth = linewidth;
  return o;
}

static void prints_as_numpy_array2string(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), flipped = {0};
  expect_text(x, NULL, "[[0. 1. 2.]\n [3. 4. 5.]]");
  EXPECT_OK(st_flip(x, 1, &flipped));
  expect_text(flipped, NULL, "[[2. 1. 0.]\n [5. 4. 3.]]");

  double specials[4] = {-0.0, NAN, -INFINITY, 1e-5};
  st_tensor s = {0};
  EXPECT_OK(st_tensor_from_data(specials, DIMS(4), NULL, 1, ST_FLOAT64, CPU, NULL, NULL, &s));
  expect_text(s, NULL, "[-0.e+00     nan    -inf  1.e-05]");

  float pairs[4] = {1, 2, -0.0f, -0.5f};
  st_tensor c = {0};
  EXPECT_OK(st_tensor_from_data(pairs, DIMS(2), NULL, 1, ST_COMPLEX64, CPU, NULL, NULL, &c));
  expect_text(c, NULL, "[ 1.+2.j  -0.-0.5j]");

  uint8_t bytes[30];
  for (int i = 0; i < 30; ++i) bytes[i] = (uint8_t)i;
  st_tensor u = {0}, every_other = {0};
  EXPECT_OK(st_tensor_from_data(bytes, DIMS(2, 3, 5), NULL, 3, ST_UINT8, CPU, NULL, NULL, &u));
  EXPECT_OK(st_slice(u, 2, 0, 5, 2, &every_other));
  expect_text(every_other, NULL, "[[[ 0  2  4]\n  [ 5  7  9]\n  [10 12 14]]\n\n [[15 17 19]\n  [20 22 24]\n  [25 27 29]]]");

  st_tensor ts[] = {x, flipped, s, c, u, every_other};
  for (int i = 0; i < 6; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void zero_dims_and_no_elements(void** state) {
  (void)state;
  double v = 2.5;
  int16_t i = 7;
  uint8_t yes = 1;
  st_tensor d = {0}, n = {0}, b = {0}, e = {0};
  EXPECT_OK(st_tensor_from_data(&v, NULL, NULL, 0, ST_FLOAT64, CPU, NULL, NULL, &d));
  EXPECT_OK(st_tensor_from_data(&i, NULL, NULL, 0, ST_INT16, CPU, NULL, NULL, &n));
  EXPECT_OK(st_tensor_from_data(&yes, NULL, NULL, 0, ST_BOOL, CPU, NULL, NULL, &b));
  EXPECT_OK(st_tensor_create(DIMS(2, 0), 2, ST_FLOAT32, CPU, &e));
  expect_text(d, NULL, "2.5");
  expect_text(n, NULL, "7");
  expect_text(b, NULL, "True");
  expect_text(e, NULL, "[]");
  st_tensor ts[] = {d, n, b, e};
  for (int k = 0; k < 4; ++k) EXPECT_OK(st_tensor_release(ts[k]));
}

static void large_tensors_are_summarized_and_options_apply(void** state) {
  (void)state;
  int32_t* values = malloc(2000 * sizeof(int32_t));
  assert_non_null(values);
  for (int k = 0; k < 2000; ++k) values[k] = k;
  st_tensor big = {0};
  EXPECT_OK(st_tensor_from_data(values, DIMS(2, 1000), NULL, 2, ST_INT32, CPU, NULL, NULL, &big));
  expect_text(big, NULL, "[[   0    1    2 ...  997  998  999]\n [1000 1001 1002 ... 1997 1998 1999]]");
  const st_format_options zeros = options(0, 0, 0, 0); /* NumPy's defaults, as NULL */
  expect_text(big, &zeros, "[[   0    1    2 ...  997  998  999]\n [1000 1001 1002 ... 1997 1998 1999]]");

  double thirds[100];
  for (int k = 0; k < 100; ++k) thirds[k] = k / 3.0;
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(thirds, DIMS(100), NULL, 1, ST_FLOAT64, CPU, NULL, NULL, &t));
  const st_format_options o = options(3, 4, 10, 30);
  expect_text(t, &o, "[ 0.     0.333  0.667  1.\n ... 32.    32.333 32.667\n 33.   ]");
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(big));
  free(values);
}

static void a_larger_options_struct_is_read_when_its_tail_is_zero(void** state) {
  (void)state;
  struct {
    st_format_options known;
    uint32_t newer_field;
  } bigger;
  memset(&bigger, 0, sizeof bigger);
  bigger.known.struct_size = sizeof bigger;
  bigger.known.linewidth = 10;
  st_tensor x = make_iota_f32(DIMS(6), 1);
  expect_text(x, &bigger.known, "[0. 1. 2.\n 3. 4. 5.]");
  bigger.newer_field = 1;
  size_t needed = 77;
  char buf[64];
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_format(x, &bigger.known, buf, sizeof buf, &needed));
  expect_message_contains("a field this library");
  assert_int_equal(needed, 77);
  EXPECT_OK(st_tensor_release(x));
}

static void the_text_and_its_nul_fit_exactly_or_nothing_is_written(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2);
  char buf[64];
  size_t needed = 0;
  EXPECT_OK(st_tensor_format(x, NULL, buf, 25, &needed));
  assert_int_equal(needed, 25);
  assert_string_equal(buf, "[[0. 1. 2.]\n [3. 4. 5.]]");

  memset(buf, 'x', sizeof buf);
  needed = 0;
  EXPECT_STATUS(ST_ERROR_OUT_OF_BOUNDS, st_tensor_format(x, NULL, buf, 24, &needed));
  assert_int_equal(needed, 25);
  expect_message_contains("st_tensor_format: the text takes 25 bytes");
  for (size_t k = 0; k < sizeof buf; ++k) assert_int_equal(buf[k], 'x');
  needed = 0;
  EXPECT_STATUS(ST_ERROR_OUT_OF_BOUNDS, st_tensor_format(x, NULL, NULL, 0, &needed));
  assert_int_equal(needed, 25);
  EXPECT_OK(st_tensor_release(x));
}

static void argument_errors_are_invalid_argument_and_write_nothing(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3), 1);
  char buf[64];
  memset(buf, 'x', sizeof buf);
  size_t needed = 77;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_format(x, NULL, buf, sizeof buf, NULL));
  expect_message_contains("st_tensor_format: needed is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_format(x, NULL, NULL, 5, &needed));
  expect_message_contains("buf is NULL but cap = 5");

  st_format_options o = options(0, 0, 0, 0);
  o.struct_size = sizeof o - 1;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_format(x, &o, buf, sizeof buf, &needed));
  expect_message_contains("opts->struct_size");
  o.struct_size = 0;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_format(x, &o, buf, sizeof buf, &needed));
  o.struct_size = 4097; /* beyond any struct: not read past the 32 known bytes */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_format(x, &o, buf, sizeof buf, &needed));
  expect_message_contains("up to 4096");

  const struct {
    st_format_options o;
    const char* field;
  } negative[] = {{options(-1, 0, 0, 0), "opts->precision = -1 is negative"},
                  {options(0, -2, 0, 0), "opts->edgeitems = -2 is negative"},
                  {options(0, 0, -3, 0), "opts->threshold = -3 is negative"},
                  {options(0, 0, 0, -4), "opts->linewidth = -4 is negative"}};
  for (size_t k = 0; k < sizeof negative / sizeof negative[0]; ++k) {
    EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_format(x, &negative[k].o, buf, sizeof buf, &needed));
    expect_message_contains(negative[k].field);
  }
  assert_int_equal(needed, 77);
  for (size_t k = 0; k < sizeof buf; ++k) assert_int_equal(buf[k], 'x');
  EXPECT_OK(st_tensor_release(x));
}

static void the_narrow_float_dtypes_print_their_values(void** state) {
  (void)state;
  /* e8m0 bytes 126, 127, 128, 130: 2^-1, 2^0, 2^1, 2^3. float6_e2m3fn
   * (sign, 2 exponent bits of bias 1, 3 mantissa bits): 0x04 subnormal 4/8,
   * 0x08 1.0, 0x28 -1.0, 0x1F 2^2 * 15/8. */
  uint8_t e8m0[4] = {126, 127, 128, 130}, e2m3[4] = {0x04, 0x08, 0x28, 0x1F};
  st_tensor scales = {0}, six = {0};
  EXPECT_OK(st_tensor_from_data(e8m0, DIMS(4), NULL, 1, ST_FLOAT8_E8M0FNU, CPU, NULL, NULL, &scales));
  EXPECT_OK(st_tensor_from_data(e2m3, DIMS(4), NULL, 1, ST_FLOAT6_E2M3FN, CPU, NULL, NULL, &six));
  expect_text(scales, NULL, "[0.5 1.  2.  8. ]");
  expect_text(six, NULL, "[ 0.5  1.  -1.   7.5]");
  EXPECT_OK(st_tensor_release(scales));
  EXPECT_OK(st_tensor_release(six));
}

static void packed_float4_is_unsupported_dtype_and_writes_nothing(void** state) {
  (void)state;
  uint8_t pairs[2] = {0x21, 0x43};
  st_tensor x = {0};
  EXPECT_OK(st_tensor_from_data(pairs, DIMS(2), NULL, 1, ST_FLOAT4_E2M1FN_X2, CPU, NULL, NULL, &x));
  char buf[64];
  memset(buf, 'x', sizeof buf);
  size_t needed = 77;
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_tensor_format(x, NULL, buf, sizeof buf, &needed));
  assert_int_equal(needed, 77);
  for (size_t k = 0; k < sizeof buf; ++k) assert_int_equal(buf[k], 'x');
  EXPECT_OK(st_tensor_release(x));
}

static void a_dead_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3), 1);
  EXPECT_OK(st_tensor_release(x));
  char buf[16];
  size_t needed = 77;
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_format(x, NULL, buf, sizeof buf, &needed));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_format((st_tensor){0}, NULL, buf, sizeof buf, &needed));
  assert_int_equal(needed, 77);
}

static void a_host_copy_that_cannot_be_allocated_is_out_of_memory(void** state) {
  (void)state;
  counting_allocator c;
  double values[64];
  for (int k = 0; k < 64; ++k) values[k] = k;
  st_tensor x = {0};
  EXPECT_OK(st_tensor_from_data(values, DIMS(8, 8), NULL, 2, ST_FLOAT64, CPU, NULL, NULL, &x));
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  char buf[1024];
  size_t needed = 77;
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_tensor_format(x, NULL, buf, sizeof buf, &needed));
  assert_true(atomic_load(&c.refused) >= 1);
  assert_int_equal(needed, 77);
  EXPECT_OK(st_set_cpu_allocator(NULL));
  EXPECT_OK(st_tensor_format(x, NULL, buf, sizeof buf, &needed));
  EXPECT_OK(st_tensor_release(x));
}

static void the_api_table_holds_it(void** state) {
  (void)state;
  const st_api* api = st_get_api(ST_API_VERSION);
  assert_non_null(api);
  assert_ptr_equal(api->tensor_format, st_tensor_format);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(prints_as_numpy_array2string),
      cmocka_unit_test(zero_dims_and_no_elements),
      cmocka_unit_test(large_tensors_are_summarized_and_options_apply),
      cmocka_unit_test(a_larger_options_struct_is_read_when_its_tail_is_zero),
      cmocka_unit_test(the_text_and_its_nul_fit_exactly_or_nothing_is_written),
      cmocka_unit_test(argument_errors_are_invalid_argument_and_write_nothing),
      cmocka_unit_test(the_narrow_float_dtypes_print_their_values),
      cmocka_unit_test(packed_float4_is_unsupported_dtype_and_writes_nothing),
      cmocka_unit_test(a_dead_handle_is_invalid_handle),
      cmocka_unit_test_teardown(a_host_copy_that_cannot_be_allocated_is_out_of_memory, restore_default_allocator),
      cmocka_unit_test(the_api_table_holds_it),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
