/* Reading metadata: ndim, sizes, strides, dtype, device, numel, storage
 * offset, data pointer, and is_contiguous in all four formats. */
#include "support.h"

static st_tensor strided_view(st_tensor base, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                              int64_t offset) {
  st_tensor v = {0};
  EXPECT_OK(st_as_strided(base, sizes, strides, ndim, offset, &v));
  return v;
}

/* ---- plain queries ------------------------------------------------------- */

static void queries_describe_a_fresh_tensor(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2, 3, 4), 3, ST_INT16);
  int32_t ndim = 0;
  int64_t sizes[3] = {0}, strides[3] = {0}, numel = 0, offset = -1;
  st_dtype dtype = ST_BOOL;
  st_device dev = {0, -1};
  EXPECT_OK(st_tensor_ndim(t, &ndim));
  EXPECT_OK(st_tensor_sizes(t, sizes, 3));
  EXPECT_OK(st_tensor_strides(t, strides, 3));
  EXPECT_OK(st_tensor_dtype(t, &dtype));
  EXPECT_OK(st_tensor_device(t, &dev));
  EXPECT_OK(st_tensor_numel(t, &numel));
  EXPECT_OK(st_tensor_storage_offset(t, &offset));
  assert_int_equal(ndim, 3);
  assert_int_equal(sizes[0], 2);
  assert_int_equal(sizes[1], 3);
  assert_int_equal(sizes[2], 4);
  assert_int_equal(strides[0], 12);
  assert_int_equal(strides[1], 4);
  assert_int_equal(strides[2], 1);
  assert_int_equal(dtype, ST_INT16);
  assert_int_equal(dev.type, ST_DEVICE_CPU);
  assert_int_equal(dev.index, 0);
  assert_int_equal(numel, 24);
  assert_int_equal(offset, 0);
  EXPECT_OK(st_tensor_release(t));
}

static void sizes_with_more_capacity_than_dims_write_only_ndim_entries(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(5, 6), 2, ST_FLOAT32);
  int64_t sizes[4] = {-9, -9, -9, -9}, strides[4] = {-9, -9, -9, -9};
  EXPECT_OK(st_tensor_sizes(t, sizes, 4));
  EXPECT_OK(st_tensor_strides(t, strides, 4));
  assert_int_equal(sizes[0], 5);
  assert_int_equal(sizes[1], 6);
  assert_int_equal(sizes[2], -9);
  assert_int_equal(strides[0], 6);
  assert_int_equal(strides[1], 1);
  assert_int_equal(strides[2], -9);
  EXPECT_OK(st_tensor_release(t));
}

static void sizes_with_capacity_below_ndim_is_invalid_argument_and_writes_nothing(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(5, 6, 7), 3, ST_FLOAT32);
  int64_t buf[3] = {-9, -9, -9};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_sizes(t, buf, 2));
  expect_message_contains("capacity = 2");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_sizes(t, buf, -1));
  for (int i = 0; i < 3; ++i) assert_int_equal(buf[i], -9);
  EXPECT_OK(st_tensor_release(t));
}

static void strides_with_capacity_below_ndim_is_invalid_argument_and_writes_nothing(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(5, 6, 7), 3, ST_FLOAT32);
  int64_t buf[3] = {-9, -9, -9};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_strides(t, buf, 0));
  expect_message_contains("st_tensor_strides");
  for (int i = 0; i < 3; ++i) assert_int_equal(buf[i], -9);
  EXPECT_OK(st_tensor_release(t));
}

static void sizes_of_a_scalar_fit_in_zero_capacity(void** state) {
  (void)state;
  st_tensor t = make_tensor(NULL, 0, ST_FLOAT32);
  int64_t buf[1] = {-9};
  EXPECT_OK(st_tensor_sizes(t, buf, 0));
  EXPECT_OK(st_tensor_strides(t, buf, 0));
  assert_int_equal(buf[0], -9);
  EXPECT_OK(st_tensor_release(t));
}

