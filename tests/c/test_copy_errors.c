/* Every error status st_copy, st_contiguous, st_clone, st_to, st_fill,
 * st_zero and st_reshape can return here (a CPU-only machine), with `out`
 * reset to {0} and no tensor data changed. Not reachable through the C API
 * today, and so not tested here: ST_ERROR_READ_ONLY (only DLPack imports
 * are read-only) and DEVICE_UNAVAILABLE for an operand that already lives
 * on a CUDA device (none can be made without one). */
#include <stdlib.h>

#include "copy_support.h"

#define CUDA(i) ((st_device){ST_DEVICE_CUDA, (i)})

/* Runs `call_with_out` (which writes `out`) expecting `want`, and checks
 * that out came back as the null handle. */
#define EXPECT_FAILS(want, call_with_out) \
  do {                                    \
    out.id = GARBAGE_ID;                  \
    EXPECT_STATUS((want), call_with_out); \
    expect_null_handle(out);              \
  } while (0)

static void release_all(st_tensor* ts, int n) {
  for (int i = 0; i < n; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

/* A handle that was live once and is released now. */
static st_tensor stale_handle(void) {
  st_tensor t = make_tensor(DIMS(2), 1, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(t));
  return t;
}

static const st_tensor never_issued = {0x00ff00ff00ff00ffull};

static int32_t device_count(void) {
  int32_t n = -1;
  EXPECT_OK(st_cuda_device_count(&n));
  return n;
}

/* ---- st_copy -------------------------------------------------------------------- */

static void copy_of_a_src_that_does_not_broadcast_is_shape_mismatch_naming_both_shapes(void** state) {
  (void)state;
  st_tensor dst = make_iota_f32(DIMS(2, 3), 2), src = make_iota_f32(DIMS(4), 1), col = make_iota_f32(DIMS(3, 1), 2);
  float before[6];
  memcpy(before, data_ptr(dst), sizeof before);
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(dst, src, 0));
  expect_message_contains("st_copy: src of sizes (4) cannot be broadcast to dst of sizes (2, 3)");
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(dst, col, 0));
  expect_message_contains("(3, 1)");
  expect_message_contains("(2, 3)");
  assert_memory_equal(data_ptr(dst), before, sizeof before);
  st_tensor ts[] = {dst, src, col};
  release_all(ts, 3);
}

static void copy_of_a_src_with_more_dims_than_dst_is_shape_mismatch_even_of_size_one(void** state) {
  (void)state;
  st_tensor dst = make_iota_f32(DIMS(3), 1), src = make_iota_f32(DIMS(1, 3), 2);
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(dst, src, 0));
  expect_message_contains("src of sizes (1, 3) has more dims than dst of sizes (3)");
  /* the reverse is a broadcast, and fine */
  EXPECT_OK(st_copy(src, dst, 0));
  st_tensor ts[] = {dst, src};
  release_all(ts, 2);
}

static void copy_into_an_empty_dst_checks_the_shapes_and_writes_nothing(void** state) {
  (void)state;
  st_tensor dst = make_tensor(DIMS(0, 3), 2, ST_FLOAT32), row = make_iota_f32(DIMS(3), 1),
            bad = make_iota_f32(DIMS(2), 1);
  EXPECT_OK(st_copy(dst, row, 0));
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(dst, bad, 0));
  st_tensor ts[] = {dst, row, bad};
  release_all(ts, 3);
}

static void copy_with_a_dead_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor live = make_iota_f32(DIMS(2), 1), stale = stale_handle(), null = {0};
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy(stale, live, 0));
  expect_message_contains("st_copy: dst = {0x");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy(live, stale, 0));
  expect_message_contains("st_copy: src = {0x");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy(null, live, 0));
  expect_message_contains("dst is the null handle");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy(live, never_issued, 0));
  EXPECT_OK(st_tensor_release(live));
}

