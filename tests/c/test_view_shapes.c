/* Views that reshape: st_expand, st_unsqueeze, st_squeeze and st_view.
 * Layouts against hand-computed strides, values read back through them. */
#include "support.h"

#define BIG (INT64_C(1) << 62)

#define EXPECT_VIEW_FAILS(want, call_with_out) \
  do {                                         \
    out.id = GARBAGE_ID;                       \
    EXPECT_STATUS((want), call_with_out);      \
    expect_null_handle(out);                   \
  } while (0)

static void release_all(st_tensor* ts, int n) {
  for (int i = 0; i < n; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

/* ---- st_expand -------------------------------------------------------------- */

static void expand_grows_a_size_one_dim_with_stride_zero(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 1), 2), e = {0};
  EXPECT_OK(st_expand(x, DIMS(3, 4), 2, &e));
  expect_layout(e, 2, DIMS(3, 4), DIMS(1, 0), 0);
  for (int64_t j = 0; j < 4; ++j) assert_true(read_f32(e, DIMS(2, j)) == 2.0f);
  st_tensor ts[] = {x, e};
  release_all(ts, 2);
}

static void expand_adds_new_leading_dims(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 1), 2), e = {0}, one = {0};
  EXPECT_OK(st_expand(x, DIMS(2, 3, 4), 3, &e));
  expect_layout(e, 3, DIMS(2, 3, 4), DIMS(0, 1, 0), 0);
  assert_true(read_f32(e, DIMS(1, 1, 3)) == 1.0f);
  /* a new leading dim of size 1 gets the stride a row-major layout would give it */
  EXPECT_OK(st_expand(x, DIMS(1, 3, 4), 3, &one));
  expect_layout(one, 3, DIMS(1, 3, 4), DIMS(3, 1, 0), 0);
  st_tensor ts[] = {x, e, one};
  release_all(ts, 3);
}

static void expand_with_minus_one_keeps_the_size(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 1), 2), e = {0};
  EXPECT_OK(st_expand(x, DIMS(5, -1, 4), 3, &e));
  expect_layout(e, 3, DIMS(5, 3, 4), DIMS(0, 1, 0), 0);
  st_tensor ts[] = {x, e};
  release_all(ts, 2);
}

static void expand_of_a_scalar_reaches_any_shape(void** state) {
  (void)state;
  st_tensor s = make_iota_f32(NULL, 0), e = {0}, same = {0};
  EXPECT_OK(st_expand(s, DIMS(2, 3), 2, &e));
  expect_layout(e, 2, DIMS(2, 3), DIMS(0, 0), 0);
  assert_true(read_f32(e, DIMS(1, 2)) == 0.0f);
  EXPECT_OK(st_expand(s, NULL, 0, &same));
  expect_layout(same, 0, NULL, NULL, 0);
  st_tensor ts[] = {s, e, same};
  release_all(ts, 3);
}

static void expand_of_a_size_one_dim_to_zero_is_empty(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 1), 2, ST_FLOAT32), e = {0};
  EXPECT_OK(st_expand(x, DIMS(3, 0), 2, &e));
  int64_t numel = -1;
  EXPECT_OK(st_tensor_numel(e, &numel));
  assert_int_equal(numel, 0);
  st_tensor ts[] = {x, e};
  release_all(ts, 2);
}

static void expand_of_a_dim_whose_size_is_not_one_is_shape_mismatch(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 1), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_expand(x, DIMS(4, 4), 2, &out));
  expect_message_contains("sizes[0] = 4");
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_expand(x, DIMS(2, 1, 4), 3, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void expand_to_fewer_dims_is_shape_mismatch(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 1), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_expand(x, DIMS(3), 1, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void expand_with_minus_one_in_a_new_leading_dim_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 1), 2, ST_FLOAT32), s = make_tensor(NULL, 0, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_expand(x, DIMS(-1, 3, 4), 3, &out));
  expect_message_contains("sizes[0] = -1");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_expand(s, DIMS(-1), 1, &out));
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void expand_with_a_size_below_minus_one_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 1), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_expand(x, DIMS(3, -2), 2, &out));
  expect_message_contains("sizes[1] = -2");
  EXPECT_OK(st_tensor_release(x));
}

static void expand_argument_errors_are_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 1), 2, ST_FLOAT32), out = {0};
  int64_t ones[26];
  for (int i = 0; i < 26; ++i) ones[i] = 1;
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_expand(x, NULL, 2, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_expand(x, ones, 26, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_expand(x, ones, -1, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_expand(x, DIMS(3, 4), 2, NULL));
  EXPECT_OK(st_tensor_release(x));
}

static void expand_whose_numel_overflows_is_out_of_memory(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(1, 1), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_MEMORY, st_expand(x, DIMS(BIG, 4), 2, &out));
  EXPECT_OK(st_tensor_release(x));
}