static void every_query_with_a_null_out_is_invalid_argument(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2), 1, ST_FLOAT32);
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_ndim(t, NULL));
  expect_message_contains("st_tensor_ndim: out is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_sizes(t, NULL, 4));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_strides(t, NULL, 4));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_dtype(t, NULL));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_device(t, NULL));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_numel(t, NULL));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_storage_offset(t, NULL));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_data_ptr(t, NULL));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, NULL));
  EXPECT_OK(st_tensor_release(t));
}

static void numel_of_an_empty_tensor_is_zero_and_of_a_scalar_one(void** state) {
  (void)state;
  st_tensor e = make_tensor(DIMS(3, 0, 2), 3, ST_FLOAT32), s = make_tensor(NULL, 0, ST_FLOAT32);
  int64_t ne = -1, ns = -1;
  EXPECT_OK(st_tensor_numel(e, &ne));
  EXPECT_OK(st_tensor_numel(s, &ns));
  assert_int_equal(ne, 0);
  assert_int_equal(ns, 1);
  EXPECT_OK(st_tensor_release(e));
  EXPECT_OK(st_tensor_release(s));
}

static void data_ptr_of_a_view_is_the_base_plus_its_offset_in_bytes(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(4, 5), 2, ST_FLOAT64), v = {0};
  EXPECT_OK(st_slice(x, 0, 2, 4, 1, &v));
  char *px = NULL, *pv = NULL;
  int64_t offset = -1;
  EXPECT_OK(st_tensor_data_ptr(x, (void**)&px));
  EXPECT_OK(st_tensor_data_ptr(v, (void**)&pv));
  EXPECT_OK(st_tensor_storage_offset(v, &offset));
  assert_int_equal(offset, 10);
  assert_ptr_equal(pv, px + 10 * 8);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(v));
}

static void unknown_format_is_invalid_argument_and_writes_nothing(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2), 1, ST_FLOAT32);
  int32_t out = -4;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_is_contiguous(t, (st_memory_format)4, &out));
  expect_message_contains("fmt = 4");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_is_contiguous(t, (st_memory_format)-1, &out));
  assert_int_equal(out, -4);
  EXPECT_OK(st_tensor_release(t));
}

/* ---- is_contiguous on hand-made layouts ---------------------------------- */

static void row_major_is_contiguous_and_dense(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_PRESERVE, 1);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST, 0);    /* not 4-d */
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, 0); /* not 5-d */
  EXPECT_OK(st_tensor_release(t));
}

static void transposed_is_dense_but_not_contiguous(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), v = {0};
  EXPECT_OK(st_transpose(t, 0, 1, &v));
  expect_is_contiguous(v, ST_MEMORY_FORMAT_CONTIGUOUS, 0);
  expect_is_contiguous(v, ST_MEMORY_FORMAT_PRESERVE, 1);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(v));
}

static void size_one_dims_are_ignored(void** state) {
  (void)state;
  st_tensor base = make_tensor(DIMS(64), 1, ST_FLOAT32);
  st_tensor a = strided_view(base, DIMS(2, 1, 3), DIMS(3, 99, 1), 3, 0);
  expect_is_contiguous(a, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  expect_is_contiguous(a, ST_MEMORY_FORMAT_PRESERVE, 1);
  st_tensor b = strided_view(base, DIMS(1, 4), DIMS(-7, 1), 2, 10);
  expect_is_contiguous(b, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  st_tensor c = strided_view(base, DIMS(5, 1), DIMS(1, 0), 2, 0);
  expect_is_contiguous(c, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  st_tensor releases[] = {base, a, b, c};
  for (int i = 0; i < 4; ++i) EXPECT_OK(st_tensor_release(releases[i]));
}

static void empty_tensor_is_contiguous_whatever_its_strides(void** state) {
  (void)state;
  st_tensor base = make_tensor(DIMS(4), 1, ST_FLOAT32);
  st_tensor e = strided_view(base, DIMS(0, 3), DIMS(7, 5), 2, 0);
  expect_is_contiguous(e, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  expect_is_contiguous(e, ST_MEMORY_FORMAT_PRESERVE, 1);
  st_tensor n = strided_view(base, DIMS(3, 0), DIMS(-2, -9), 2, 0);
  expect_is_contiguous(n, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  st_tensor releases[] = {base, e, n};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(releases[i]));
}

static void scalar_is_contiguous_and_not_channels_last(void** state) {
  (void)state;
  st_tensor s = make_tensor(NULL, 0, ST_FLOAT32);
  expect_is_contiguous(s, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  expect_is_contiguous(s, ST_MEMORY_FORMAT_PRESERVE, 1);
  expect_is_contiguous(s, ST_MEMORY_FORMAT_CHANNELS_LAST, 0);
  expect_is_contiguous(s, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, 0);
  EXPECT_OK(st_tensor_release(s));
}

static void nhwc_strides_are_channels_last_only(void** state) {
  (void)state;
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create_strided(DIMS(2, 3, 4, 5), DIMS(60, 1, 15, 3), 4, ST_FLOAT32, CPU, &t));
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST, 1);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, 0);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_PRESERVE, 1);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, 0);
  EXPECT_OK(st_tensor_release(t));
}

