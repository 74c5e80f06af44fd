/* Every status and the inputs that produce it, one test per status: the
 * table of docs/errors.md, row by row (each row names its test here). Each
 * failing call is also checked to leave out = {0} and the message to name
 * the function. */
#include "dlpack_producer.h"

/* Expects `call` to answer `want`, with *out reset and a message that
 * starts with `fn`. */
#define EXPECT_REFUSED(want, fn, out, call) \
  do {                                      \
    (out).id = GARBAGE_ID;                  \
    EXPECT_STATUS((want), (call));          \
    expect_null_handle(out);                \
    expect_message_contains(fn ": ");       \
  } while (0)

static void invalid_argument_for_null_pointers_bad_enums_dims_and_counts(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), y = {0};
  int64_t sizes[1];
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(2), 1, ST_FLOAT32, CPU, NULL)); /* out NULL */
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_tensor_create", y, st_tensor_create(NULL, 2, ST_FLOAT32, CPU, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_tensor_create", y, st_tensor_create(DIMS(1), 26, ST_FLOAT32, CPU, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_tensor_create", y,
                 st_tensor_create(DIMS(2, -1), 2, ST_FLOAT32, CPU, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_tensor_create", y, st_tensor_create(DIMS(2), 1, (st_dtype)21, CPU, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_tensor_create", y,
                 st_tensor_create(DIMS(2), 1, ST_FLOAT32, ((st_device){9, 0}), &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_tensor_create", y,
                 st_tensor_create(DIMS(2), 1, ST_FLOAT32, ((st_device){ST_DEVICE_CPU, 1}), &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_transpose", y, st_transpose(x, 0, 2, &y)); /* dim out of range */
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_permute", y, st_permute(x, (const int32_t[]){0, 0}, 2, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_slice", y, st_slice(x, 0, 0, 2, 0, &y));          /* step 0 */
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_view", y, st_view(x, DIMS(-1, -1), 2, &y));       /* two -1 */
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_clone", y, st_clone(x, (st_memory_format)4, &y)); /* unknown format */
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_contiguous", y,
                 st_contiguous(x, ST_MEMORY_FORMAT_CHANNELS_LAST, &y)); /* channels-last needs 4 dims */
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_contiguous", y, st_contiguous(x, ST_MEMORY_FORMAT_PRESERVE, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_ARGUMENT, "st_tensor_from_data", y,
                 st_tensor_from_data(NULL, DIMS(2), NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &y)); /* data NULL */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_sizes(x, sizes, 1)); /* capacity below ndim */
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_num_threads(0));
  const st_allocator no_alloc = {NULL, NULL, NULL};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_cpu_allocator(&no_alloc));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_set_parallel_for(NULL, &y));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_cuda_synchronize(-1));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_live_tensor_count(NULL));
  /* The block calls: spec NULL, a struct_size or format of no spec, a dim out of range. */
  st_tensor v = make_tensor(DIMS(2, 3), 2, ST_FLOAT8_E4M3FN), s = make_tensor(DIMS(2, 1), 2, ST_FLOAT8_E8M0FNU);
  st_block_spec spec = {sizeof(st_block_spec), ST_BLOCK_MXFP8_E4M3, -1, ST_SCALE_FLOOR, 0.0f};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(v, s, x, NULL));
  expect_message_contains("st_quantize_blocks: ");
  spec.struct_size = 8;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_dequantize_blocks(x, v, s, &spec));
  expect_message_contains("st_dequantize_blocks: ");
  spec.struct_size = sizeof spec;
  spec.format = (st_block_format)7;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(v, s, x, &spec));
  spec.format = ST_BLOCK_MXFP8_E4M3;
  spec.dim = 2;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_quantize_blocks(v, s, x, &spec));
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(s));
  EXPECT_OK(st_tensor_release(x));
}

