/* st_copy when memory is shared (include/stride.h, st_copy): a dst that is not
 * provably free of self-overlap is ST_ERROR_OVERLAP and nothing is written;
 * src and dst that share memory (shifted slices, a transpose or a flip of
 * dst, two wrappers of one buffer) give the answer of reading src in full
 * first; a view of the very same elements is a no-op. */
#include <stdlib.h>

#include "copy_support.h"

static int32_t g_threads_before;

static int save_threads(void** state) {
  (void)state;
  g_threads_before = st_get_num_threads();
  return 0;
}

static int restore_threads(void** state) {
  (void)state;
  return st_set_num_threads(g_threads_before) == ST_OK ? 0 : -1;
}

static layout make_layout(int32_t ndim, const int64_t* sizes, const int64_t* strides, int64_t offset) {
  layout l;
  memset(&l, 0, sizeof l);
  l.ndim = ndim;
  l.offset = offset;
  memcpy(l.sizes, sizes, sizeof(int64_t) * (size_t)ndim);
  memcpy(l.strides, strides, sizeof(int64_t) * (size_t)ndim);
  return l;
}

static uint64_t g_rng = 777;

/* ---- A dst that may overlap itself ------------------------------------------- */

/* st_copy(view `dl` of a buffer, a fresh src) fails with ST_ERROR_OVERLAP
 * and leaves every byte of the buffer as it was. */
static void expect_overlap_refused(layout dl) {
  buffer b = buffer_create(ST_FLOAT32, 64, &g_rng);
  unsigned char before[64 * 4];
  memcpy(before, b.bytes, sizeof before);
  st_tensor dst = buffer_view(&b, &dl), src = make_iota_f32(dl.sizes, dl.ndim);
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_copy(dst, src, 0));
  expect_message_contains("st_copy: dst of sizes ");
  expect_message_contains("is not provably free of self-overlap");
  expect_same_bytes(b.bytes, before, sizeof before, 4, "a refused copy");
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  buffer_destroy(&b);
}

static void copy_into_an_expanded_dst_is_overlap_and_writes_nothing(void** state) {
  (void)state;
  expect_overlap_refused(make_layout(2, DIMS(4, 3), DIMS(0, 1), 2));
  /* the same through st_expand */
  st_tensor row = make_tensor(DIMS(1, 3), 2, ST_INT32), e = {0}, src = make_tensor(DIMS(4, 3), 2, ST_INT32);
  int32_t* p = data_ptr(row);
  p[0] = 7, p[1] = 8, p[2] = 9;
  EXPECT_OK(st_expand(row, DIMS(4, 3), 2, &e));
  EXPECT_OK(st_zero(src));
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_copy(e, src, 0));
  assert_true(p[0] == 7 && p[1] == 8 && p[2] == 9);
  EXPECT_OK(st_tensor_release(row));
  EXPECT_OK(st_tensor_release(e));
  EXPECT_OK(st_tensor_release(src));
}

static void copy_into_overlapping_windows_is_overlap(void** state) {
  (void)state;
  expect_overlap_refused(make_layout(2, DIMS(3, 3), DIMS(1, 1), 0)); /* sliding windows */
  expect_overlap_refused(make_layout(2, DIMS(2, 4), DIMS(3, 1), 5)); /* rows that share an element */
  expect_overlap_refused(make_layout(2, DIMS(3, 2), DIMS(-1, -1), 10));
}

static void copy_into_a_dst_that_the_rule_cannot_prove_free_of_overlap_is_overlap(void** state) {
  (void)state;
  /* i * 2 + j * 3 for (3, 2) is 0, 3, 2, 5, 4, 7: all distinct, but sorted by
   * stride, 3 does not exceed the span 2 * 2 of the dim before: refused. */
  expect_overlap_refused(make_layout(2, DIMS(3, 2), DIMS(2, 3), 0));
}

