/* st_copy_plan_create, st_copy_plan_execute, st_copy_plan_execute_raw,
 * st_copy_plan_release and st_live_plan_count: each success path against
 * hand-computed values, and each status each can return, with nothing
 * written on failure and nothing leaked. */
#include <stdlib.h>

#include "copy_support.h"
#include "dlpack_producer.h"
#include "portable.h"

static const st_copy_plan kNullPlan = {0};
static const st_copy_plan kForgedPlan = {GARBAGE_ID};

static int64_t live_plans(void) {
  int64_t n = -1;
  EXPECT_OK(st_live_plan_count(&n));
  return n;
}

/* A 4x4 float32 view of the transpose of a row-major iota: element (i, j) is 4j + i. */
static st_tensor transposed_iota_4x4(void) {
  st_tensor a = make_iota_f32(DIMS(4, 4), 2), t;
  EXPECT_OK(st_transpose(a, 0, 1, &t));
  EXPECT_OK(st_tensor_release(a));
  return t;
}

static void expect_transposed_iota(const float* got) {
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) assert_true(got[i * 4 + j] == (float)(4 * j + i));
}

static void transposed_4x4_plan_copies_by_execute_and_execute_raw(void** state) {
  (void)state;
  st_tensor src = transposed_iota_4x4(), dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_copy_plan plan = {GARBAGE_ID};
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  assert_true(plan.id != 0);
  assert_int_equal(live_plans(), 1);
  EXPECT_OK(st_zero(dst));
  EXPECT_OK(st_copy_plan_execute(plan, dst, src, 0));
  expect_transposed_iota((const float*)data_ptr(dst));

  /* Raw memory laid out as the plan's tensors: src is column-major here. */
  float raw_src[16], raw_dst[16];
  for (int k = 0; k < 16; ++k) raw_src[k] = (float)(100 + k), raw_dst[k] = -1.0f;
  EXPECT_OK(st_copy_plan_execute_raw(plan, raw_dst, raw_src, 1));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) assert_true(raw_dst[i * 4 + j] == (float)(100 + 4 * j + i));
  EXPECT_OK(st_copy_plan_release(plan));
  assert_int_equal(live_plans(), 0);
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

static void a_plan_outlives_its_tensors_and_runs_on_new_ones(void** state) {
  (void)state;
  st_tensor src = transposed_iota_4x4(), dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  st_tensor src2 = transposed_iota_4x4(), dst2 = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  EXPECT_OK(st_copy_plan_execute(plan, dst2, src2, 0));
  expect_transposed_iota((const float*)data_ptr(dst2));
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(dst2));
  EXPECT_OK(st_tensor_release(src2));
}

/* A storage offset other than the plan's tensors' is fine: only sizes,
 * strides, dtypes and devices must match. */
static void execute_accepts_another_storage_offset(void** state) {
  (void)state;
  st_tensor big = make_iota_f32(DIMS(2, 4, 4), 3), src0, src1, dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  EXPECT_OK(st_select(big, 0, 0, &src0));
  EXPECT_OK(st_select(big, 0, 1, &src1));
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src0, NULL, ST_PLAN_ESTIMATE, &plan));
  EXPECT_OK(st_copy_plan_execute(plan, dst, src1, 0));
  const float* d = (const float*)data_ptr(dst);
  for (int k = 0; k < 16; ++k) assert_true(d[k] == (float)(16 + k));
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(src0));
  EXPECT_OK(st_tensor_release(src1));
  EXPECT_OK(st_tensor_release(big));
  EXPECT_OK(st_tensor_release(dst));
}

/* uint8 row (3) broadcast and converted into every row of a float32 (2, 3). */
static void a_broadcasting_converting_plan_copies(void** state) {
  (void)state;
  uint8_t row[3] = {7, 200, 255};
  st_tensor src, dst = make_tensor(DIMS(2, 3), 2, ST_FLOAT32);
  EXPECT_OK(st_tensor_from_data(row, DIMS(3), NULL, 1, ST_UINT8, CPU, NULL, NULL, &src));
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_MEASURE, &plan));
  const float* d = (const float*)data_ptr(dst);
  for (int k = 0; k < 6; ++k) assert_true(d[k] == (float)row[k % 3]); /* MEASURE leaves the result */
  row[0] = 1;
  EXPECT_OK(st_copy_plan_execute(plan, dst, src, 0));
  assert_true(d[0] == 1.0f && d[3] == 1.0f && d[5] == 255.0f);
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void plans_of_empty_tensors_copy_nothing(void** state) {
  (void)state;
  st_tensor src = make_tensor(DIMS(0, 3), 2, ST_FLOAT32), dst = make_tensor(DIMS(0, 3), 2, ST_INT8);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_MEASURE, &plan));
  EXPECT_OK(st_copy_plan_execute(plan, dst, src, 0));
  char byte = 5;
  EXPECT_OK(st_copy_plan_execute_raw(plan, &byte, &byte, 0));
  assert_int_equal(byte, 5);
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