static void one_channel_makes_a_tensor_both_contiguous_and_channels_last(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2, 1, 4, 5), 4, ST_FLOAT32); /* strides (20, 20, 5, 1) */
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST, 1);
  EXPECT_OK(st_tensor_release(t));
}

static void row_major_4d_is_not_channels_last(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2, 3, 4, 5), 4, ST_FLOAT32);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST, 0);
  EXPECT_OK(st_tensor_release(t));
}

static void channels_last_rule_applies_to_empty_tensors(void** state) {
  (void)state;
  st_tensor base = make_tensor(DIMS(4), 1, ST_FLOAT32);
  st_tensor cl = strided_view(base, DIMS(0, 3, 4, 5), DIMS(60, 1, 15, 3), 4, 0);
  expect_is_contiguous(cl, ST_MEMORY_FORMAT_CHANNELS_LAST, 1);
  expect_is_contiguous(cl, ST_MEMORY_FORMAT_CONTIGUOUS, 1); /* empty */
  st_tensor rm = strided_view(base, DIMS(0, 3, 4, 5), DIMS(60, 20, 5, 1), 4, 0);
  expect_is_contiguous(rm, ST_MEMORY_FORMAT_CHANNELS_LAST, 0);
  expect_is_contiguous(rm, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  st_tensor releases[] = {base, cl, rm};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(releases[i]));
}

static void channels_last_is_asked_of_4d_tensors_only(void** state) {
  (void)state;
  st_tensor base = make_tensor(DIMS(512), 1, ST_FLOAT32);
  /* 3-d and 5-d layouts that follow the 4-d order's pattern still answer 0 */
  st_tensor t3 = strided_view(base, DIMS(2, 3, 4), DIMS(12, 1, 3), 3, 0);
  expect_is_contiguous(t3, ST_MEMORY_FORMAT_CHANNELS_LAST, 0);
  st_tensor t5 = strided_view(base, DIMS(2, 3, 4, 5, 1), DIMS(60, 1, 15, 3, 1), 5, 0);
  expect_is_contiguous(t5, ST_MEMORY_FORMAT_CHANNELS_LAST, 0);
  st_tensor releases[] = {base, t3, t5};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(releases[i]));
}

static void ndhwc_strides_are_channels_last_3d_only(void** state) {
  (void)state;
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create_strided(DIMS(2, 3, 4, 5, 6), DIMS(360, 1, 90, 18, 3), 5, ST_FLOAT32, CPU, &t));
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, 1);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CHANNELS_LAST, 0);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, 0);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_PRESERVE, 1);
  EXPECT_OK(st_tensor_release(t));
}

static void channels_last_3d_rule_applies_to_empty_5d_tensors(void** state) {
  (void)state;
  st_tensor base = make_tensor(DIMS(4), 1, ST_FLOAT32);
  st_tensor cl = strided_view(base, DIMS(2, 3, 0, 5, 6), DIMS(360, 1, 90, 18, 3), 5, 0);
  expect_is_contiguous(cl, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, 0); /* 0 * 90 = 0 is N's stride, not 360 */
  st_tensor ok = strided_view(base, DIMS(2, 3, 0, 5, 6), DIMS(0, 1, 90, 18, 3), 5, 0);
  expect_is_contiguous(ok, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, 1);
  st_tensor releases[] = {base, cl, ok};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(releases[i]));
}