/* ---- st_unsqueeze and st_squeeze ---------------------------------------------- */

static void unsqueeze_inserts_a_size_one_dim(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3), 2, ST_FLOAT32), a = {0}, b = {0}, c = {0}, d = {0}, e = {0};
  EXPECT_OK(st_unsqueeze(x, 0, &a));
  expect_layout(a, 3, DIMS(1, 2, 3), DIMS(6, 3, 1), 0);
  EXPECT_OK(st_unsqueeze(x, 1, &b));
  expect_layout(b, 3, DIMS(2, 1, 3), DIMS(3, 3, 1), 0);
  EXPECT_OK(st_unsqueeze(x, 2, &c));
  expect_layout(c, 3, DIMS(2, 3, 1), DIMS(3, 1, 1), 0);
  EXPECT_OK(st_unsqueeze(x, -1, &d)); /* -1 is after the last dim */
  expect_layout(d, 3, DIMS(2, 3, 1), DIMS(3, 1, 1), 0);
  EXPECT_OK(st_unsqueeze(x, -3, &e));
  expect_layout(e, 3, DIMS(1, 2, 3), DIMS(6, 3, 1), 0);
  st_tensor ts[] = {x, a, b, c, d, e};
  release_all(ts, 6);
}

static void unsqueeze_of_a_scalar_is_one_element_1d(void** state) {
  (void)state;
  st_tensor s = make_tensor(NULL, 0, ST_FLOAT32), u = {0};
  EXPECT_OK(st_unsqueeze(s, 0, &u));
  expect_layout(u, 1, DIMS(1), DIMS(1), 0);
  st_tensor ts[] = {s, u};
  release_all(ts, 2);
}

static void unsqueeze_with_a_dim_out_of_range_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_unsqueeze(x, 3, &out));
  expect_message_contains("dim = 3");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_unsqueeze(x, -4, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_unsqueeze(x, 0, NULL));
  EXPECT_OK(st_tensor_release(x));
}

static void unsqueeze_up_to_max_dims_and_not_beyond(void** state) {
  (void)state;
  int64_t sizes[ST_MAX_DIMS];
  for (int i = 0; i < ST_MAX_DIMS; ++i) sizes[i] = 1;
  st_tensor x24 = make_tensor(sizes, ST_MAX_DIMS - 1, ST_FLOAT32), x25 = {0}, out = {0};
  EXPECT_OK(st_unsqueeze(x24, 0, &x25));
  int32_t ndim = 0;
  EXPECT_OK(st_tensor_ndim(x25, &ndim));
  assert_int_equal(ndim, ST_MAX_DIMS);
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_unsqueeze(x25, 0, &out));
  expect_message_contains("25 dims");
  st_tensor ts[] = {x24, x25};
  release_all(ts, 2);
}

static void squeeze_removes_a_size_one_dim(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 1, 3), 3, ST_FLOAT32), a = {0}, b = {0};
  EXPECT_OK(st_squeeze(x, 1, &a));
  expect_layout(a, 2, DIMS(2, 3), DIMS(3, 1), 0);
  EXPECT_OK(st_squeeze(x, -2, &b));
  expect_layout(b, 2, DIMS(2, 3), DIMS(3, 1), 0);
  st_tensor ts[] = {x, a, b};
  release_all(ts, 3);
}

static void squeeze_of_a_dim_whose_size_is_not_one_keeps_the_shape(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 1, 3), 3, ST_FLOAT32), a = {0};
  EXPECT_OK(st_squeeze(x, 0, &a));
  expect_layout(a, 3, DIMS(2, 1, 3), DIMS(3, 3, 1), 0);
  st_tensor ts[] = {x, a};
  release_all(ts, 2);
}

static void squeeze_of_a_scalar_accepts_zero_and_minus_one(void** state) {
  (void)state;
  st_tensor s = make_tensor(NULL, 0, ST_FLOAT32), a = {0}, b = {0}, out = {0};
  EXPECT_OK(st_squeeze(s, 0, &a));
  expect_layout(a, 0, NULL, NULL, 0);
  EXPECT_OK(st_squeeze(s, -1, &b));
  expect_layout(b, 0, NULL, NULL, 0);
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_squeeze(s, 1, &out));
  st_tensor ts[] = {s, a, b};
  release_all(ts, 3);
}