/* dst = elements 0..7 of a buffer, src = elements 1..8 of it: st_copy's
 * staging gives src as it was (1..8), not a smear of element 1. The very
 * same tensor as dst and src copies nothing. */
static void overlapping_operands_give_st_copy_results(void** state) {
  (void)state;
  st_tensor whole = make_iota_f32(DIMS(9), 1), dst, src;
  EXPECT_OK(st_slice(whole, 0, 0, 8, 1, &dst));
  EXPECT_OK(st_slice(whole, 0, 1, 9, 1, &src));
  st_copy_plan plan, self;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_MEASURE, &plan));
  const float* w = (const float*)data_ptr(whole);
  for (int k = 0; k < 8; ++k) assert_true(w[k] == (float)(k + 1));
  float raw[9];
  for (int k = 0; k < 9; ++k) raw[k] = (float)(10 * k);
  EXPECT_OK(st_copy_plan_execute_raw(plan, raw, raw + 1, 0));
  for (int k = 0; k < 8; ++k) assert_true(raw[k] == (float)(10 * (k + 1)));
  /* Backwards: dst = 1..8, src = 0..7. */
  for (int k = 0; k < 9; ++k) raw[k] = (float)(10 * k);
  EXPECT_OK(st_copy_plan_execute_raw(plan, raw + 1, raw, 0));
  for (int k = 1; k < 9; ++k) assert_true(raw[k] == (float)(10 * (k - 1)));
  EXPECT_OK(st_copy_plan_create(dst, dst, NULL, ST_PLAN_ESTIMATE, &self));
  EXPECT_OK(st_copy_plan_execute(self, dst, dst, 0));
  EXPECT_OK(st_copy_plan_execute_raw(self, raw, raw, 0));
  assert_true(raw[0] == 0.0f && raw[8] == 70.0f);
  EXPECT_OK(st_copy_plan_release(self));
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(whole));
}

/* uint8 HWC (2, 2, 3) viewed as CHW into float32 CHW with one scale and
 * shift per channel: dst[c][y][x] = src[y][x][c] * scale[c] + shift[c],
 * exact in float32 for these values; the same as st_copy_scaled. The
 * arrays are changed after the plan is made: it keeps its own copy. */
static void a_scaled_plan_normalizes_per_channel(void** state) {
  (void)state;
  uint8_t hwc[12];
  for (int k = 0; k < 12; ++k) hwc[k] = (uint8_t)(k * 3);
  st_tensor wrap, src, dst = make_tensor(DIMS(3, 2, 2), 3, ST_FLOAT32), ref = make_tensor(DIMS(3, 2, 2), 3, ST_FLOAT32);
  EXPECT_OK(st_tensor_from_data(hwc, DIMS(2, 2, 3), NULL, 3, ST_UINT8, CPU, NULL, NULL, &wrap));
  EXPECT_OK(st_permute(wrap, (const int32_t[]){2, 0, 1}, 3, &src));
  double scale[3] = {0.5, 2.0, -1.0}, shift[3] = {1.0, 0.0, 100.0};
  const double scale0[3] = {0.5, 2.0, -1.0}, shift0[3] = {1.0, 0.0, 100.0};
  st_scale_shift ss = {scale, shift, 3, 0, 0};
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, &ss, ST_PLAN_MEASURE, &plan));
  for (int c = 0; c < 3; ++c) scale[c] = 9.0, shift[c] = 9.0;
  const float* d = (const float*)data_ptr(dst);
  for (int c = 0; c < 3; ++c)
    for (int p = 0; p < 4; ++p) assert_true(d[c * 4 + p] == (float)(hwc[p * 3 + c] * scale0[c] + shift0[c]));
  EXPECT_OK(st_zero(dst));
  EXPECT_OK(st_copy_plan_execute(plan, dst, src, 0));
  for (int c = 0; c < 3; ++c)
    for (int p = 0; p < 4; ++p) assert_true(d[c * 4 + p] == (float)(hwc[p * 3 + c] * scale0[c] + shift0[c]));
  /* Another frame through execute_raw, against st_copy_scaled. */
  uint8_t frame[12];
  for (int k = 0; k < 12; ++k) frame[k] = (uint8_t)(250 - k * 7);
  float out[12];
  EXPECT_OK(st_copy_plan_execute_raw(plan, out, frame, 0));
  st_tensor fwrap, fsrc;
  EXPECT_OK(st_tensor_from_data(frame, DIMS(2, 2, 3), NULL, 3, ST_UINT8, CPU, NULL, NULL, &fwrap));
  EXPECT_OK(st_permute(fwrap, (const int32_t[]){2, 0, 1}, 3, &fsrc));
  const st_scale_shift ss0 = {scale0, shift0, 3, 0, 0};
  EXPECT_OK(st_copy_scaled(ref, fsrc, &ss0, 0));
  assert_memory_equal(out, data_ptr(ref), sizeof out);
  EXPECT_OK(st_copy_plan_release(plan));
  st_tensor ts[] = {wrap, src, dst, ref, fwrap, fsrc};
  for (size_t k = 0; k < sizeof ts / sizeof ts[0]; ++k) EXPECT_OK(st_tensor_release(ts[k]));
}

