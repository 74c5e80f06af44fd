/* Copy plans against the reference copy of copy_support.c, over the random
 * layouts and dtype pairs of test_copy_property.c: a plan made on one pair
 * of views (ESTIMATE or MEASURE, alternately) executed on those views and,
 * after they are released, with execute_raw on a second pair of buffers of
 * the same layouts at other addresses. Every byte of each dst buffer must
 * equal the reference's and src must not change. Overlapping views of one
 * buffer must give the reference copy of src as it was before the copy
 * (st_copy's staging). Set ST_TEST_SEED to replay other cases. */
#include <stdlib.h>

#include "copy_support.h"

#define CASES 1500

static int describe_case(char* out, size_t cap, const char* what, const copy_case* c) {
  int n = snprintf(out, cap, "%s: %s <- %s; dst", what, st_dtype_name(c->dst_dtype), st_dtype_name(c->src_dtype));
  for (int32_t d = 0; d < c->dl.ndim; ++d)
    n += snprintf(out + n, cap - (size_t)n, " %lld/%lld", (long long)c->dl.sizes[d], (long long)c->dl.strides[d]);
  n += snprintf(out + n, cap - (size_t)n, " +%lld; src", (long long)c->dl.offset);
  for (int32_t d = 0; d < c->sl.ndim; ++d)
    n += snprintf(out + n, cap - (size_t)n, " %lld/%lld", (long long)c->sl.sizes[d], (long long)c->sl.strides[d]);
  n += snprintf(out + n, cap - (size_t)n, " +%lld", (long long)c->sl.offset);
  return n;
}

static void expect_ok_or_fail(st_status s, const char* call, const char* context) {
  if (s == ST_OK) return;
  print_error("%s: %s returned %s: %s\n", context, call, st_status_name(s), st_last_error_message());
  fail();
}

static void check_plan(const copy_case* c, int32_t flags, const char* what) {
  char context[1024];
  describe_case(context, sizeof context, what, c);
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
  st_copy_plan plan;
  expect_ok_or_fail(st_copy_plan_create(dst, src, NULL, flags, &plan), "st_copy_plan_create", context);
  if (flags == ST_PLAN_MEASURE) expect_same_bytes(c->db.bytes, want, dbytes, c->db.itemsize, context);
  memcpy(c->db.bytes, dst_before, dbytes);
  expect_ok_or_fail(st_copy_plan_execute(plan, dst, src, 0), "st_copy_plan_execute", context);
  expect_same_bytes(c->db.bytes, want, dbytes, c->db.itemsize, context);
  expect_same_bytes(c->sb.bytes, src_before, sbytes, c->sb.itemsize, context);
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));

  /* The same layouts in other memory, through execute_raw: the plan keeps no tensor. */
  unsigned char* dst2 = malloc(dbytes + 64);
  unsigned char* src2 = malloc(sbytes + 64);
  assert_true(dst2 && src2);
  unsigned char* d2 = dst2 + 16;  /* other alignment than the buffers' */
  unsigned char* s2 = src2 + 8;
  memcpy(d2, dst_before, dbytes);
  memcpy(s2, src_before, sbytes);
  expect_ok_or_fail(st_copy_plan_execute_raw(plan, d2 + (size_t)c->dl.offset * c->db.itemsize,
                                             s2 + (size_t)c->sl.offset * c->sb.itemsize, 0),
                    "st_copy_plan_execute_raw", context);
  expect_same_bytes(d2, want, dbytes, c->db.itemsize, context);
  expect_same_bytes(s2, src_before, sbytes, c->sb.itemsize, context);
  EXPECT_OK(st_copy_plan_release(plan));
  free(dst2);
  free(src2);
  free(dst_before);
  free(want);
  free(src_before);
}

static void check_random_case(const copy_case* c, int index, const char* what) {
  check_plan(c, (index & 1) ? ST_PLAN_MEASURE : ST_PLAN_ESTIMATE, what);
}

static void run_random_cases(const char* name, uint64_t fixed_seed, int cases, int converting, enum source_kind kind) {
  run_random_copy_cases(name, fixed_seed, cases, converting, kind, check_random_case);
  int64_t live = -1;
  EXPECT_OK(st_live_plan_count(&live));
  assert_int_equal(live, 0);
}