static void squeeze_with_a_dim_out_of_range_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 1, 3), 3, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_squeeze(x, 3, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_squeeze(x, -4, &out));
  expect_message_contains("for a tensor of 3 dims (expected -3..2)");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_squeeze(x, 1, NULL));
  EXPECT_OK(st_tensor_release(x));
  /* One dim is "1 dim": the messages count dims in one wording. */
  st_tensor v = make_tensor(DIMS(4), 1, ST_FLOAT32);
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_squeeze(v, 1, &out));
  expect_message_contains("squeeze: dim = 1 is out of range for a tensor of 1 dim (expected -1..0)");
  EXPECT_OK(st_tensor_release(v));
}

/* ---- st_view -------------------------------------------------------------------- */

static void view_of_a_contiguous_tensor_is_row_major(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), a = {0}, b = {0}, c = {0};
  EXPECT_OK(st_view(x, DIMS(6, 4), 2, &a));
  expect_layout(a, 2, DIMS(6, 4), DIMS(4, 1), 0);
  EXPECT_OK(st_view(x, DIMS(24), 1, &b));
  expect_layout(b, 1, DIMS(24), DIMS(1), 0);
  EXPECT_OK(st_view(x, DIMS(2, 3, 2, 2), 4, &c));
  expect_layout(c, 4, DIMS(2, 3, 2, 2), DIMS(12, 4, 2, 1), 0);
  assert_true(read_f32(c, DIMS(1, 2, 1, 0)) == 12 + 8 + 2);
  st_tensor ts[] = {x, a, b, c};
  release_all(ts, 4);
}

static void view_infers_one_minus_one(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), a = {0}, b = {0};
  EXPECT_OK(st_view(x, DIMS(-1, 4), 2, &a));
  expect_layout(a, 2, DIMS(6, 4), DIMS(4, 1), 0);
  EXPECT_OK(st_view(x, DIMS(4, -1, 2), 3, &b));
  expect_layout(b, 3, DIMS(4, 3, 2), DIMS(6, 2, 1), 0);
  st_tensor ts[] = {x, a, b};
  release_all(ts, 3);
}

static void view_that_splits_a_dim_of_a_transposed_tensor_works(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(4, 6), 2), t = {0}, v = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &t)); /* (6, 4) strides (1, 6) */
  EXPECT_OK(st_view(t, DIMS(2, 3, 4), 3, &v));
  expect_layout(v, 3, DIMS(2, 3, 4), DIMS(3, 1, 6), 0);
  assert_true(read_f32(v, DIMS(1, 2, 3)) == 3 * 6 + 5); /* t[5][3] = x[3][5] */
  st_tensor ts[] = {x, t, v};
  release_all(ts, 3);
}

static void view_that_merges_dims_against_the_strides_is_shape_mismatch(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(4, 6), 2, ST_FLOAT32), t = {0}, s = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &t));
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_view(t, DIMS(24), 1, &out));
  expect_message_contains("cannot be viewed");
  EXPECT_OK(st_slice(x, 1, 0, 3, 1, &s)); /* (4, 3) strides (6, 1): rows have gaps */
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_view(s, DIMS(12), 1, &out));
  st_tensor ts[] = {x, t, s};
  release_all(ts, 3);
}

static void view_of_rows_with_gaps_can_split_each_row(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(4, 6), 2, ST_FLOAT32), s = {0}, v = {0}, w = {0};
  EXPECT_OK(st_slice(x, 1, 0, 4, 1, &s)); /* (4, 4) strides (6, 1) */
  EXPECT_OK(st_view(s, DIMS(2, 2, 4), 3, &v));
  expect_layout(v, 3, DIMS(2, 2, 4), DIMS(12, 6, 1), 0);
  EXPECT_OK(st_view(s, DIMS(4, 2, 2), 3, &w));
  expect_layout(w, 3, DIMS(4, 2, 2), DIMS(6, 2, 1), 0);
  st_tensor ts[] = {x, s, v, w};
  release_all(ts, 4);
}

static void view_of_a_step_slice_merges_uniform_strides(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(4, 6), 2, ST_FLOAT32), s = {0}, v = {0};
  EXPECT_OK(st_slice(x, 1, 0, 6, 2, &s)); /* (4, 3) strides (6, 2): every other element */
  EXPECT_OK(st_view(s, DIMS(12), 1, &v));
  expect_layout(v, 1, DIMS(12), DIMS(2), 0);
  st_tensor ts[] = {x, s, v};
  release_all(ts, 3);
}

static void view_of_a_flipped_tensor_keeps_negative_strides(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(6), 1), f = {0}, v = {0};
  EXPECT_OK(st_flip(x, 0, &f));
  EXPECT_OK(st_view(f, DIMS(2, 3), 2, &v));
  expect_layout(v, 2, DIMS(2, 3), DIMS(-3, -1), 5);
  assert_true(read_f32(v, DIMS(1, 0)) == 2.0f);
  st_tensor ts[] = {x, f, v};
  release_all(ts, 3);
}