static void invalid_handle_for_null_released_and_forged_handles(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), dead = make_iota_f32(DIMS(2), 1), y = {0};
  EXPECT_OK(st_tensor_release(dead));
  const st_tensor null_handle = {0}, forged = {x.id ^ (UINT64_C(7) << 32)};
  EXPECT_REFUSED(ST_ERROR_INVALID_HANDLE, "st_flip", y, st_flip(null_handle, 0, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_HANDLE, "st_clone", y, st_clone(dead, ST_MEMORY_FORMAT_CONTIGUOUS, &y));
  EXPECT_REFUSED(ST_ERROR_INVALID_HANDLE, "st_contiguous", y, st_contiguous(forged, ST_MEMORY_FORMAT_CONTIGUOUS, &y));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_copy(x, dead, 0));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(dead)); /* a double release */
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_retain(forged));
  int32_t ndim = -7;
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_ndim(null_handle, &ndim));
  assert_int_equal(ndim, -7);
  EXPECT_OK(st_tensor_release(x));
}

static void* refuse_every_allocation(void* ctx, size_t nbytes, size_t alignment) {
  (void)ctx, (void)nbytes, (void)alignment;
  return NULL;
}
static void never_called_free(void* ctx, void* ptr, size_t nbytes) {
  (void)ctx, (void)ptr, (void)nbytes;
  fail();
}

static void out_of_memory_for_refused_allocations_and_byte_counts_past_int64(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(4, 4), 2), y = {0}, rows = {0}, rows_below = {0};
  EXPECT_REFUSED(ST_ERROR_OUT_OF_MEMORY, "st_tensor_create", y,
                 st_tensor_create(DIMS(INT64_MAX / 2, 3), 2, ST_FLOAT32, CPU, &y)); /* numel x itemsize */
  EXPECT_REFUSED(ST_ERROR_OUT_OF_MEMORY, "st_tensor_create_strided", y,
                 st_tensor_create_strided(DIMS(3), DIMS(INT64_MAX / 2), 1, ST_FLOAT32, CPU, &y)); /* the span */
  EXPECT_REFUSED(ST_ERROR_OUT_OF_MEMORY, "st_as_strided", y,
                 st_as_strided(x, DIMS(INT64_MAX / 2, 4), DIMS(0, 0), 2, 0, &y)); /* a view's byte count */
  EXPECT_REFUSED(ST_ERROR_OUT_OF_MEMORY, "st_tensor_from_data", y,
                 st_tensor_from_data(&y, DIMS(3), DIMS(INT64_MAX / 2), 1, ST_FLOAT32, CPU, NULL, NULL, &y));
  EXPECT_OK(st_slice(x, 0, 1, 4, 1, &rows));
  EXPECT_OK(st_slice(x, 0, 0, 3, 1, &rows_below));
  const st_allocator refusing = {refuse_every_allocation, never_called_free, NULL};
  EXPECT_OK(st_set_cpu_allocator(&refusing));
  EXPECT_REFUSED(ST_ERROR_OUT_OF_MEMORY, "st_tensor_create", y, st_tensor_create(DIMS(4), 1, ST_FLOAT32, CPU, &y));
  EXPECT_REFUSED(ST_ERROR_OUT_OF_MEMORY, "st_clone", y, st_clone(x, ST_MEMORY_FORMAT_CONTIGUOUS, &y));
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_copy(rows, rows_below, 0)); /* the temporary for overlapping operands */
  expect_message_contains("st_copy: ");
  EXPECT_OK(st_set_cpu_allocator(NULL));
  EXPECT_OK(st_tensor_release(rows));
  EXPECT_OK(st_tensor_release(rows_below));
  EXPECT_OK(st_tensor_release(x));
}