static void copy_into_interleaved_dims_that_the_rule_proves_free_succeeds(void** state) {
  (void)state;
  /* (2, 2) with strides (3, 2): 2 spans 2, then 3 > 2; elements 0, 2, 3, 5 */
  layout dl = make_layout(2, DIMS(2, 2), DIMS(3, 2), 1);
  buffer b = buffer_create(ST_FLOAT32, 8, &g_rng);
  unsigned char want[8 * 4];
  memcpy(want, b.bytes, sizeof want);
  st_tensor dst = buffer_view(&b, &dl), src = make_iota_f32(DIMS(2, 2), 2);
  const float values[4] = {0, 1, 2, 3};
  const int64_t at[4] = {1, 3, 4, 6}; /* offset 1 + i * 3 + j * 2 */
  for (int k = 0; k < 4; ++k) memcpy(want + at[k] * 4, &values[k], 4);
  EXPECT_OK(st_copy(dst, src, 0));
  expect_same_bytes(b.bytes, want, sizeof want, 4, "interleaved dims");
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  buffer_destroy(&b);
}

static void a_stride_zero_on_a_dim_of_size_one_is_no_overlap(void** state) {
  (void)state;
  buffer b = buffer_create(ST_FLOAT32, 4, &g_rng);
  layout dl = make_layout(2, DIMS(1, 3), DIMS(0, 1), 1);
  st_tensor dst = buffer_view(&b, &dl), src = make_iota_f32(DIMS(1, 3), 2);
  EXPECT_OK(st_copy(dst, src, 0));
  const float* p = (const float*)b.bytes;
  assert_true(p[1] == 0.0f && p[2] == 1.0f && p[3] == 2.0f);
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  buffer_destroy(&b);
}

/* ---- src and dst sharing memory --------------------------------------------------- */

/* st_copy(view dl, view sl) of one buffer gives the reference answer of a
 * src read in full first, on one thread and on two. */
static void expect_copy_as_if_src_read_first(st_dtype dtype, int64_t numel, layout dl, layout sl, const char* what) {
  buffer b = buffer_create(dtype, numel, &g_rng);
  const size_t nbytes = (size_t)b.numel * b.itemsize;
  unsigned char* before = malloc(nbytes);
  unsigned char* want = malloc(nbytes);
  assert_true(before && want);
  memcpy(before, b.bytes, nbytes);
  memcpy(want, b.bytes, nbytes);
  reference_copy(want, dtype, &dl, before, dtype, &sl);
  st_tensor dst = buffer_view(&b, &dl), src = buffer_view(&b, &sl);
  for (int32_t threads = 1; threads <= 2; ++threads) {
    memcpy(b.bytes, before, nbytes);
    EXPECT_OK(st_set_num_threads(threads));
    EXPECT_OK(st_copy(dst, src, 0));
    expect_same_bytes(b.bytes, want, nbytes, b.itemsize, what);
  }
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  free(before);
  free(want);
  buffer_destroy(&b);
}

static void copy_from_a_slice_shifted_forward_reads_src_first(void** state) {
  (void)state;
  /* dst = buffer[0:15], src = buffer[3:18] */
  expect_copy_as_if_src_read_first(ST_FLOAT32, 20, make_layout(1, DIMS(15), DIMS(1), 0),
                                   make_layout(1, DIMS(15), DIMS(1), 3), "src ahead of dst");
}

static void copy_from_a_slice_shifted_backward_reads_src_first(void** state) {
  (void)state;
  /* dst = buffer[3:18], src = buffer[0:15]: a forward loop would copy its own output */
  expect_copy_as_if_src_read_first(ST_FLOAT32, 20, make_layout(1, DIMS(15), DIMS(1), 3),
                                   make_layout(1, DIMS(15), DIMS(1), 0), "src behind dst");
}

