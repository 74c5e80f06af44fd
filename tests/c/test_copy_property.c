/* st_copy between random layouts, against the reference copy of
 * copy_support.c: thousands of cases of 1 to 6 dims and sizes 0 to 7, dims
 * stored in random or channels-last order, sliced with steps, flipped,
 * src broadcast (fewer dims, dims of size 1, stride-0 expands), each run on
 * one thread and on two. dst lies inside a padded buffer: every byte of it
 * outside the written elements must stay as it was, and src must not change.
 * A few large cases reach the multi-threaded paths. Set ST_TEST_SEED to
 * replay other cases; a failure prints the seed and the case. */
#include <stdlib.h>

#include "copy_support.h"

#define CASES 3000

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

static int describe_layout(char* out, size_t cap, const char* name, const layout* l) {
  int n = snprintf(out, cap, "%s sizes (", name);
  for (int32_t d = 0; d < l->ndim; ++d)
    n += snprintf(out + n, cap - (size_t)n, d ? ", %lld" : "%lld", (long long)l->sizes[d]);
  n += snprintf(out + n, cap - (size_t)n, ") strides (");
  for (int32_t d = 0; d < l->ndim; ++d)
    n += snprintf(out + n, cap - (size_t)n, d ? ", %lld" : "%lld", (long long)l->strides[d]);
  n += snprintf(out + n, cap - (size_t)n, ") offset %lld", (long long)l->offset);
  return n;
}

/* Copies c's src into its dst on one thread and on two; each time dst's
 * whole buffer must equal the reference's and src's buffer must not change. */
static void check_copy(const copy_case* c, const char* what) {
  char context[1024];
  int n = snprintf(context, sizeof context, "%s: %s <- %s; ", what, st_dtype_name(c->dst_dtype),
                   st_dtype_name(c->src_dtype));
  n += describe_layout(context + n, sizeof context - (size_t)n, "dst", &c->dl);
  n += snprintf(context + n, sizeof context - (size_t)n, "; ");
  describe_layout(context + n, sizeof context - (size_t)n, "src", &c->sl);

  const size_t dbytes = (size_t)c->db.numel * c->db.itemsize, sbytes = (size_t)c->sb.numel * c->sb.itemsize;
  unsigned char* dst_before = malloc(dbytes);
  unsigned char* want = malloc(dbytes);
  unsigned char* src_before = malloc(sbytes);
  assert_true(dst_before && want && src_before);
  memcpy(dst_before, c->db.bytes, dbytes);
  memcpy(want, c->db.bytes, dbytes);
  memcpy(src_before, c->sb.bytes, sbytes);
  reference_copy(want, c->dst_dtype, &c->dl, src_before, c->src_dtype, &c->sl);

  st_tensor dst = buffer_view(&c->db, &c->dl), src = buffer_view(&c->sb, &c->sl);
  for (int32_t threads = 1; threads <= 2; ++threads) {
    memcpy(c->db.bytes, dst_before, dbytes);
    EXPECT_OK(st_set_num_threads(threads));
    st_status s = st_copy(dst, src, 0);
    if (s != ST_OK) {
      print_error("%s: st_copy on %d thread(s) returned %s: %s\n", context, (int)threads, st_status_name(s),
                  st_last_error_message());
      fail();
    }
    expect_same_bytes(c->db.bytes, want, dbytes, c->db.itemsize, context);
    expect_same_bytes(c->sb.bytes, src_before, sbytes, c->sb.itemsize, context);
  }
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  free(dst_before);
  free(want);
  free(src_before);
}

static void check_random_case(const copy_case* c, int index, const char* what) {
  (void)index;
  check_copy(c, what);
}

static void run_random_cases(const char* name, uint64_t fixed_seed, int cases, int converting, enum source_kind kind) {
  run_random_copy_cases(name, fixed_seed, cases, converting, kind, check_random_case);
}

static void same_dtype_copies_between_random_layouts_match_the_reference(void** state) {
  (void)state;
  run_random_cases("same_dtype_copies", 20240611ull, CASES, 0, ANY_SOURCE);
}

static void converting_copies_between_random_layouts_match_the_reference(void** state) {
  (void)state;
  run_random_cases("converting_copies", 20240612ull, CASES / 2, 1, ANY_SOURCE);
}

static void broadcasting_copies_from_random_sources_match_the_reference(void** state) {
  (void)state;
  run_random_cases("broadcasting_copies", 20240613ull, CASES / 2, 0, BROADCAST_SOURCE);
}

/* ---- Hand-made layouts ---------------------------------------------------- */

static uint64_t g_fill_rng = 12345;

static void make_case(copy_case* c, st_dtype dst_dtype, layout dl, int64_t dst_numel, st_dtype src_dtype, layout sl,
                      int64_t src_numel) {
  c->dst_dtype = dst_dtype;
  c->src_dtype = src_dtype;
  c->dl = dl;
  c->sl = sl;
  c->db = buffer_create(dst_dtype, dst_numel, &g_fill_rng);
  c->sb = buffer_create(src_dtype, src_numel, &g_fill_rng);
  if (dst_dtype != src_dtype) buffer_fill_small_ints(&c->sb, dst_dtype, &g_fill_rng);
}