static void shape_mismatch_for_broadcasts_views_and_counts_that_do_not_fit(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), xt = {0}, row4 = make_iota_f32(DIMS(4), 1), y = {0};
  st_tensor big = make_iota_f32(DIMS(1, 2, 3), 3);
  EXPECT_OK(st_transpose(x, 0, 1, &xt));
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(x, row4, 0)); /* (4) does not broadcast to (2, 3) */
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_copy(x, big, 0));  /* src has more dims than dst */
  EXPECT_REFUSED(ST_ERROR_SHAPE_MISMATCH, "st_view", y, st_view(xt, DIMS(6), 1, &y)); /* the strides forbid it */
  EXPECT_REFUSED(ST_ERROR_SHAPE_MISMATCH, "st_view", y, st_view(x, DIMS(4), 1, &y));  /* another element count */
  EXPECT_REFUSED(ST_ERROR_SHAPE_MISMATCH, "st_reshape", y, st_reshape(x, DIMS(5, -1), 2, &y));
  EXPECT_REFUSED(ST_ERROR_SHAPE_MISMATCH, "st_expand", y, st_expand(x, DIMS(4, 3), 2, &y)); /* a dim of size 2 */
  EXPECT_REFUSED(ST_ERROR_SHAPE_MISMATCH, "st_expand", y, st_expand(x, DIMS(6), 1, &y));    /* fewer dims */
  /* Scales of 2 blocks for 3 elements along the dim: one block holds them. */
  st_tensor v = make_tensor(DIMS(2, 3), 2, ST_INT8), s = make_tensor(DIMS(2, 2), 2, ST_FLOAT8_E8M0FNU);
  const st_block_spec spec = {sizeof(st_block_spec), ST_BLOCK_MXINT8, 1, ST_SCALE_FLOOR, 0.0f};
  EXPECT_STATUS(ST_ERROR_SHAPE_MISMATCH, st_quantize_blocks(v, s, x, &spec));
  expect_message_contains("st_quantize_blocks: ");
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(s));
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(xt));
  EXPECT_OK(st_tensor_release(row4));
  EXPECT_OK(st_tensor_release(big));
}

static void unsupported_dtype_for_dlpack_types_stride_has_no_dtype_for(void** state) {
  (void)state;
  st_tensor y = {0};
  producer* p = producer_new(1, DIMS(2), NULL, ST_DLPACK_CODE_FLOAT8_E4M3FN, 16); /* float8 of 16 bits */
  EXPECT_REFUSED(ST_ERROR_UNSUPPORTED_DTYPE, "st_from_dlpack", y, st_from_dlpack(&p->classic, &y));
  p->classic.dl_tensor.dtype.code = ST_DLPACK_CODE_FLOAT4_E2M1FN;
  p->classic.dl_tensor.dtype.bits = 4;
  EXPECT_REFUSED(ST_ERROR_UNSUPPORTED_DTYPE, "st_from_dlpack", y, st_from_dlpack(&p->classic, &y));
  p->classic.dl_tensor.dtype.code = kDLFloat;
  p->classic.dl_tensor.dtype.bits = 32;
  p->classic.dl_tensor.dtype.lanes = 4; /* a vector type */
  EXPECT_REFUSED(ST_ERROR_UNSUPPORTED_DTYPE, "st_from_dlpack", y, st_from_dlpack(&p->classic, &y));
  assert_int_equal(producer_calls(p), 0);
  producer_free(p);
  /* float4_e2m1fn_x2 converts to nothing else and takes no fill; float6
   * needs the versioned struct's flag; the block calls read and write the
   * dtypes of their format only. */
  st_tensor f4 = make_tensor(DIMS(4), 1, ST_FLOAT4_E2M1FN_X2), f32 = make_iota_f32(DIMS(4), 1);
  st_tensor f6 = make_tensor(DIMS(4), 1, ST_FLOAT6_E2M3FN), i32 = make_tensor(DIMS(4), 1, ST_INT32);
  st_tensor v = make_tensor(DIMS(4), 1, ST_FLOAT8_E4M3FN), s = make_tensor(DIMS(1), 1, ST_FLOAT8_E8M0FNU);
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy(f4, f32, 0));
  expect_message_contains("st_copy: ");
  EXPECT_REFUSED(ST_ERROR_UNSUPPORTED_DTYPE, "st_to", y, st_to(f4, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &y));
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_fill(f4, 1.0));
  DLManagedTensor* m = (DLManagedTensor*)(uintptr_t)1;
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_to_dlpack(f6, &m));
  assert_null(m);
  const st_block_spec spec = {sizeof(st_block_spec), ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0.0f};
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_quantize_blocks(v, s, i32, &spec));
  expect_message_contains("st_quantize_blocks: ");
  EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_quantize_blocks(f6, s, f32, &spec));
  const st_tensor ts[] = {f4, f32, f6, i32, v, s};
  for (size_t i = 0; i < sizeof ts / sizeof ts[0]; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void device_unavailable_for_devices_this_build_or_machine_lacks(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2), 1), y = {0};
  float data[2] = {0, 0};
  const st_device missing = {ST_DEVICE_CUDA, 1000}; /* no machine has it, with or without CUDA */
  EXPECT_REFUSED(ST_ERROR_DEVICE_UNAVAILABLE, "st_tensor_create", y,
                 st_tensor_create(DIMS(2), 1, ST_FLOAT32, missing, &y));
  EXPECT_REFUSED(ST_ERROR_DEVICE_UNAVAILABLE, "st_tensor_from_data", y,
                 st_tensor_from_data(data, DIMS(2), NULL, 1, ST_FLOAT32, missing, NULL, NULL, &y));
  EXPECT_REFUSED(ST_ERROR_DEVICE_UNAVAILABLE, "st_to", y,
                 st_to(x, ST_FLOAT32, missing, ST_MEMORY_FORMAT_CONTIGUOUS, &y));
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_synchronize(1000));
  EXPECT_STATUS(ST_ERROR_DEVICE_UNAVAILABLE, st_cuda_set_stream(1000, NULL));
  EXPECT_OK(st_tensor_release(x));
}

