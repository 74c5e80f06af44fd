/* Copy plans of CUDA operands: within a device, host to device and back,
 * through execute and execute_raw (device addresses from
 * st_tensor_data_ptr), ESTIMATE and MEASURE, over the random layouts of
 * copy_support.c; each result is read back to the host and compared with
 * the reference copy. A plan whose operands are on the device refuses
 * tensors on another device, naming the field.
 *
 * Needs a GPU: without one (or in a build without CUDA) it prints why and
 * exits 77, which ctest reports as skipped. */
#include <stdlib.h>

#include "copy_support.h"

#define CASES 200

static const st_device GPU0 = {ST_DEVICE_CUDA, 0};

/* A device tensor laid out as `l` over a device copy of buffer `b`. */
static st_tensor device_view(const buffer* b, const layout* l, st_tensor* whole) {
  EXPECT_OK(st_tensor_create(DIMS(b->numel), 1, b->dtype, GPU0, whole));
  EXPECT_OK(st_copy(*whole, b->whole, 0));
  st_tensor v;
  EXPECT_OK(st_as_strided(*whole, l->sizes, l->strides, l->ndim, l->offset, &v));
  return v;
}

static void read_back(st_tensor device_whole, const buffer* b) { EXPECT_OK(st_copy(b->whole, device_whole, 0)); }

static void check_case(const copy_case* cc, int index, const char* what) {
  const copy_case* c = cc;
  const size_t dbytes = (size_t)c->db.numel * c->db.itemsize;
  unsigned char* want = malloc(dbytes);
  unsigned char* before = malloc(dbytes);
  assert_true(want && before);
  memcpy(want, c->db.bytes, dbytes);
  memcpy(before, c->db.bytes, dbytes);
  reference_copy(want, c->dst_dtype, &c->dl, c->sb.bytes, c->src_dtype, &c->sl);

  /* dst on the device; src on the device for even cases, on the host for odd ones. */
  st_tensor dwhole, swhole = {0};
  st_tensor dst = device_view(&c->db, &c->dl, &dwhole);
  st_tensor src = index % 2 ? buffer_view(&c->sb, &c->sl) : device_view(&c->sb, &c->sl, &swhole);
  st_copy_plan plan;
  st_status s = st_copy_plan_create(dst, src, NULL, index % 4 < 2 ? ST_PLAN_ESTIMATE : ST_PLAN_MEASURE, &plan);
  if (s != ST_OK) {
    print_error("%s: st_copy_plan_create returned %s: %s\n", what, st_status_name(s), st_last_error_message());
    fail();
  }
  s = st_copy_plan_execute(plan, dst, src, index % 3 == 0);
  if (s != ST_OK) {
    print_error("%s: st_copy_plan_execute returned %s: %s\n", what, st_status_name(s), st_last_error_message());
    fail();
  }
  read_back(dwhole, &c->db);
  expect_same_bytes(c->db.bytes, want, dbytes, c->db.itemsize, what);

  /* Again through execute_raw, into a cleared device buffer. */
  memcpy(c->db.bytes, before, dbytes);
  EXPECT_OK(st_copy(dwhole, c->db.whole, 0));
  EXPECT_OK(st_copy_plan_execute_raw(plan, data_ptr(dst), data_ptr(src), 0));
  read_back(dwhole, &c->db);
  expect_same_bytes(c->db.bytes, want, dbytes, c->db.itemsize, what);

  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dwhole));
  if (swhole.id) EXPECT_OK(st_tensor_release(swhole));
  memcpy(c->db.bytes, before, dbytes);
  free(want);
  free(before);
}

static void device_plans_match_the_reference(void** state) {
  (void)state;
  run_random_copy_cases("device_plans", 20261128ull, CASES, 0, ANY_SOURCE, check_case);
  run_random_copy_cases("converting_device_plans", 20261129ull, CASES, 1, ANY_SOURCE, check_case);
  EXPECT_OK(st_cuda_synchronize(0));
}

static void a_device_plan_refuses_host_tensors(void** state) {
  (void)state;
  st_tensor dst, src;
  EXPECT_OK(st_tensor_create(DIMS(4, 4), 2, ST_FLOAT32, GPU0, &dst));
  EXPECT_OK(st_tensor_create(DIMS(4, 4), 2, ST_FLOAT32, GPU0, &src));
  st_tensor host = make_tensor(DIMS(4, 4), 2, ST_FLOAT32);
  st_copy_plan plan;
  EXPECT_OK(st_copy_plan_create(dst, src, NULL, ST_PLAN_ESTIMATE, &plan));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute(plan, host, src, 0));
  expect_message_contains("dst is on device cpu:0; the plan was made for cuda:0");
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(host));
  EXPECT_OK(st_tensor_release(dst));
  EXPECT_OK(st_tensor_release(src));
}

int main(void) {
  cuda_devices_or_skip();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_plans_match_the_reference),
      cmocka_unit_test(a_device_plan_refuses_host_tensors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