/* dst (700, 300) row-major <- the transpose of a (300, 700) row-major src. */
static void transpose_of(st_dtype dtype) {
  copy_case c;
  layout src = row_major(2, DIMS(300, 700), 0);
  layout src_t = src;
  src_t.sizes[0] = 700, src_t.sizes[1] = 300, src_t.strides[0] = 1, src_t.strides[1] = 700;
  make_case(&c, dtype, row_major(2, DIMS(700, 300), 5), 700 * 300 + 10, dtype, src_t, 300 * 700);
  check_copy(&c, "transpose 300x700");
  copy_case_destroy(&c);
}

static void transposes_of_300x700_match_the_reference(void** state) {
  (void)state;
  transpose_of(ST_FLOAT32);
  transpose_of(ST_INT8);
  transpose_of(ST_FLOAT16);
  transpose_of(ST_COMPLEX128);
}

static void copy_into_a_transposed_300x700_dst_matches_the_reference(void** state) {
  (void)state;
  copy_case c;
  layout dst_t = row_major(2, DIMS(300, 700), 3); /* a (700, 300) view of (300, 700) memory */
  dst_t.sizes[0] = 700, dst_t.sizes[1] = 300, dst_t.strides[0] = 1, dst_t.strides[1] = 700;
  make_case(&c, ST_FLOAT64, dst_t, 300 * 700 + 6, ST_FLOAT64, row_major(2, DIMS(700, 300), 0), 700 * 300);
  check_copy(&c, "into a transposed dst");
  copy_case_destroy(&c);
}

/* NCHW (4, 64, 80, 80) row-major into a channels-last dst of the same shape
 * inside a padded buffer: 1,638,400 elements. */
static void nchw_to_nhwc(st_dtype dst_dtype, st_dtype src_dtype) {
  copy_case c;
  const int64_t n = 4, ch = 64, h = 80, w = 80, numel = n * ch * h * w;
  layout dst;
  memset(&dst, 0, sizeof dst);
  dst.ndim = 4;
  dst.offset = 7;
  memcpy(dst.sizes, DIMS(n, ch, h, w), sizeof(int64_t) * 4);
  memcpy(dst.strides, DIMS(h * w * ch, 1, w * ch, ch), sizeof(int64_t) * 4);
  make_case(&c, dst_dtype, dst, numel + 14, src_dtype, row_major(4, DIMS(n, ch, h, w), 0), numel);
  check_copy(&c, "NCHW to NHWC");
  copy_case_destroy(&c);
}

static void nchw_to_nhwc_of_1_6_million_elements_matches_the_reference(void** state) {
  (void)state;
  nchw_to_nhwc(ST_FLOAT32, ST_FLOAT32);
}

static void nchw_uint8_to_nhwc_float32_matches_the_reference(void** state) {
  (void)state;
  nchw_to_nhwc(ST_FLOAT32, ST_UINT8);
}

/* A (1000) row into every row of a (2000, 1000) dst whose rows are 1024
 * apart: the 24 elements between rows stay untouched. */
static void broadcast_row_into_a_big_matrix_matches_the_reference(void** state) {
  (void)state;
  copy_case c;
  layout dst = row_major(2, DIMS(2000, 1000), 0);
  dst.strides[0] = 1024;
  make_case(&c, ST_FLOAT32, dst, 2000 * 1024, ST_FLOAT32, row_major(1, DIMS(1000), 0), 1000);
  check_copy(&c, "broadcast row");
  copy_case_destroy(&c);
}

/* A (2000, 1) column, converted, into a (2000, 1000) dst. */
static void broadcast_column_with_conversion_matches_the_reference(void** state) {
  (void)state;
  copy_case c;
  make_case(&c, ST_FLOAT64, row_major(2, DIMS(2000, 1000), 0), 2000 * 1000, ST_INT16, row_major(2, DIMS(2000, 1), 0),
            2000);
  check_copy(&c, "broadcast column");
  copy_case_destroy(&c);
}

/* A 0-d src into a 0-d dst, and into a 3-d dst. */
static void scalar_sources_match_the_reference(void** state) {
  (void)state;
  copy_case c;
  layout scalar;
  memset(&scalar, 0, sizeof scalar);
  scalar.offset = 1;
  make_case(&c, ST_INT32, scalar, 3, ST_INT32, scalar, 2);
  check_copy(&c, "0-d into 0-d");
  copy_case_destroy(&c);
  make_case(&c, ST_FLOAT32, row_major(3, DIMS(2, 3, 4), 0), 24, ST_INT8, scalar, 2);
  check_copy(&c, "0-d into 3-d");
  copy_case_destroy(&c);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_dtype_copies_between_random_layouts_match_the_reference),
      cmocka_unit_test(converting_copies_between_random_layouts_match_the_reference),
      cmocka_unit_test(broadcasting_copies_from_random_sources_match_the_reference),
      cmocka_unit_test(transposes_of_300x700_match_the_reference),
      cmocka_unit_test(copy_into_a_transposed_300x700_dst_matches_the_reference),
      cmocka_unit_test(nchw_to_nhwc_of_1_6_million_elements_matches_the_reference),
      cmocka_unit_test(nchw_uint8_to_nhwc_float32_matches_the_reference),
      cmocka_unit_test(broadcast_row_into_a_big_matrix_matches_the_reference),
      cmocka_unit_test(broadcast_column_with_conversion_matches_the_reference),
      cmocka_unit_test(scalar_sources_match_the_reference),
  };
  return cmocka_run_group_tests(tests, save_threads, restore_threads);
}