/* ---- st_copy_plan_create's statuses -------------------------------------- */

static st_tensor import_read_only(producer** out) {
  producer* p = producer_new(2, DIMS(4, 4), NULL, kDLFloat, 32);
  p->versioned.flags = ST_DLPACK_FLAG_READ_ONLY;
  st_tensor t;
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
  *out = p;
  return t;
}

static void create_refuses_bad_arguments_and_writes_the_null_plan(void** state) {
  (void)state;
  st_tensor src = transposed_iota_4x4(), dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_tensor small = make_tensor(DIMS(3), 1, ST_FLOAT32), expanded, dead = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  EXPECT_OK(st_expand(small, DIMS(4, 3), 2, &expanded));
  EXPECT_OK(st_tensor_release(dead));
  st_copy_plan plan;

  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, NULL));
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_create(dst, src, NULL, 2, &plan));
  expect_message_contains("flags");
  assert_true(plan.id == 0);
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_create(dst, src, NULL, -1, &plan));
  assert_true(plan.id == 0);
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_create(dead, src, NULL, ST_PLAN_ESTIMATE, &plan));
  assert_true(plan.id == 0);
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_create(dst, dead, NULL, ST_PLAN_ESTIMATE, &plan));
  assert_true(plan.id == 0);
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy_plan_create(small, src, NULL, ST_PLAN_ESTIMATE, &plan));
  assert_true(plan.id == 0);
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_copy_plan_create(expanded, small, NULL, ST_PLAN_MEASURE, &plan));
  assert_true(plan.id == 0);

  producer* p;
  st_tensor read_only = import_read_only(&p);
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_copy_plan_create(read_only, src, NULL, ST_PLAN_MEASURE, &plan));
  assert_true(plan.id == 0);
  const float* ro = (const float*)p->buffer;
  for (int k = 0; k < 16; ++k) assert_true(ro[k] == 0.0f);

  const double scale = 2.0;
  st_scale_shift ss = {&scale, NULL, 1, 0, 2}; /* saturate must be 0 or 1 */
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_create(dst, src, &ss, ST_PLAN_ESTIMATE, &plan));
  expect_message_contains("saturate");
  assert_true(plan.id == 0);
  st_tensor complex_dst = make_tensor(DIMS(4, 4), 2, ST_COMPLEX64);
  ss.saturate = 0;
  plan.id = GARBAGE_ID;
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy_plan_create(complex_dst, src, &ss, ST_PLAN_ESTIMATE, &plan));
  assert_true(plan.id == 0);
  EXPECT_OK(st_tensor_release(complex_dst));
  assert_int_equal(live_plans(), 0);

  EXPECT_OK(st_tensor_release(read_only));
  producer_free(p);
  EXPECT_OK(st_tensor_release(expanded));
  EXPECT_OK(st_tensor_release(small));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

/* MEASURE on operands that share memory copies through st_copy's
 * temporary; when it cannot be allocated, nothing is written. */
