/* Views that pick elements: st_as_strided, st_permute, st_transpose,
 * st_slice, st_select and st_flip. Layouts against hand-computed strides and
 * offsets, values read back through the strides. */
#include "support.h"

#define BIG (INT64_C(1) << 62)

/* A view that must fail with `want` and leave {0} in out. */
#define EXPECT_VIEW_FAILS(want, call_with_out)   \
  do {                                           \
    out.id = GARBAGE_ID;                         \
    EXPECT_STATUS((want), call_with_out);        \
    expect_null_handle(out);                     \
  } while (0)

static void release_all(st_tensor* ts, int n) {
  for (int i = 0; i < n; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

/* ---- st_as_strided ------------------------------------------------------- */

static void as_strided_picks_elements_of_the_storage(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(12), 1), v = {0};
  EXPECT_OK(st_as_strided(x, DIMS(3, 2), DIMS(4, 1), 2, 1, &v));
  expect_layout(v, 2, DIMS(3, 2), DIMS(4, 1), 1);
  assert_true(read_f32(v, DIMS(0, 0)) == 1.0f);
  assert_true(read_f32(v, DIMS(2, 1)) == 10.0f);
  st_tensor ts[] = {x, v};
  release_all(ts, 2);
}

static void as_strided_with_a_negative_stride_reads_backwards(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(12), 1), v = {0};
  EXPECT_OK(st_as_strided(x, DIMS(4), DIMS(-3), 1, 9, &v));
  for (int64_t i = 0; i < 4; ++i) assert_true(read_f32(v, &i) == (float)(9 - 3 * i));
  st_tensor ts[] = {x, v};
  release_all(ts, 2);
}

static void as_strided_may_reach_both_ends_of_the_storage(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(12), 1), a = {0}, b = {0};
  EXPECT_OK(st_as_strided(x, DIMS(4), DIMS(3), 1, 2, &a)); /* 2 .. 11 */
  assert_true(read_f32(a, DIMS(3)) == 11.0f);
  EXPECT_OK(st_as_strided(x, DIMS(2, 2), DIMS(-5, -6), 2, 11, &b)); /* 11 .. 0 */
  assert_true(read_f32(b, DIMS(1, 1)) == 0.0f);
  st_tensor ts[] = {x, a, b};
  release_all(ts, 3);
}

static void as_strided_past_the_end_is_out_of_bounds(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(4), DIMS(3), 1, 3, &out)); /* reaches 12 */
  expect_message_contains("12 elements");
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(13), DIMS(1), 1, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, NULL, NULL, 0, 12, &out)); /* a scalar at 12 */
  EXPECT_OK(st_tensor_release(x));
}

static void as_strided_below_the_start_with_a_negative_stride_is_out_of_bounds(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(4), DIMS(-1), 1, 2, &out)); /* reaches -1 */
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(2, 3), DIMS(6, -1), 2, 1, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void as_strided_whose_extent_overflows_is_out_of_bounds(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(3, 3), DIMS(BIG, BIG), 2, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(3, 3), DIMS(-BIG, -BIG), 2, 11, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(2), DIMS(1), 1, INT64_MAX, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void as_strided_whose_numel_overflows_is_out_of_memory(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_MEMORY, st_as_strided(x, DIMS(BIG, 4), DIMS(0, 0), 2, 0, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void as_strided_empty_view_may_sit_at_the_end_of_the_storage(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), e = {0}, out = {0};
  EXPECT_OK(st_as_strided(x, DIMS(0, 5), DIMS(BIG, -BIG), 2, 12, &e));
  expect_layout(e, 2, DIMS(0, 5), DIMS(BIG, -BIG), 12);
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_as_strided(x, DIMS(0), DIMS(1), 1, 13, &out));
  st_tensor ts[] = {x, e};
  release_all(ts, 2);
}

static void as_strided_empty_view_may_have_sizes_whose_product_overflows(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), e = {0};
  EXPECT_OK(st_as_strided(x, DIMS(BIG, BIG, 0), DIMS(1, 1, 1), 3, 0, &e));
  int64_t numel = -1;
  EXPECT_OK(st_tensor_numel(e, &numel));
  assert_int_equal(numel, 0);
  st_tensor ts[] = {x, e};
  release_all(ts, 2);
}