static void same_dtype_plans_match_the_reference(void** state) {
  (void)state;
  run_random_cases("same_dtype_plans", 20261124ull, CASES, 0, ANY_SOURCE);
}

static void converting_plans_match_the_reference(void** state) {
  (void)state;
  run_random_cases("converting_plans", 20261125ull, CASES, 1, ANY_SOURCE);
}

static void broadcasting_plans_match_the_reference(void** state) {
  (void)state;
  run_random_cases("broadcasting_plans", 20261126ull, CASES / 2, 0, BROADCAST_SOURCE);
}

/* dst and src: two random layouts of one shape over one buffer, so that
 * they mostly share memory. Expected: the reference copy of the buffer as
 * it was before (src read in full before dst is written). Through execute
 * and through execute_raw on a second buffer. */
static void plans_of_overlapping_views_stage_as_st_copy_does(void** state) {
  (void)state;
  uint64_t seed = test_seed("overlapping_plans", 20261127ull);
  for (int i = 0; i < 600; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    const st_dtype dtype = (st_dtype)rng_below(&rng, NUM_DTYPES);
    const int32_t ndim = 1 + (int32_t)rng_below(&rng, 4);
    int64_t sizes[ST_MAX_DIMS];
    for (int32_t d = 0; d < ndim; ++d) sizes[d] = 1 + rng_below(&rng, 6);
    layout dl, sl;
    const int64_t dn = random_layout(&rng, ndim, sizes, 0, &dl);
    int64_t sn = random_layout(&rng, ndim, sizes, 1, &sl);
    if (i % 7 == 0) sl = dl, sn = dn; /* the very same elements: nothing to do */
    const int64_t n = dn > sn ? dn : sn;
    buffer b = buffer_create(dtype, n, &rng);
    const size_t nbytes = (size_t)n * b.itemsize;
    unsigned char* before = malloc(nbytes);
    unsigned char* want = malloc(nbytes);
    unsigned char* other = malloc(nbytes);
    assert_true(before && want && other);
    memcpy(before, b.bytes, nbytes);
    memcpy(want, b.bytes, nbytes);
    reference_copy(want, dtype, &dl, before, dtype, &sl);
    char context[256];
    snprintf(context, sizeof context, "overlapping views, seed %llu, case %d, %s", (unsigned long long)seed, i,
             st_dtype_name(dtype));

    st_tensor dst = buffer_view(&b, &dl), src = buffer_view(&b, &sl);
    st_copy_plan plan;
    expect_ok_or_fail(st_copy_plan_create(dst, src, NULL, (i & 1) ? ST_PLAN_MEASURE : ST_PLAN_ESTIMATE, &plan),
                      "st_copy_plan_create", context);
    memcpy(b.bytes, before, nbytes);
    expect_ok_or_fail(st_copy_plan_execute(plan, dst, src, 0), "st_copy_plan_execute", context);
    expect_same_bytes(b.bytes, want, nbytes, b.itemsize, context);

    memcpy(other, before, nbytes);
    expect_ok_or_fail(st_copy_plan_execute_raw(plan, other + (size_t)dl.offset * b.itemsize,
                                               other + (size_t)sl.offset * b.itemsize, 0),
                      "st_copy_plan_execute_raw", context);
    expect_same_bytes(other, want, nbytes, b.itemsize, context);
    EXPECT_OK(st_copy_plan_release(plan));
    EXPECT_OK(st_tensor_release(dst));
    EXPECT_OK(st_tensor_release(src));
    buffer_destroy(&b);
    free(before);
    free(want);
    free(other);
  }
}

/* Scaled plans against st_copy_scaled on the same random layouts (the
 * dtypes scaled copies take only): one scale and shift, or one per element
 * of dst's first dim. */