static void copy_between_shifted_strided_views_reads_src_first(void** state) {
  (void)state;
  /* (5, 7) windows of an (8, 9) buffer, one row and one column apart, both ways */
  expect_copy_as_if_src_read_first(ST_INT16, 72, make_layout(2, DIMS(5, 7), DIMS(9, 1), 0),
                                   make_layout(2, DIMS(5, 7), DIMS(9, 1), 10), "2-d, src ahead");
  expect_copy_as_if_src_read_first(ST_INT16, 72, make_layout(2, DIMS(5, 7), DIMS(9, 1), 10),
                                   make_layout(2, DIMS(5, 7), DIMS(9, 1), 0), "2-d, src behind");
  /* every other element, shifted by one step */
  expect_copy_as_if_src_read_first(ST_FLOAT64, 40, make_layout(1, DIMS(15), DIMS(2), 4),
                                   make_layout(1, DIMS(15), DIMS(2), 2), "stepped, src behind");
}

static void copy_of_a_transpose_into_itself_transposes(void** state) {
  (void)state;
  expect_copy_as_if_src_read_first(ST_FLOAT32, 25, make_layout(2, DIMS(5, 5), DIMS(5, 1), 0),
                                   make_layout(2, DIMS(5, 5), DIMS(1, 5), 0), "copy(a, transpose(a))");
  /* large enough to be split across threads */
  expect_copy_as_if_src_read_first(ST_FLOAT64, 500 * 500, make_layout(2, DIMS(500, 500), DIMS(500, 1), 0),
                                   make_layout(2, DIMS(500, 500), DIMS(1, 500), 0), "copy(a, transpose(a)), 500x500");
  /* the last two dims of a 3-d tensor */
  expect_copy_as_if_src_read_first(ST_UINT8, 48, make_layout(3, DIMS(3, 4, 4), DIMS(16, 4, 1), 0),
                                   make_layout(3, DIMS(3, 4, 4), DIMS(16, 1, 4), 0), "copy(a, a.transpose(1, 2))");
}

static void copy_of_a_flip_into_itself_reverses(void** state) {
  (void)state;
  expect_copy_as_if_src_read_first(ST_INT32, 1000, make_layout(1, DIMS(1000), DIMS(1), 0),
                                   make_layout(1, DIMS(1000), DIMS(-1), 999), "copy(a, flip(a))");
  expect_copy_as_if_src_read_first(ST_COMPLEX64, 12, make_layout(2, DIMS(3, 4), DIMS(4, 1), 0),
                                   make_layout(2, DIMS(3, 4), DIMS(-4, 1), 8), "copy(a, flip(a, 0))");
  /* a flipped dst, too */
  expect_copy_as_if_src_read_first(ST_INT32, 100000, make_layout(1, DIMS(100000), DIMS(-1), 99999),
                                   make_layout(1, DIMS(100000), DIMS(1), 0), "copy(flip(a), a)");
}

static void copy_of_a_broadcast_column_of_dst_reads_src_first(void** state) {
  (void)state;
  /* a[i][j] = old a[j][0]: column 0 of a, broadcast along rows. Row by row
   * in place, row 1 would read a[1][0] after writing it. */
  expect_copy_as_if_src_read_first(ST_FLOAT32, 9, make_layout(2, DIMS(3, 3), DIMS(3, 1), 0),
                                   make_layout(1, DIMS(3), DIMS(3), 0), "column of dst broadcast");
}

