/* Memory a caller wraps must be what its device label says
 * (src/cuda/runtime/foreign_memory.h): a host pointer labelled cuda:0, or device
 * memory labelled cuda_host or cpu, is refused at wrap time with
 * ST_ERROR_INVALID_ARGUMENT, through st_tensor_from_data and DLPack import,
 * before any kernel could fault on it (which would poison the CUDA context
 * of the whole process). Device memory comes from a tensor stride made
 * (st_tensor_data_ptr), so this test needs no CUDA headers.
 *
 * Needs a GPU: without one (or in a build without CUDA) it prints why and
 * exits 77, which ctest reports as skipped. */
#include <stdio.h>
#include <stdlib.h>

#include "dlpack_producer.h"
#include "support.h"

static const st_device GPU0 = {ST_DEVICE_CUDA, 0};
static const st_device PINNED = {ST_DEVICE_CUDA_HOST, 0};

static void never_called(void* data, void* ctx) {
  (void)data;
  (void)ctx;
  fail();
}

static void host_memory_labelled_cuda_is_refused(void** state) {
  (void)state;
  static float host[32];
  const int64_t sizes[1] = {32};
  st_tensor t = {77};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT,
                st_tensor_from_data(host, sizes, NULL, 1, ST_FLOAT32, GPU0, never_called, NULL, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains("st_tensor_from_data: data = ");
  expect_message_contains("is host memory that CUDA does not know (device type cpu), not memory of device cuda:0");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT,
                st_tensor_from_data(host, sizes, NULL, 1, ST_FLOAT32, PINNED, never_called, NULL, &t));
  expect_message_contains("is not page-locked");
}

static void device_memory_is_wrapped_under_its_own_label_only(void** state) {
  (void)state;
  const int64_t sizes[1] = {64};
  st_tensor owner = {0}, wrapped = {0}, half = {0};
  EXPECT_OK(st_tensor_create(sizes, 1, ST_FLOAT32, GPU0, &owner));
  void* device_ptr = NULL;
  EXPECT_OK(st_tensor_data_ptr(owner, &device_ptr));
  EXPECT_OK(st_tensor_from_data(device_ptr, sizes, NULL, 1, ST_FLOAT32, GPU0, NULL, NULL, &wrapped));
  EXPECT_OK(st_fill(wrapped, 2.0));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT,
                st_tensor_from_data(device_ptr, sizes, NULL, 1, ST_FLOAT32, PINNED, never_called, NULL, &half));
  expect_message_contains("is memory of device cuda:0, not page-locked host memory");
  EXPECT_OK(st_tensor_release(wrapped));
  EXPECT_OK(st_tensor_release(owner));
  EXPECT_OK(st_cuda_synchronize(0));
}

/* Device memory labelled cpu would crash the first CPU kernel that reads it. */
static void device_memory_labelled_cpu_is_refused(void** state) {
  (void)state;
  const int64_t sizes[1] = {64};
  const st_device cpu = {ST_DEVICE_CPU, 0};
  st_tensor owner = {0}, t = {77};
  EXPECT_OK(st_tensor_create(sizes, 1, ST_FLOAT32, GPU0, &owner));
  void* device_ptr = NULL;
  EXPECT_OK(st_tensor_data_ptr(owner, &device_ptr));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT,
                st_tensor_from_data(device_ptr, sizes, NULL, 1, ST_FLOAT32, cpu, never_called, NULL, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains("is memory of device cuda:0, not host memory (device type cpu)");
  /* Through DLPack: a producer that labels device memory kDLCPU. */
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 32);
  p->classic.dl_tensor.data = device_ptr;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_from_dlpack(&p->classic, &t));
  expect_message_contains("st_from_dlpack: in->dl_tensor.data = ");
  expect_message_contains("not host memory (device type cpu)");
  assert_int_equal(producer_calls(p), 0);
  producer_free(p);
  /* A plan from the host to the device, given device memory as its host source. */
  st_tensor host_src = {0};
  st_copy_plan plan = {0};
  EXPECT_OK(st_tensor_create(sizes, 1, ST_FLOAT32, cpu, &host_src));
  EXPECT_OK(st_copy_plan_create(owner, host_src, NULL, ST_PLAN_ESTIMATE, &plan));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_copy_plan_execute_raw(plan, device_ptr, device_ptr, 0));
  expect_message_contains("src_data = ");
  expect_message_contains("not host memory (device type cpu)");
  EXPECT_OK(st_copy_plan_release(plan));
  EXPECT_OK(st_tensor_release(host_src));
  /* Host memory labelled cpu is still taken. */
  static float host[64];
  EXPECT_OK(st_tensor_from_data(host, sizes, NULL, 1, ST_FLOAT32, cpu, NULL, NULL, &t));
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(owner));
  EXPECT_OK(st_cuda_synchronize(0));
}

static void dlpack_import_of_host_memory_labelled_cuda_is_refused(void** state) {
  (void)state;
  const int64_t sizes[1] = {8};
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 64);
  p->classic.dl_tensor.device.device_type = kDLCUDA;
  st_tensor t = {77};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_from_dlpack(&p->classic, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains("st_from_dlpack: in->dl_tensor.data = ");
  expect_message_contains("not memory of device cuda:0");
  assert_int_equal(producer_calls(p), 0); /* refused: the producer keeps its tensor */
  producer_free(p);
}

int main(void) {
  (void)cuda_devices_or_skip();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(host_memory_labelled_cuda_is_refused),
      cmocka_unit_test(device_memory_is_wrapped_under_its_own_label_only),
      cmocka_unit_test(device_memory_labelled_cpu_is_refused),
      cmocka_unit_test(dlpack_import_of_host_memory_labelled_cuda_is_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