static void as_strided_of_a_view_measures_the_whole_storage(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(12), 1), s = {0}, v = {0};
  EXPECT_OK(st_slice(x, 0, 4, 6, 1, &s));
  EXPECT_OK(st_as_strided(s, DIMS(12), DIMS(1), 1, 0, &v));
  assert_true(read_f32(v, DIMS(11)) == 11.0f);
  st_tensor ts[] = {x, s, v};
  release_all(ts, 3);
}

static void as_strided_argument_errors_are_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), out = {0};
  int64_t ones[26];
  for (int i = 0; i < 26; ++i) ones[i] = 1;
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_as_strided(x, DIMS(2), DIMS(1), 1, -1, &out));
  expect_message_contains("storage_offset = -1");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_as_strided(x, DIMS(-2), DIMS(1), 1, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_as_strided(x, NULL, DIMS(1), 1, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_as_strided(x, DIMS(2), NULL, 1, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_as_strided(x, ones, ones, 26, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_as_strided(x, ones, ones, -1, 0, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_as_strided(x, DIMS(2), DIMS(1), 1, 0, NULL));
  EXPECT_OK(st_tensor_release(x));
}

/* ---- st_permute and st_transpose ------------------------------------------ */

static void permute_reorders_sizes_and_strides(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), p = {0}, q = {0};
  EXPECT_OK(st_permute(x, (const int32_t[]){2, 0, 1}, 3, &p));
  expect_layout(p, 3, DIMS(4, 2, 3), DIMS(1, 12, 4), 0);
  assert_true(read_f32(p, DIMS(3, 1, 2)) == 1 * 12 + 2 * 4 + 3);
  EXPECT_OK(st_permute(x, (const int32_t[]){-1, 0, -2}, 3, &q)); /* negative dims count from the end */
  expect_layout(q, 3, DIMS(4, 2, 3), DIMS(1, 12, 4), 0);
  st_tensor ts[] = {x, p, q};
  release_all(ts, 3);
}

static void permute_of_a_scalar_takes_no_dims(void** state) {
  (void)state;
  st_tensor s = make_tensor(NULL, 0, ST_FLOAT32), p = {0};
  EXPECT_OK(st_permute(s, NULL, 0, &p));
  expect_layout(p, 0, NULL, NULL, 0);
  st_tensor ts[] = {s, p};
  release_all(ts, 2);
}

static void permute_with_a_repeated_dim_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, (const int32_t[]){0, 0, 1}, 3, &out));
  expect_message_contains("dims[1] = 0 repeats");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, (const int32_t[]){2, 0, -1}, 3, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void permute_with_a_dim_out_of_range_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, (const int32_t[]){0, 1, 3}, 3, &out));
  expect_message_contains("dims[2] = 3");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, (const int32_t[]){-4, 1, 2}, 3, &out));
  expect_message_contains("dims[0] = -4");
  EXPECT_OK(st_tensor_release(x));
}

static void permute_with_the_wrong_number_of_dims_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), out = {0};
  int32_t many[26] = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, (const int32_t[]){1, 0}, 2, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, (const int32_t[]){0, 1, 2, 3}, 4, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, many, 26, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, many, -1, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void permute_with_null_dims_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, NULL, 2, &out));
  expect_message_contains("dims is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_permute(x, (const int32_t[]){1, 0}, 2, NULL));
  EXPECT_OK(st_tensor_release(x));
}

static void transpose_swaps_two_dims(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), t = {0}, n = {0}, same = {0};
  EXPECT_OK(st_transpose(x, 0, 2, &t));
  expect_layout(t, 3, DIMS(4, 3, 2), DIMS(1, 4, 12), 0);
  assert_true(read_f32(t, DIMS(3, 2, 1)) == 12 + 8 + 3);
  EXPECT_OK(st_transpose(x, -1, -3, &n));
  expect_layout(n, 3, DIMS(4, 3, 2), DIMS(1, 4, 12), 0);
  EXPECT_OK(st_transpose(x, 1, 1, &same));
  expect_layout(same, 3, DIMS(2, 3, 4), DIMS(12, 4, 1), 0);
  st_tensor ts[] = {x, t, n, same};
  release_all(ts, 4);
}

static void transpose_with_a_dim_out_of_range_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3), 2, ST_FLOAT32), s = make_tensor(NULL, 0, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_transpose(x, 0, 2, &out));
  expect_message_contains("dim1 = 2");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_transpose(x, -3, 0, &out));
  expect_message_contains("dim0 = -3");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_transpose(s, 0, 0, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_transpose(x, 0, 1, NULL));
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

/* ---- st_slice -------------------------------------------------------------- */