static void view_of_an_empty_or_scalar_tensor(void** state) {
  (void)state;
  st_tensor e = make_tensor(DIMS(0, 3), 2, ST_FLOAT32), s = make_tensor(NULL, 0, ST_FLOAT32), a = {0}, b = {0},
            c = {0};
  EXPECT_OK(st_view(e, DIMS(3, 0), 2, &a));
  expect_layout(a, 2, DIMS(3, 0), DIMS(1, 1), 0);
  EXPECT_OK(st_view(s, DIMS(1, 1), 2, &b));
  expect_layout(b, 2, DIMS(1, 1), DIMS(1, 1), 0);
  EXPECT_OK(st_view(b, NULL, 0, &c));
  expect_layout(c, 0, NULL, NULL, 0);
  st_tensor ts[] = {e, s, a, b, c};
  release_all(ts, 5);
}

static void view_with_another_element_count_is_shape_mismatch(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), e = make_tensor(DIMS(0, 3), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_view(x, DIMS(5, 5), 2, &out));
  expect_message_contains("24");
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_view(x, DIMS(-1, 5), 2, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_view(e, DIMS(-1, 0), 2, &out)); /* -1 could be anything */
  EXPECT_VIEW_FAILS(ST_ERROR_SHAPE_MISMATCH, st_view(x, DIMS(BIG, BIG), 2, &out));
  st_tensor ts[] = {x, e};
  release_all(ts, 2);
}

static void view_with_two_minus_ones_or_a_size_below_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), out = {0};
  int64_t ones[26];
  for (int i = 0; i < 26; ++i) ones[i] = 1;
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_view(x, DIMS(-1, -1), 2, &out));
  expect_message_contains("only one");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_view(x, DIMS(-2, -12), 2, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_view(x, NULL, 2, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_view(x, ones, 26, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_view(x, ones, -1, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_view(x, DIMS(24), 1, NULL));
  EXPECT_OK(st_tensor_release(x));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(expand_grows_a_size_one_dim_with_stride_zero),
      cmocka_unit_test(expand_adds_new_leading_dims),
      cmocka_unit_test(expand_with_minus_one_keeps_the_size),
      cmocka_unit_test(expand_of_a_scalar_reaches_any_shape),
      cmocka_unit_test(expand_of_a_size_one_dim_to_zero_is_empty),
      cmocka_unit_test(expand_of_a_dim_whose_size_is_not_one_is_shape_mismatch),
      cmocka_unit_test(expand_to_fewer_dims_is_shape_mismatch),
      cmocka_unit_test(expand_with_minus_one_in_a_new_leading_dim_is_invalid_argument),
      cmocka_unit_test(expand_with_a_size_below_minus_one_is_invalid_argument),
      cmocka_unit_test(expand_argument_errors_are_invalid_argument),
      cmocka_unit_test(expand_whose_numel_overflows_is_out_of_memory),
      cmocka_unit_test(unsqueeze_inserts_a_size_one_dim),
      cmocka_unit_test(unsqueeze_of_a_scalar_is_one_element_1d),
      cmocka_unit_test(unsqueeze_with_a_dim_out_of_range_is_invalid_argument),
      cmocka_unit_test(unsqueeze_up_to_max_dims_and_not_beyond),
      cmocka_unit_test(squeeze_removes_a_size_one_dim),
      cmocka_unit_test(squeeze_of_a_dim_whose_size_is_not_one_keeps_the_shape),
      cmocka_unit_test(squeeze_of_a_scalar_accepts_zero_and_minus_one),
      cmocka_unit_test(squeeze_with_a_dim_out_of_range_is_invalid_argument),
      cmocka_unit_test(view_of_a_contiguous_tensor_is_row_major),
      cmocka_unit_test(view_infers_one_minus_one),
      cmocka_unit_test(view_that_splits_a_dim_of_a_transposed_tensor_works),
      cmocka_unit_test(view_that_merges_dims_against_the_strides_is_shape_mismatch),
      cmocka_unit_test(view_of_rows_with_gaps_can_split_each_row),
      cmocka_unit_test(view_of_a_step_slice_merges_uniform_strides),
      cmocka_unit_test(view_of_a_flipped_tensor_keeps_negative_strides),
      cmocka_unit_test(view_of_an_empty_or_scalar_tensor),
      cmocka_unit_test(view_with_another_element_count_is_shape_mismatch),
      cmocka_unit_test(view_with_two_minus_ones_or_a_size_below_is_invalid_argument),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