static void copy_whose_temporary_cannot_be_allocated_is_out_of_memory_and_writes_nothing(void** state) {
  (void)state;
  counting_allocator c;
  float mem[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  st_tensor a = {0}, at = {0};
  EXPECT_OK(st_tensor_from_data(mem, DIMS(3, 3), NULL, 2, ST_FLOAT32, CPU, NULL, NULL, &a));
  EXPECT_OK(st_transpose(a, 0, 1, &at));
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy(a, at, 0)); /* src and dst share memory: staged */
  assert_true(atomic_load(&c.refused) >= 1);
  for (int i = 0; i < 9; ++i) assert_true(mem[i] == (float)i);
  EXPECT_OK(st_set_cpu_allocator(NULL));
  EXPECT_OK(st_copy(a, at, 0));
  assert_true(mem[1] == 3.0f && mem[3] == 1.0f);
  st_tensor ts[] = {a, at};
  release_all(ts, 2);
}

/* ---- st_contiguous --------------------------------------------------------------- */

static void contiguous_argument_errors(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), xt = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 2, &xt));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(x, ST_MEMORY_FORMAT_CONTIGUOUS, NULL));
  expect_message_contains("st_contiguous: out is NULL");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(x, (st_memory_format)4, &out));
  expect_message_contains("fmt = 4 is not an st_memory_format");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(x, (st_memory_format)-1, &out));
  /* PRESERVE, as in PyTorch, even for a source that is contiguous */
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(x, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_message_contains("preserve");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(xt, ST_MEMORY_FORMAT_PRESERVE, &out));
  st_tensor ts[] = {x, xt};
  release_all(ts, 2);
}

static void contiguous_in_a_format_that_does_not_fit_the_rank_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x3 = make_iota_f32(DIMS(2, 3, 4), 3), x3t = {0}, x4 = make_iota_f32(DIMS(1, 2, 3, 4), 4), out = {0};
  EXPECT_OK(st_transpose(x3, 0, 2, &x3t));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(x3, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  expect_message_contains("st_contiguous: fmt = channels_last needs 4 dims, the tensor has 3");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(x3t, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_contiguous(x4, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, &out));
  expect_message_contains("channels_last_3d needs 5 dims");
  st_tensor ts[] = {x3, x3t, x4};
  release_all(ts, 3);
}

static void contiguous_with_a_dead_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor out = {0}, null = {0};
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_contiguous(stale_handle(), ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  expect_message_contains("st_contiguous: src = {0x");
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_contiguous(null, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_contiguous(never_issued, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
}

static void contiguous_that_cannot_allocate_is_out_of_memory(void** state) {
  (void)state;
  counting_allocator c;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), xt = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  EXPECT_FAILS(ST_ERROR_OUT_OF_MEMORY, st_contiguous(xt, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  /* a source that needs no copy needs no memory */
  EXPECT_OK(st_contiguous(x, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  assert_true(out.id == x.id);
  EXPECT_OK(st_set_cpu_allocator(NULL));
  st_tensor ts[] = {x, xt, out};
  release_all(ts, 3);
}

/* ---- st_clone ---------------------------------------------------------------------- */

static void clone_argument_errors(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3, 4), 3), out = {0};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_clone(x, ST_MEMORY_FORMAT_PRESERVE, NULL));
  expect_message_contains("st_clone: out is NULL");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_clone(x, (st_memory_format)17, &out));
  expect_message_contains("st_clone: fmt = 17 is not an st_memory_format");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_clone(x, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  expect_message_contains("channels_last needs 4 dims");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_clone(x, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void clone_with_a_dead_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor out = {0}, null = {0};
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_clone(stale_handle(), ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_message_contains("st_clone: src = {0x");
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_clone(null, ST_MEMORY_FORMAT_PRESERVE, &out));
}

static void clone_that_cannot_allocate_is_out_of_memory(void** state) {
  (void)state;
  counting_allocator c;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), out = {0};
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  EXPECT_FAILS(ST_ERROR_OUT_OF_MEMORY, st_clone(x, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  EXPECT_OK(st_set_cpu_allocator(NULL));
  EXPECT_OK(st_tensor_release(x));
}

/* ---- st_to ---------------------------------------------------------------------------- */

static void to_argument_errors(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), out = {0};
  const st_memory_format c = ST_MEMORY_FORMAT_CONTIGUOUS;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_FLOAT64, CPU, c, NULL));
  expect_message_contains("st_to: out is NULL");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, (st_dtype)21, CPU, c, &out));
  expect_message_contains("st_to: dtype = 21 is not an st_dtype");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, (st_dtype)-1, CPU, c, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_FLOAT32, ((st_device){0, 0}), c, &out));
  expect_message_contains("device.type = 0 is not an st_device_type");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_FLOAT32, ((st_device){4, 0}), c, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_FLOAT32, ((st_device){ST_DEVICE_CPU, 1}), c, &out));
  expect_message_contains("the CPU device has index 0");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_FLOAT32, CUDA(-1), c, &out));
  expect_message_contains("device.index = -1 is negative");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_FLOAT32, CPU, (st_memory_format)9, &out));
  expect_message_contains("fmt = 9 is not an st_memory_format");
  /* a format that does not fit the rank, even when nothing else would change */
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_CHANNELS_LAST, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_to(x, ST_INT8, CPU, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, &out));
  EXPECT_OK(st_tensor_release(x));
}