static void slice_takes_every_step_th_element_below_stop(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(10), 1), s = {0}, even = {0};
  EXPECT_OK(st_slice(x, 0, 2, 8, 3, &s)); /* 2, 5 */
  expect_layout(s, 1, DIMS(2), DIMS(3), 2);
  assert_true(read_f32(s, DIMS(1)) == 5.0f);
  EXPECT_OK(st_slice(x, 0, 2, 8, 2, &even)); /* 2, 4, 6 */
  expect_layout(even, 1, DIMS(3), DIMS(2), 2);
  st_tensor ts[] = {x, s, even};
  release_all(ts, 3);
}

static void slice_of_a_middle_dim_moves_the_offset_by_its_stride(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 6, 4), 3), s = {0};
  EXPECT_OK(st_slice(x, -2, 1, 5, 2, &s)); /* rows 1 and 3 */
  expect_layout(s, 3, DIMS(2, 2, 4), DIMS(24, 8, 1), 4);
  assert_true(read_f32(s, DIMS(1, 1, 3)) == 24 + 12 + 3);
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void slice_with_negative_start_and_stop_counts_from_the_end(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(10), 1), s = {0};
  EXPECT_OK(st_slice(x, 0, -3, -1, 1, &s)); /* 7, 8 */
  expect_layout(s, 1, DIMS(2), DIMS(1), 7);
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void slice_clamps_start_and_stop_to_the_size(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(10), 1), a = {0}, b = {0}, c = {0};
  EXPECT_OK(st_slice(x, 0, -100, 3, 1, &a)); /* start clamps to 0 */
  expect_layout(a, 1, DIMS(3), DIMS(1), 0);
  EXPECT_OK(st_slice(x, 0, 8, 100, 1, &b)); /* stop clamps to 10 */
  expect_layout(b, 1, DIMS(2), DIMS(1), 8);
  EXPECT_OK(st_slice(x, 0, INT64_MIN, INT64_MAX, 4, &c)); /* 0, 4, 8 */
  expect_layout(c, 1, DIMS(3), DIMS(4), 0);
  st_tensor ts[] = {x, a, b, c};
  release_all(ts, 4);
}

static void slice_with_stop_not_after_start_is_empty(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(10, 2), 2), a = {0}, b = {0};
  int64_t sizes[2];
  EXPECT_OK(st_slice(x, 0, 6, 3, 1, &a));
  EXPECT_OK(st_tensor_sizes(a, sizes, 2));
  assert_int_equal(sizes[0], 0);
  assert_int_equal(sizes[1], 2);
  EXPECT_OK(st_slice(x, 0, 20, 30, 1, &b)); /* both clamp to 10 */
  EXPECT_OK(st_tensor_sizes(b, sizes, 2));
  assert_int_equal(sizes[0], 0);
  st_tensor ts[] = {x, a, b};
  release_all(ts, 3);
}

static void slice_with_a_step_beyond_the_size_keeps_one_element(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(10), 1), s = {0};
  EXPECT_OK(st_slice(x, 0, 3, 10, INT64_MAX, &s));
  int64_t size = -1;
  EXPECT_OK(st_tensor_sizes(s, &size, 1));
  assert_int_equal(size, 1);
  assert_true(read_f32(s, DIMS(0)) == 3.0f);
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void slice_with_a_step_below_one_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(10), 1, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_slice(x, 0, 0, 10, 0, &out));
  expect_message_contains("step = 0");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_slice(x, 0, 0, 10, -1, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void slice_with_a_dim_out_of_range_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(10), 1, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_slice(x, 1, 0, 10, 1, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_slice(x, -2, 0, 10, 1, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_slice(x, 0, 0, 10, 1, NULL));
  EXPECT_OK(st_tensor_release(x));
}

static void slice_of_an_empty_tensor_stays_inside_the_storage(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), e = {0}, s = {0}, again = {0};
  EXPECT_OK(st_as_strided(x, DIMS(0, INT64_C(1) << 40), DIMS(1, INT64_C(1) << 40), 2, 0, &e));
  EXPECT_OK(st_slice(e, 1, 3, INT64_MAX, 1, &s));
  int64_t offset = -1;
  EXPECT_OK(st_tensor_storage_offset(s, &offset));
  assert_true(offset >= 0 && offset <= 12);
  /* a view of it can be rebuilt from its own metadata */
  EXPECT_OK(st_as_strided(x, DIMS(0), DIMS(1), 1, offset, &again));
  st_tensor ts[] = {x, e, s, again};
  release_all(ts, 4);
}