static void create_reports_out_of_memory_and_writes_nothing(void** state) {
  (void)state;
  st_tensor whole = make_iota_f32(DIMS(4097), 1), dst, src;
  EXPECT_OK(st_slice(whole, 0, 0, 4096, 1, &dst));
  EXPECT_OK(st_slice(whole, 0, 1, 4097, 1, &src));
  counting_allocator c;
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  st_copy_plan plan = {GARBAGE_ID};
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy_plan_create(dst, src, NULL, ST_PLAN_MEASURE, &plan));
  assert_true(plan.id == 0);
  assert_int_equal(live_plans(), 0);
  const float* w = (const float*)data_ptr(whole);
  for (int k = 0; k < 4097; ++k) assert_true(w[k] == (float)k);

  /* The same for both executes of an ESTIMATE plan. */
  atomic_store(&c.fail, 0);
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  atomic_store(&c.fail, 1);
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy_plan_execute(plan, dst, src, 0));
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy_plan_execute_raw(plan, data_ptr(dst), data_ptr(src), 0));
  for (int k = 0; k < 4097; ++k) assert_true(w[k] == (float)k);
  atomic_store(&c.fail, 0);
  EXPECT_OK(st_copy_plan_execute_raw(plan, data_ptr(dst), data_ptr(src), 0));
  for (int k = 0; k < 4096; ++k) assert_true(w[k] == (float)(k + 1));
  EXPECT_OK(st_copy_plan_release(plan));
  restore_default_allocator(NULL);
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(whole));
}

/* ---- st_copy_plan_execute's and execute_raw's statuses ------------------- */

static void expect_all(const float* p, float v) {
  for (int k = 0; k < 16; ++k) assert_true(p[k] == v);
}

static void execute_refuses_dead_plans_and_handles(void** state) {
  (void)state;
  st_tensor src = transposed_iota_4x4(), dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_tensor dead = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(dead));
  EXPECT_OK(st_fill(dst, -1.0));
  const float* d = (const float*)data_ptr(dst);
  st_copy_plan plan, released;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &released));
  EXPECT_OK(st_copy_plan_release(released));
  const st_copy_plan forged_generation = {plan.id + (1ull << 32)};

  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute(kNullPlan, dst, src, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute(kForgedPlan, dst, src, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute(released, dst, src, 0));
  expect_message_contains("plan");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute(forged_generation, dst, src, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute(plan, dead, src, 0));
  expect_message_contains("dst");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute(plan, dst, dead, 0));
  expect_message_contains("src");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute_raw(kNullPlan, data_ptr(dst), data_ptr(src), 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute_raw(kForgedPlan, data_ptr(dst), data_ptr(src), 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute_raw(released, data_ptr(dst), data_ptr(src), 0));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute_raw(plan, NULL, data_ptr(src), 0));
  expect_message_contains("dst_data");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute_raw(plan, data_ptr(dst), NULL, 0));
  expect_message_contains("src_data");
  expect_all(d, -1.0f);
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

static void execute_names_the_first_field_that_differs(void** state) {
  (void)state;
  st_tensor src = transposed_iota_4x4(), dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_tensor contiguous_src = make_iota_f32(DIMS(4, 4), 2), int_dst = make_tensor(DIMS(4, 4), 2, ST_INT32);
  st_tensor wide_dst = make_tensor(DIMS(4, 5), 2, ST_FLOAT32), narrow;
  EXPECT_OK(st_slice(wide_dst, 1, 0, 4, 1, &narrow)); /* sizes (4, 4), strides (5, 1) */
  st_tensor small_dst = make_tensor(DIMS(2, 4), 2, ST_FLOAT32), f64 = make_tensor(DIMS(4, 4), 2, ST_FLOAT64);
  st_tensor wrong_dtype_src;
  EXPECT_OK(st_transpose(f64, 0, 1, &wrong_dtype_src)); /* the plan's sizes and strides, float64 */
  EXPECT_OK(st_fill(dst, -1.0));
  const float* d = (const float*)data_ptr(dst);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));

  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, small_dst, src, 0));
  expect_message_contains("dst has sizes (2, 4)");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, narrow, src, 0));
  expect_message_contains("dst has strides (5, 1)");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, int_dst, src, 0));
  expect_message_contains("dst has dtype int32");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, dst, contiguous_src, 0));
  expect_message_contains("src has strides (4, 1)");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, dst, wrong_dtype_src, 0));
  expect_message_contains("src has dtype float64");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, small_dst, wrong_dtype_src, 0));
  expect_message_contains("dst"); /* dst is compared before src */
  expect_all(d, -1.0f);
  EXPECT_OK(st_copy_plan_release(plan));
  st_tensor ts[] = {src, dst, contiguous_src, int_dst, wide_dst, narrow, small_dst, f64, wrong_dtype_src};
  for (size_t k = 0; k < sizeof ts / sizeof ts[0]; ++k) EXPECT_OK(st_tensor_release(ts[k]));
}