static void overlapping_gapped_or_reversed_layouts_are_not_dense(void** state) {
  (void)state;
  st_tensor base = make_tensor(DIMS(64), 1, ST_FLOAT32);
  st_tensor overlap = strided_view(base, DIMS(3, 4), DIMS(1, 1), 2, 0);
  st_tensor expanded = strided_view(base, DIMS(3, 4), DIMS(0, 1), 2, 0);
  st_tensor gap = strided_view(base, DIMS(3, 4), DIMS(8, 1), 2, 0);
  st_tensor step = strided_view(base, DIMS(5), DIMS(2), 1, 0);
  st_tensor reversed = strided_view(base, DIMS(3, 4), DIMS(-4, 1), 2, 8);
  st_tensor cases[] = {overlap, expanded, gap, step, reversed};
  for (int i = 0; i < 5; ++i) {
    expect_is_contiguous(cases[i], ST_MEMORY_FORMAT_PRESERVE, 0);
    expect_is_contiguous(cases[i], ST_MEMORY_FORMAT_CONTIGUOUS, 0);
    EXPECT_OK(st_tensor_release(cases[i]));
  }
  EXPECT_OK(st_tensor_release(base));
}

static void any_permutation_of_row_major_is_dense(void** state) {
  (void)state;
  st_tensor base = make_tensor(DIMS(64), 1, ST_FLOAT32);
  st_tensor a = strided_view(base, DIMS(4, 2, 3), DIMS(1, 12, 4), 3, 0);
  st_tensor b = strided_view(base, DIMS(3, 2, 4), DIMS(1, 3, 6), 3, 0);
  st_tensor one = strided_view(base, DIMS(1), DIMS(5), 1, 0);
  expect_is_contiguous(a, ST_MEMORY_FORMAT_PRESERVE, 1);
  expect_is_contiguous(b, ST_MEMORY_FORMAT_PRESERVE, 1);
  expect_is_contiguous(one, ST_MEMORY_FORMAT_PRESERVE, 1);
  expect_is_contiguous(a, ST_MEMORY_FORMAT_CONTIGUOUS, 0);
  st_tensor releases[] = {base, a, b, one};
  for (int i = 0; i < 4; ++i) EXPECT_OK(st_tensor_release(releases[i]));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(queries_describe_a_fresh_tensor),
      cmocka_unit_test(sizes_with_more_capacity_than_dims_write_only_ndim_entries),
      cmocka_unit_test(sizes_with_capacity_below_ndim_is_invalid_argument_and_writes_nothing),
      cmocka_unit_test(strides_with_capacity_below_ndim_is_invalid_argument_and_writes_nothing),
      cmocka_unit_test(sizes_of_a_scalar_fit_in_zero_capacity),
      cmocka_unit_test(every_query_with_a_null_out_is_invalid_argument),
      cmocka_unit_test(numel_of_an_empty_tensor_is_zero_and_of_a_scalar_one),
      cmocka_unit_test(data_ptr_of_a_view_is_the_base_plus_its_offset_in_bytes),
      cmocka_unit_test(unknown_format_is_invalid_argument_and_writes_nothing),
      cmocka_unit_test(row_major_is_contiguous_and_dense),
      cmocka_unit_test(transposed_is_dense_but_not_contiguous),
      cmocka_unit_test(size_one_dims_are_ignored),
      cmocka_unit_test(empty_tensor_is_contiguous_whatever_its_strides),
      cmocka_unit_test(scalar_is_contiguous_and_not_channels_last),
      cmocka_unit_test(nhwc_strides_are_channels_last_only),
      cmocka_unit_test(one_channel_makes_a_tensor_both_contiguous_and_channels_last),
      cmocka_unit_test(row_major_4d_is_not_channels_last),
      cmocka_unit_test(channels_last_rule_applies_to_empty_tensors),
      cmocka_unit_test(channels_last_is_asked_of_4d_tensors_only),
      cmocka_unit_test(ndhwc_strides_are_channels_last_3d_only),
      cmocka_unit_test(channels_last_3d_rule_applies_to_empty_5d_tensors),
      cmocka_unit_test(overlapping_gapped_or_reversed_layouts_are_not_dense),
      cmocka_unit_test(any_permutation_of_row_major_is_dense),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