/* ---- st_select --------------------------------------------------------------- */

static void select_drops_the_dim_and_moves_the_offset(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), s = {0};
  EXPECT_OK(st_select(x, 1, 2, &s));
  expect_layout(s, 2, DIMS(2, 4), DIMS(12, 1), 8);
  assert_true(read_f32(s, DIMS(1, 3)) == 12 + 8 + 3);
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void select_with_a_negative_index_counts_from_the_end(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), s = {0};
  EXPECT_OK(st_select(x, -1, -1, &s));
  expect_layout(s, 2, DIMS(2, 3), DIMS(12, 4), 3);
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void select_of_a_1d_tensor_is_a_scalar(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(5), 1), s = {0};
  EXPECT_OK(st_select(x, 0, 3, &s));
  expect_layout(s, 0, NULL, NULL, 3);
  assert_true(read_f32(s, NULL) == 3.0f);
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void select_with_an_index_out_of_range_is_out_of_bounds(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3), 2, ST_FLOAT32), e = make_tensor(DIMS(0), 1, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_select(x, 1, 3, &out));
  expect_message_contains("index = 3");
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_select(x, 1, -4, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_OUT_OF_BOUNDS, st_select(e, 0, 0, &out));
  st_tensor ts[] = {x, e};
  release_all(ts, 2);
}

static void select_with_a_dim_out_of_range_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3), 2, ST_FLOAT32), s = make_tensor(NULL, 0, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_select(x, 2, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_select(x, -3, 0, &out));
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_select(s, 0, 0, &out)); /* a scalar has no dim */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_select(x, 0, 0, NULL));
  st_tensor ts[] = {x, s};
  release_all(ts, 2);
}

static void select_of_an_empty_tensor_stays_inside_the_storage(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), e = {0}, s = {0};
  EXPECT_OK(st_as_strided(x, DIMS(0, INT64_C(1) << 40), DIMS(1, INT64_C(1) << 40), 2, 0, &e));
  EXPECT_OK(st_select(e, 1, 5, &s));
  int64_t offset = -1;
  EXPECT_OK(st_tensor_storage_offset(s, &offset));
  assert_true(offset >= 0 && offset <= 12);
  st_tensor ts[] = {x, e, s};
  release_all(ts, 3);
}

/* ---- st_flip ----------------------------------------------------------------- */

static void flip_of_the_first_dim_starts_at_the_last_row(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 4), 2), f = {0};
  EXPECT_OK(st_flip(x, 0, &f));
  expect_layout(f, 2, DIMS(3, 4), DIMS(-4, 1), 8);
  assert_true(read_f32(f, DIMS(0, 1)) == 9.0f);
  assert_true(read_f32(f, DIMS(2, 3)) == 3.0f);
  st_tensor ts[] = {x, f};
  release_all(ts, 2);
}

static void flip_of_the_last_dim_starts_at_the_end_of_the_first_row(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 4), 2), f = {0};
  EXPECT_OK(st_flip(x, -1, &f));
  expect_layout(f, 2, DIMS(3, 4), DIMS(4, -1), 3);
  assert_true(read_f32(f, DIMS(1, 0)) == 7.0f);
  st_tensor ts[] = {x, f};
  release_all(ts, 2);
}

static void flip_twice_restores_the_layout(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3, 4), 2), f = {0}, g = {0};
  EXPECT_OK(st_flip(x, 0, &f));
  EXPECT_OK(st_flip(f, 0, &g));
  expect_layout(g, 2, DIMS(3, 4), DIMS(4, 1), 0);
  st_tensor ts[] = {x, f, g};
  release_all(ts, 3);
}

static void flip_of_a_strided_slice_reverses_it(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(10), 1), s = {0}, f = {0};
  EXPECT_OK(st_slice(x, 0, 2, 8, 2, &s)); /* 2, 4, 6 */
  EXPECT_OK(st_flip(s, 0, &f));           /* 6, 4, 2 */
  expect_layout(f, 1, DIMS(3), DIMS(-2), 6);
  assert_true(read_f32(f, DIMS(2)) == 2.0f);
  st_tensor ts[] = {x, s, f};
  release_all(ts, 3);
}

static void flip_of_a_size_one_dim_keeps_the_offset(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(1, 4), 2), f = {0};
  EXPECT_OK(st_flip(x, 0, &f));
  expect_layout(f, 2, DIMS(1, 4), DIMS(-4, 1), 0);
  st_tensor ts[] = {x, f};
  release_all(ts, 2);
}