static void execute_refuses_a_read_only_dst(void** state) {
  (void)state;
  st_tensor src = make_iota_f32(DIMS(4, 4), 2), dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  producer* p;
  st_tensor read_only = import_read_only(&p);
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_copy_plan_execute(plan, read_only, src, 0));
  const float* ro = (const float*)p->buffer;
  for (int k = 0; k < 16; ++k) assert_true(ro[k] == 0.0f);
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(read_only));
  producer_free(p);
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

/* ---- st_copy_plan_release and st_live_plan_count ------------------------- */

static void release_refuses_null_forged_and_released_plans(void** state) {
  (void)state;
  st_tensor src = transposed_iota_4x4(), dst = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_copy_plan a, b;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &a));
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &b));
  assert_true(a.id != b.id);
  assert_int_equal(live_plans(), 2);
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_release(kNullPlan));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_release(kForgedPlan));
  EXPECT_OK(st_copy_plan_release(a));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_release(a));
  expect_message_contains("not a live copy plan");
  assert_int_equal(live_plans(), 1);
  /* A new plan may reuse a's slot; a's id stays dead. */
  st_copy_plan c;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &c));
  assert_true(c.id != a.id);
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute(a, dst, src, 0));
  EXPECT_OK(st_copy_plan_execute(c, dst, src, 0));
  EXPECT_OK(st_copy_plan_release(c));
  EXPECT_OK(st_copy_plan_release(b));
  assert_int_equal(live_plans(), 0);
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

static void live_plan_count_refuses_null(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_live_plan_count(NULL));
}

/* ---- Plan calls from inside a plan call ------------------------------------ */

/* An allocator that, on its first call, executes another plan and releases
 * the plan whose execute is allocating (its staging temporary). */
typedef struct nested_calls {
  st_copy_plan inner, outer;
  float inner_src[4], inner_dst[4];
  int calls;
  st_status inner_status, release_status;
} nested_calls;

static void* nested_alloc(void* ctx, size_t nbytes, size_t alignment) {
  nested_calls* n = (nested_calls*)ctx;
  if (n->calls++ == 0) {
    n->inner_status = st_copy_plan_execute_raw(n->inner, n->inner_dst, n->inner_src, 0);
    n->release_status = st_copy_plan_release(n->outer);
  }
  return test_aligned_alloc(alignment, nbytes);
}

static void nested_free(void* ctx, void* ptr, size_t nbytes) {
  (void)ctx;
  (void)nbytes;
  test_aligned_free(ptr);
}

/* The outer plan is this thread's last (its lease) when its execute
 * stages: the nested execute of another plan and the release of the outer
 * one, from the allocator, must neither disturb the outer copy nor free
 * the plan under it. */
static void plan_calls_from_an_allocator_inside_an_execute(void** state) {
  (void)state;
  st_tensor whole = make_iota_f32(DIMS(4097), 1), dst, src;
  EXPECT_OK(st_slice(whole, 0, 0, 4096, 1, &dst));
  EXPECT_OK(st_slice(whole, 0, 1, 4097, 1, &src));
  st_tensor a = make_tensor(DIMS(4), 1, ST_FLOAT32), b = make_tensor(DIMS(4), 1, ST_FLOAT32);
  nested_calls n;
  memset(&n, 0, sizeof n);
  for (int k = 0; k < 4; ++k) n.inner_src[k] = (float)(k + 1);
  EXPECT_OK(st_copy_plan_create(a, b, NULL, ST_PLAN_ESTIMATE, &n.inner));
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &n.outer));
  static float x[4096], y[4096]; /* laid out as the outer plan's dst and src */
  EXPECT_OK(st_copy_plan_execute_raw(n.outer, x, y, 0)); /* no overlap: no allocation; takes the lease */
  EXPECT_OK(st_copy_plan_execute_raw(n.outer, x, y, 0));

  st_allocator alloc = {nested_alloc, nested_free, &n};
  EXPECT_OK(st_set_cpu_allocator(&alloc));
  EXPECT_OK(st_copy_plan_execute(n.outer, dst, src, 0)); /* stages: allocates */
  EXPECT_OK(st_set_cpu_allocator(NULL));
  assert_true(n.calls >= 1);
  assert_int_equal(n.inner_status, ST_OK);
  assert_int_equal(n.release_status, ST_OK);
  for (int k = 0; k < 4; ++k) assert_true(n.inner_dst[k] == (float)(k + 1));
  const float* w = (const float*)data_ptr(whole);
  for (int k = 0; k < 4096; ++k) assert_true(w[k] == (float)(k + 1));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_execute_raw(n.outer, x, y, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy_plan_release(n.outer));
  EXPECT_OK(st_copy_plan_release(n.inner));
  assert_int_equal(live_plans(), 0);
  st_tensor ts[] = {whole, dst, src, a, b};
  for (size_t k = 0; k < sizeof ts / sizeof ts[0]; ++k) EXPECT_OK(st_tensor_release(ts[k]));
}