static void overlap_for_destinations_whose_elements_share_memory(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(3), 1), expanded = {0}, strided = {0}, src = make_iota_f32(DIMS(2, 3), 2);
  st_tensor base = make_iota_f32(DIMS(8), 1), src2 = make_iota_f32(DIMS(3, 3), 2);
  EXPECT_OK(st_expand(x, DIMS(2, 3), 2, &expanded));
  EXPECT_OK(st_as_strided(base, DIMS(3, 3), DIMS(2, 1), 2, 0, &strided)); /* rows overlap: stride 2 < row span 3 */
  const float before[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_copy(expanded, src, 0));
  expect_message_contains("st_copy: ");
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_copy(strided, src2, 0));
  float* b = NULL;
  EXPECT_OK(st_tensor_data_ptr(base, (void**)&b));
  assert_memory_equal(b, before, sizeof before); /* nothing was written */
  EXPECT_OK(st_fill(expanded, 1.0));             /* filling is allowed: one value for all */
  /* The block calls: values over their own source. */
  st_tensor v = {0}, s = make_tensor(DIMS(2, 1), 2, ST_FLOAT8_E8M0FNU);
  EXPECT_OK(st_as_strided(base, DIMS(2, 3), DIMS(3, 1), 2, 0, &v));
  st_tensor v8 = {0};
  EXPECT_OK(st_tensor_from_data(b, DIMS(2, 3), NULL, 2, ST_INT8, CPU, NULL, NULL, &v8));
  const st_block_spec spec = {sizeof(st_block_spec), ST_BLOCK_MXINT8, 1, ST_SCALE_FLOOR, 0.0f};
  EXPECT_STATUS(ST_ERROR_OVERLAP, st_quantize_blocks(v8, s, v, &spec));
  expect_message_contains("st_quantize_blocks: ");
  assert_memory_equal(b, before, sizeof before);
  st_tensor ts[9] = {x, expanded, strided, src, base, src2, v, s, v8};
  for (int i = 0; i < 9; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void out_of_bounds_for_views_and_indices_past_the_storage(void** state) {
  (void)state;
  st_tensor x = make_iota_f32(DIMS(2, 3), 2), y = {0};
  EXPECT_REFUSED(ST_ERROR_OUT_OF_BOUNDS, "st_as_strided", y, st_as_strided(x, DIMS(2, 3), DIMS(3, 1), 2, 1, &y));
  EXPECT_REFUSED(ST_ERROR_OUT_OF_BOUNDS, "st_as_strided", y, st_as_strided(x, DIMS(2), DIMS(-1), 1, 0, &y));
  EXPECT_REFUSED(ST_ERROR_OUT_OF_BOUNDS, "st_select", y, st_select(x, 1, 3, &y));
  EXPECT_REFUSED(ST_ERROR_OUT_OF_BOUNDS, "st_select", y, st_select(x, 0, -3, &y));
  EXPECT_OK(st_tensor_release(x));
}

/* A job system that runs every chunk but the last. */
static void skip_the_last_chunk(void* ctx, int64_t n, int64_t grain, st_parallel_task task, void* task_ctx) {
  (void)ctx;
  const int64_t half = n / 2 < grain ? grain : n / 2;
  if (half < n) task(task_ctx, 0, half);
}

static void internal_for_a_job_system_that_leaves_work_undone(void** state) {
  (void)state;
  const int32_t threads = st_get_num_threads();
  st_tensor big = make_tensor(DIMS(512, 512), 2, ST_FLOAT32), t = {0}, c = {0};
  EXPECT_OK(st_transpose(big, 0, 1, &t));
  EXPECT_OK(st_set_num_threads(2));
  EXPECT_OK(st_set_parallel_for(skip_the_last_chunk, NULL));
  EXPECT_REFUSED(ST_ERROR_INTERNAL, "st_contiguous", c, st_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &c));
  expect_message_contains("job system");
  EXPECT_OK(st_set_parallel_for(NULL, NULL));
  EXPECT_OK(st_set_num_threads(threads));
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(big));
}