static void flip_of_an_empty_tensor_stays_inside_the_storage(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), e = {0}, f = {0};
  EXPECT_OK(st_as_strided(x, DIMS(0, INT64_C(1) << 40), DIMS(1, INT64_C(1) << 40), 2, 0, &e));
  EXPECT_OK(st_flip(e, 1, &f));
  expect_layout(f, 2, DIMS(0, INT64_C(1) << 40), DIMS(1, -(INT64_C(1) << 40)), 0);
  st_tensor ts[] = {x, e, f};
  release_all(ts, 3);
}

static void flip_with_a_dim_out_of_range_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), out = {0};
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_flip(x, 2, &out));
  expect_message_contains("dim = 2");
  EXPECT_VIEW_FAILS(ST_ERROR_INVALID_ARGUMENT, st_flip(x, -3, &out));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_flip(x, 0, NULL));
  EXPECT_OK(st_tensor_release(x));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(as_strided_picks_elements_of_the_storage),
      cmocka_unit_test(as_strided_with_a_negative_stride_reads_backwards),
      cmocka_unit_test(as_strided_may_reach_both_ends_of_the_storage),
      cmocka_unit_test(as_strided_past_the_end_is_out_of_bounds),
      cmocka_unit_test(as_strided_below_the_start_with_a_negative_stride_is_out_of_bounds),
      cmocka_unit_test(as_strided_whose_extent_overflows_is_out_of_bounds),
      cmocka_unit_test(as_strided_whose_numel_overflows_is_out_of_memory),
      cmocka_unit_test(as_strided_empty_view_may_sit_at_the_end_of_the_storage),
      cmocka_unit_test(as_strided_empty_view_may_have_sizes_whose_product_overflows),
      cmocka_unit_test(as_strided_of_a_view_measures_the_whole_storage),
      cmocka_unit_test(as_strided_argument_errors_are_invalid_argument),
      cmocka_unit_test(permute_reorders_sizes_and_strides),
      cmocka_unit_test(permute_of_a_scalar_takes_no_dims),
      cmocka_unit_test(permute_with_a_repeated_dim_is_invalid_argument),
      cmocka_unit_test(permute_with_a_dim_out_of_range_is_invalid_argument),
      cmocka_unit_test(permute_with_the_wrong_number_of_dims_is_invalid_argument),
      cmocka_unit_test(permute_with_null_dims_is_invalid_argument),
      cmocka_unit_test(transpose_swaps_two_dims),
      cmocka_unit_test(transpose_with_a_dim_out_of_range_is_invalid_argument),
      cmocka_unit_test(slice_takes_every_step_th_element_below_stop),
      cmocka_unit_test(slice_of_a_middle_dim_moves_the_offset_by_its_stride),
      cmocka_unit_test(slice_with_negative_start_and_stop_counts_from_the_end),
      cmocka_unit_test(slice_clamps_start_and_stop_to_the_size),
      cmocka_unit_test(slice_with_stop_not_after_start_is_empty),
      cmocka_unit_test(slice_with_a_step_beyond_the_size_keeps_one_element),
      cmocka_unit_test(slice_with_a_step_below_one_is_invalid_argument),
      cmocka_unit_test(slice_with_a_dim_out_of_range_is_invalid_argument),
      cmocka_unit_test(slice_of_an_empty_tensor_stays_inside_the_storage),
      cmocka_unit_test(select_drops_the_dim_and_moves_the_offset),
      cmocka_unit_test(select_with_a_negative_index_counts_from_the_end),
      cmocka_unit_test(select_of_a_1d_tensor_is_a_scalar),
      cmocka_unit_test(select_with_an_index_out_of_range_is_out_of_bounds),
      cmocka_unit_test(select_with_a_dim_out_of_range_is_invalid_argument),
      cmocka_unit_test(select_of_an_empty_tensor_stays_inside_the_storage),
      cmocka_unit_test(flip_of_the_first_dim_starts_at_the_last_row),
      cmocka_unit_test(flip_of_the_last_dim_starts_at_the_end_of_the_first_row),
      cmocka_unit_test(flip_twice_restores_the_layout),
      cmocka_unit_test(flip_of_a_strided_slice_reverses_it),
      cmocka_unit_test(flip_of_a_size_one_dim_keeps_the_offset),
      cmocka_unit_test(flip_of_an_empty_tensor_stays_inside_the_storage),
      cmocka_unit_test(flip_with_a_dim_out_of_range_is_invalid_argument),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