/* ---- Tracing and the table ------------------------------------------------- */

typedef struct trace_log {
  int calls;
  char names[8][32];
} trace_log;

static void record(void* ctx, const char* op_name, int64_t duration_ns) {
  trace_log* log = (trace_log*)ctx;
  assert_true(duration_ns >= 0);
  if (log->calls < 8) snprintf(log->names[log->calls], sizeof log->names[0], "%s", op_name);
  log->calls++;
}

static void an_execute_is_traced_as_one_call(void** state) {
  (void)state;
  st_tensor whole = make_iota_f32(DIMS(9), 1), dst, src;
  EXPECT_OK(st_slice(whole, 0, 0, 8, 1, &dst));
  EXPECT_OK(st_slice(whole, 0, 1, 9, 1, &src));
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  trace_log log = {0};
  EXPECT_OK(st_set_trace_callback(record, &log));
  EXPECT_OK(st_copy_plan_execute(plan, dst, src, 0)); /* staged through copy_: still one call */
  EXPECT_OK(st_copy_plan_execute_raw(plan, data_ptr(dst), data_ptr(src), 0));
  EXPECT_OK(st_set_trace_callback(NULL, NULL));
  assert_int_equal(log.calls, 2);
  assert_string_equal(log.names[0], "copy_plan_execute");
  assert_string_equal(log.names[1], "copy_plan_execute");
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(whole));
}

static void the_api_table_holds_the_plan_calls(void** state) {
  (void)state;
  const st_api* api = st_get_api(ST_API_VERSION);
  assert_non_null(api);
  assert_ptr_equal(api->copy_plan_create, st_copy_plan_create);
  assert_ptr_equal(api->copy_plan_execute, st_copy_plan_execute);
  assert_ptr_equal(api->copy_plan_execute_raw, st_copy_plan_execute_raw);
  assert_ptr_equal(api->copy_plan_release, st_copy_plan_release);
  assert_ptr_equal(api->live_plan_count, st_live_plan_count);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(transposed_4x4_plan_copies_by_execute_and_execute_raw),
      cmocka_unit_test(a_plan_outlives_its_tensors_and_runs_on_new_ones),
      cmocka_unit_test(execute_accepts_another_storage_offset),
      cmocka_unit_test(a_broadcasting_converting_plan_copies),
      cmocka_unit_test(plans_of_empty_tensors_copy_nothing),
      cmocka_unit_test(overlapping_operands_give_st_copy_results),
      cmocka_unit_test(a_scaled_plan_normalizes_per_channel),
      cmocka_unit_test(create_refuses_bad_arguments_and_writes_the_null_plan),
      cmocka_unit_test(create_reports_out_of_memory_and_writes_nothing),
      cmocka_unit_test(execute_refuses_dead_plans_and_handles),
      cmocka_unit_test(execute_names_the_first_field_that_differs),
      cmocka_unit_test(execute_refuses_a_read_only_dst),
      cmocka_unit_test(release_refuses_null_forged_and_released_plans),
      cmocka_unit_test(live_plan_count_refuses_null),
      cmocka_unit_test(plan_calls_from_an_allocator_inside_an_execute),
      cmocka_unit_test(an_execute_is_traced_as_one_call),
      cmocka_unit_test(the_api_table_holds_the_plan_calls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