static void check_scaled_case(const copy_case* c, int index, const char* what) {
  /* complex and the MX dtypes: UNSUPPORTED_DTYPE (test_copy_scaled.c) */
  if (!dtype_takes_scaled_copies(c->dst_dtype) || !dtype_takes_scaled_copies(c->src_dtype)) return;
  if (c->dl.ndim > 0 && c->dl.sizes[0] > 8) return;
  double scale[8], shift[8];
  int64_t n = 1;
  if (index % 2 && c->dl.ndim > 0 && c->dl.sizes[0] > 0) n = c->dl.sizes[0];
  for (int64_t k = 0; k < n; ++k) scale[k] = 0.5 * (double)(k + 1) - 1.25, shift[k] = (double)k - 2.0;
  const st_scale_shift ss = {scale, shift, n, 0, index % 3 == 0};
  const size_t dbytes = (size_t)c->db.numel * c->db.itemsize;
  unsigned char* before = malloc(dbytes);
  unsigned char* want = malloc(dbytes);
  assert_true(before && want);
  memcpy(before, c->db.bytes, dbytes);
  st_tensor dst = buffer_view(&c->db, &c->dl), src = buffer_view(&c->sb, &c->sl);
  expect_ok_or_fail(st_copy_scaled(dst, src, &ss, 0), "st_copy_scaled", what);
  memcpy(want, c->db.bytes, dbytes);
  memcpy(c->db.bytes, before, dbytes);
  st_copy_plan plan;
  expect_ok_or_fail(st_copy_plan_create(dst, src, &ss, (index & 2) ? ST_PLAN_MEASURE : ST_PLAN_ESTIMATE, &plan),
                    "st_copy_plan_create", what);
  memcpy(c->db.bytes, before, dbytes);
  expect_ok_or_fail(st_copy_plan_execute(plan, dst, src, 0), "st_copy_plan_execute", what);
  expect_same_bytes(c->db.bytes, want, dbytes, c->db.itemsize, what);
  memcpy(c->db.bytes, before, dbytes);
  expect_ok_or_fail(st_copy_plan_execute_raw(plan, data_ptr(dst), data_ptr(src), 0), "st_copy_plan_execute_raw",
                    what);
  expect_same_bytes(c->db.bytes, want, dbytes, c->db.itemsize, what);
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  memcpy(c->db.bytes, before, dbytes);
  free(before);
  free(want);
}

static void scaled_plans_match_st_copy_scaled(void** state) {
  (void)state;
  run_random_copy_cases("scaled_plans", 20261130ull, CASES / 2, 1, ANY_SOURCE, check_scaled_case);
  run_random_copy_cases("scaled_same_dtype_plans", 20261131ull, CASES / 2, 0, ANY_SOURCE, check_scaled_case);
}

/* Copies large enough for the blocked, streaming and multi-threaded kernels. */
static void large_plans_match_the_reference(void** state) {
  (void)state;
  static const struct {
    st_dtype dst, src;
    int64_t rows, cols;
    int transpose;
  } cases[] = {
      {ST_FLOAT32, ST_FLOAT32, 700, 300, 1}, {ST_FLOAT32, ST_UINT8, 512, 640, 1}, {ST_FLOAT16, ST_FLOAT32, 900, 700, 0},
      {ST_INT8, ST_INT8, 2048, 1030, 1},     {ST_FLOAT64, ST_INT64, 1000, 1000, 1}, {ST_FLOAT32, ST_FLOAT32, 4000, 1000, 0},
  };
  uint64_t rng = 99;
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    copy_case c;
    memset(&c, 0, sizeof c);
    c.dst_dtype = cases[k].dst;
    c.src_dtype = cases[k].src;
    const int64_t r = cases[k].rows, q = cases[k].cols;
    c.dl = row_major(2, DIMS(r, q), 3);
    c.sl = row_major(2, DIMS(q, r), 0);
    if (cases[k].transpose) {
      c.sl.sizes[0] = r, c.sl.sizes[1] = q, c.sl.strides[0] = 1, c.sl.strides[1] = r;
    } else {
      c.sl = row_major(2, DIMS(r, q), 0);
    }
    c.db = buffer_create(c.dst_dtype, r * q + 6, &rng);
    c.sb = buffer_create(c.src_dtype, r * q, &rng);
    if (c.dst_dtype != c.src_dtype) buffer_fill_small_ints(&c.sb, c.dst_dtype, &rng);
    for (int32_t flags = 0; flags <= 1; ++flags) check_plan(&c, flags, "large");
    copy_case_destroy(&c);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(same_dtype_plans_match_the_reference),
      cmocka_unit_test(converting_plans_match_the_reference),
      cmocka_unit_test(broadcasting_plans_match_the_reference),
      cmocka_unit_test(plans_of_overlapping_views_stage_as_st_copy_does),
      cmocka_unit_test(large_plans_match_the_reference),
      cmocka_unit_test(scaled_plans_match_st_copy_scaled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