static void to_with_a_dead_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor out = {0}, null = {0};
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_to(stale_handle(), ST_FLOAT32, CPU, ST_MEMORY_FORMAT_PRESERVE, &out));
  expect_message_contains("st_to: src = {0x");
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_to(null, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_PRESERVE, &out));
}

static void to_a_cuda_device_that_cannot_be_used_is_device_unavailable(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), out = {0};
  int32_t n = device_count();
  /* one past the last device is unavailable on any machine */
  EXPECT_FAILS(ST_ERROR_DEVICE_UNAVAILABLE, st_to(x, ST_FLOAT32, CUDA(n), ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  expect_message_contains("st_to: ");
  EXPECT_FAILS(ST_ERROR_DEVICE_UNAVAILABLE, st_to(x, ST_FLOAT16, CUDA(n + 3), ST_MEMORY_FORMAT_PRESERVE, &out));
  if (n == 0) {
    EXPECT_FAILS(ST_ERROR_DEVICE_UNAVAILABLE, st_to(x, ST_FLOAT32, CUDA(0), ST_MEMORY_FORMAT_CONTIGUOUS, &out));
    expect_message_contains("device cuda:0 ");
    EXPECT_FAILS(ST_ERROR_DEVICE_UNAVAILABLE,
                 st_to(x, ST_FLOAT32, ((st_device){ST_DEVICE_CUDA_HOST, 0}), ST_MEMORY_FORMAT_CONTIGUOUS, &out));
  } else {
    print_message("cuda:0 exists here; only the device past the last one was checked\n");
  }
  EXPECT_OK(st_tensor_release(x));
}

static void to_that_cannot_allocate_is_out_of_memory(void** state) {
  (void)state;
  counting_allocator c;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), out = {0};
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  EXPECT_FAILS(ST_ERROR_OUT_OF_MEMORY, st_to(x, ST_FLOAT64, CPU, ST_MEMORY_FORMAT_PRESERVE, &out));
  EXPECT_OK(st_set_cpu_allocator(NULL));
  EXPECT_OK(st_tensor_release(x));
}

/* ---- st_fill and st_zero ------------------------------------------------------------------ */

static void fill_and_zero_with_a_dead_handle_are_invalid_handle(void** state) {
  (void)state;
  st_tensor null = {0};
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_fill(stale_handle(), 1.0));
  expect_message_contains("st_fill: dst = {0x");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_fill(null, 1.0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_zero(stale_handle()));
  expect_message_contains("st_zero: dst = {0x");
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_zero(never_issued));
}

/* ---- st_reshape ------------------------------------------------------------------------------ */