static void copy_between_two_wrappers_of_one_buffer_reads_src_first(void** state) {
  (void)state;
  /* The same memory as int32 and as float32: src int32 elements 0..5, dst
   * float32 elements 1..6. Converting in place would read floats as ints. */
  union {
    int32_t i[8];
    float f[8];
  } mem;
  for (int k = 0; k < 8; ++k) mem.i[k] = k * 10;
  st_tensor src = {0}, dst = {0};
  int64_t n = 6;
  EXPECT_OK(st_tensor_from_data(&mem.i[0], &n, NULL, 1, ST_INT32, CPU, NULL, NULL, &src));
  EXPECT_OK(st_tensor_from_data(&mem.f[1], &n, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &dst));
  EXPECT_OK(st_copy(dst, src, 0));
  assert_int_equal(mem.i[0], 0);
  for (int k = 1; k <= 6; ++k) assert_true(mem.f[k] == (float)((k - 1) * 10));
  assert_int_equal(mem.i[7], 70);
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void copy_from_a_view_of_the_very_same_elements_is_a_no_op(void** state) {
  (void)state;
  buffer b = buffer_create(ST_FLOAT64, 12, &g_rng);
  unsigned char before[12 * 8];
  memcpy(before, b.bytes, sizeof before);
  layout l = make_layout(2, DIMS(3, 4), DIMS(4, 1), 0);
  st_tensor a = buffer_view(&b, &l), same = buffer_view(&b, &l), one = {0}, one_other = {0};
  EXPECT_OK(st_copy(a, a, 0));
  EXPECT_OK(st_copy(a, same, 0));
  /* a dim of size 1 may have any stride: still the same elements */
  EXPECT_OK(st_as_strided(b.whole, DIMS(1, 4), DIMS(4, 1), 2, 0, &one));
  EXPECT_OK(st_as_strided(b.whole, DIMS(1, 4), DIMS(9, 1), 2, 0, &one_other));
  EXPECT_OK(st_copy(one, one_other, 0));
  expect_same_bytes(b.bytes, before, sizeof before, 8, "copy onto the same elements");
  st_tensor ts[] = {a, same, one, one_other};
  for (int i = 0; i < 4; ++i) EXPECT_OK(st_tensor_release(ts[i]));
  buffer_destroy(&b);
}

/* Random dst and src views of one buffer: whatever they share, the result
 * is that of reading src first. */
static void random_views_of_one_buffer_copy_as_if_src_were_read_first(void** state) {
  (void)state;
  uint64_t seed = test_seed("random_views_of_one_buffer", 20240641ull);
  for (int i = 0; i < 1000; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    int32_t nd = 1 + (int32_t)rng_below(&rng, 4);
    int64_t sizes[ST_MAX_DIMS], ssizes[ST_MAX_DIMS];
    for (int32_t d = 0; d < nd; ++d) sizes[d] = 1 + rng_below(&rng, 6);
    layout dl, sl;
    int64_t dn = random_layout(&rng, nd, sizes, 0, &dl);
    for (int32_t d = 0; d < nd; ++d) ssizes[d] = rng_below(&rng, 4) == 0 ? 1 : sizes[d];
    int64_t sn = random_layout(&rng, nd, ssizes, 1, &sl);
    char what[96];
    snprintf(what, sizeof what, "seed %llu case %d", (unsigned long long)seed, i);
    expect_copy_as_if_src_read_first((st_dtype)(1 + rng_below(&rng, NUM_DTYPES - 1)), dn > sn ? dn : sn, dl, sl, what);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(copy_into_an_expanded_dst_is_overlap_and_writes_nothing),
      cmocka_unit_test(copy_into_overlapping_windows_is_overlap),
      cmocka_unit_test(copy_into_a_dst_that_the_rule_cannot_prove_free_of_overlap_is_overlap),
      cmocka_unit_test(copy_into_interleaved_dims_that_the_rule_proves_free_succeeds),
      cmocka_unit_test(a_stride_zero_on_a_dim_of_size_one_is_no_overlap),
      cmocka_unit_test(copy_from_a_slice_shifted_forward_reads_src_first),
      cmocka_unit_test(copy_from_a_slice_shifted_backward_reads_src_first),
      cmocka_unit_test(copy_between_shifted_strided_views_reads_src_first),
      cmocka_unit_test(copy_of_a_transpose_into_itself_transposes),
      cmocka_unit_test(copy_of_a_flip_into_itself_reverses),
      cmocka_unit_test(copy_of_a_broadcast_column_of_dst_reads_src_first),
      cmocka_unit_test(copy_between_two_wrappers_of_one_buffer_reads_src_first),
      cmocka_unit_test(copy_from_a_view_of_the_very_same_elements_is_a_no_op),
      cmocka_unit_test(random_views_of_one_buffer_copy_as_if_src_were_read_first),
  };
  return cmocka_run_group_tests(tests, save_threads, restore_threads);
}