static void read_only_for_writes_into_memory_imported_read_only(void** state) {
  (void)state;
  producer* p = producer_new(1, DIMS(4), NULL, kDLFloat, 32);
  p->versioned.flags = ST_DLPACK_FLAG_READ_ONLY;
  st_tensor t = {0}, src = make_iota_f32(DIMS(4), 1), flipped = {0};
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
  EXPECT_OK(st_flip(t, 0, &flipped));
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_copy(t, src, 0));
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_fill(flipped, 1.0)); /* a view of it too */
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_zero(t));
  expect_message_contains("st_zero: ");
  st_tensor v = make_tensor(DIMS(4), 1, ST_FLOAT8_E4M3FN), s = make_tensor(DIMS(1), 1, ST_FLOAT8_E8M0FNU);
  const st_block_spec spec = {sizeof(st_block_spec), ST_BLOCK_MXFP8_E4M3, 0, ST_SCALE_FLOOR, 0.0f};
  EXPECT_OK(st_fill(v, 1.0));
  EXPECT_OK(st_fill(s, 1.0));
  EXPECT_STATUS(ST_ERROR_READ_ONLY, st_dequantize_blocks(t, v, s, &spec)); /* dst imported read-only */
  expect_message_contains("st_dequantize_blocks: ");
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(s));
  EXPECT_OK(st_copy(src, t, 0)); /* reading is allowed */
  EXPECT_OK(st_tensor_release(flipped));
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(src));
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(invalid_argument_for_null_pointers_bad_enums_dims_and_counts),
      cmocka_unit_test(invalid_handle_for_null_released_and_forged_handles),
      cmocka_unit_test_teardown(out_of_memory_for_refused_allocations_and_byte_counts_past_int64,
                                restore_default_allocator),
      cmocka_unit_test(shape_mismatch_for_broadcasts_views_and_counts_that_do_not_fit),
      cmocka_unit_test(unsupported_dtype_for_dlpack_types_stride_has_no_dtype_for),
      cmocka_unit_test(device_unavailable_for_devices_this_build_or_machine_lacks),
      cmocka_unit_test(overlap_for_destinations_whose_elements_share_memory),
      cmocka_unit_test(out_of_bounds_for_views_and_indices_past_the_storage),
      cmocka_unit_test(internal_for_a_job_system_that_leaves_work_undone),
      cmocka_unit_test(read_only_for_writes_into_memory_imported_read_only),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