static void reshape_argument_errors(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 6), 2), out = {0};
  int64_t many[ST_MAX_DIMS + 1];
  for (int i = 0; i <= ST_MAX_DIMS; ++i) many[i] = 1;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_reshape(x, DIMS(12), 1, NULL));
  expect_message_contains("st_reshape: out is NULL");
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_reshape(x, NULL, 2, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_reshape(x, DIMS(12), -1, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_reshape(x, many, ST_MAX_DIMS + 1, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_reshape(x, DIMS(-2, -6), 2, &out));
  EXPECT_FAILS(ST_ERROR_INVALID_ARGUMENT, st_reshape(x, DIMS(-1, -1), 2, &out));
  expect_message_contains("only one may be");
  EXPECT_OK(st_tensor_release(x));
}

static void reshape_to_another_element_count_is_shape_mismatch(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 6), 2), xt = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_FAILS(ST_ERROR_SHAPE_MISMATCH, st_reshape(x, DIMS(5, 2), 2, &out));
  expect_message_contains("st_reshape: sizes (5, 2) hold 10 elements, the tensor has 12");
  EXPECT_FAILS(ST_ERROR_SHAPE_MISMATCH, st_reshape(xt, DIMS(-1, 5), 2, &out)); /* a copy would be needed, too */
  EXPECT_FAILS(ST_ERROR_SHAPE_MISMATCH, st_reshape(x, DIMS(-1, 0), 2, &out));
  st_tensor ts[] = {x, xt};
  release_all(ts, 2);
}

static void reshape_with_a_dead_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor out = {0};
  EXPECT_FAILS(ST_ERROR_INVALID_HANDLE, st_reshape(stale_handle(), DIMS(2), 1, &out));
  expect_message_contains("st_reshape: src = {0x");
}

static void reshape_that_must_copy_and_cannot_allocate_is_out_of_memory(void** state) {
  (void)state;
  counting_allocator c;
  st_tensor x = make_iota_f32(DIMS(2, 6), 2), xt = {0}, out = {0};
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  counting_allocator_install(&c);
  atomic_store(&c.fail, 1);
  EXPECT_FAILS(ST_ERROR_OUT_OF_MEMORY, st_reshape(xt, DIMS(12), 1, &out));
  EXPECT_OK(st_reshape(x, DIMS(12), 1, &out)); /* a view allocates nothing */
  EXPECT_OK(st_set_cpu_allocator(NULL));
  st_tensor ts[] = {x, xt, out};
  release_all(ts, 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(copy_of_a_src_that_does_not_broadcast_is_shape_mismatch_naming_both_shapes),
      cmocka_unit_test(copy_of_a_src_with_more_dims_than_dst_is_shape_mismatch_even_of_size_one),
      cmocka_unit_test(copy_into_an_empty_dst_checks_the_shapes_and_writes_nothing),
      cmocka_unit_test(copy_with_a_dead_handle_is_invalid_handle),
      cmocka_unit_test_teardown(copy_whose_temporary_cannot_be_allocated_is_out_of_memory_and_writes_nothing,
                                restore_default_allocator),
      cmocka_unit_test(contiguous_argument_errors),
      cmocka_unit_test(contiguous_in_a_format_that_does_not_fit_the_rank_is_invalid_argument),
      cmocka_unit_test(contiguous_with_a_dead_handle_is_invalid_handle),
      cmocka_unit_test_teardown(contiguous_that_cannot_allocate_is_out_of_memory, restore_default_allocator),
      cmocka_unit_test(clone_argument_errors),
      cmocka_unit_test(clone_with_a_dead_handle_is_invalid_handle),
      cmocka_unit_test_teardown(clone_that_cannot_allocate_is_out_of_memory, restore_default_allocator),
      cmocka_unit_test(to_argument_errors),
      cmocka_unit_test(to_with_a_dead_handle_is_invalid_handle),
      cmocka_unit_test(to_a_cuda_device_that_cannot_be_used_is_device_unavailable),
      cmocka_unit_test_teardown(to_that_cannot_allocate_is_out_of_memory, restore_default_allocator),
      cmocka_unit_test(fill_and_zero_with_a_dead_handle_are_invalid_handle),
      cmocka_unit_test(reshape_argument_errors),
      cmocka_unit_test(reshape_to_another_element_count_is_shape_mismatch),
      cmocka_unit_test(reshape_with_a_dead_handle_is_invalid_handle),
      cmocka_unit_test_teardown(reshape_that_must_copy_and_cannot_allocate_is_out_of_memory, restore_default_allocator),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
