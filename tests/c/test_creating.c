/* st_tensor_create, st_tensor_create_strided and st_tensor_create_like:
 * layouts against hand-computed strides, and every argument error. */
#include "support.h"

#define CUDA0 ((st_device){ST_DEVICE_CUDA, 0})
#define CUDA_HOST0 ((st_device){ST_DEVICE_CUDA_HOST, 0})
#define BIG (INT64_C(1) << 62)

/* Asserts that st_tensor_create(sizes, ndim, dtype, device) fails with `want` and leaves {0}. */
static void expect_create_fails(st_status want, const int64_t* sizes, int32_t ndim, st_dtype dtype, st_device dev) {
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(want, st_tensor_create(sizes, ndim, dtype, dev, &t));
  expect_null_handle(t);
}

static void expect_create_strided_fails(st_status want, const int64_t* sizes, const int64_t* strides, int32_t ndim,
                                        st_dtype dtype, st_device dev) {
  st_tensor t = {GARBAGE_ID};
  EXPECT_STATUS(want, st_tensor_create_strided(sizes, strides, ndim, dtype, dev, &t));
  expect_null_handle(t);
}

/* ---- st_tensor_create ---------------------------------------------------- */

static void create_2x3x4_float32_is_row_major(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32);
  assert_true(t.id != 0);
  expect_layout(t, 3, DIMS(2, 3, 4), DIMS(12, 4, 1), 0);
  st_dtype dtype = ST_BOOL;
  st_device dev = {0, 7};
  int64_t numel = 0;
  EXPECT_OK(st_tensor_dtype(t, &dtype));
  EXPECT_OK(st_tensor_device(t, &dev));
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(dtype, ST_FLOAT32);
  assert_int_equal(dev.type, ST_DEVICE_CPU);
  assert_int_equal(dev.index, 0);
  assert_int_equal(numel, 24);
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, 1);
  EXPECT_OK(st_tensor_release(t));
}

static void create_scalar_with_null_sizes_has_one_element(void** state) {
  (void)state;
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create(NULL, 0, ST_FLOAT64, CPU, &t));
  int32_t ndim = -1;
  int64_t numel = 0;
  double* p = NULL;
  EXPECT_OK(st_tensor_ndim(t, &ndim));
  EXPECT_OK(st_tensor_numel(t, &numel));
  EXPECT_OK(st_tensor_data_ptr(t, (void**)&p));
  assert_int_equal(ndim, 0);
  assert_int_equal(numel, 1);
  assert_non_null(p);
  *p = 2.5; /* the one element is writable */
  EXPECT_OK(st_tensor_release(t));
}

static void create_with_a_zero_size_is_empty(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(2, 0, 3), 3, ST_INT32);
  int64_t numel = -1;
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(numel, 0);
  /* a size-0 dim counts as 1 in the row-major strides, as PyTorch */
  expect_layout(t, 3, DIMS(2, 0, 3), DIMS(3, 3, 1), 0);
  EXPECT_OK(st_tensor_release(t));
}

static void create_with_a_zero_size_after_huge_sizes_is_empty(void** state) {
  (void)state;
  st_tensor t = make_tensor(DIMS(BIG, BIG, 0), 3, ST_FLOAT32); /* BIG * BIG overflows, but numel is 0 */
  int64_t numel = -1;
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(numel, 0);
  expect_layout(t, 3, DIMS(BIG, BIG, 0), DIMS(BIG, 1, 1), 0);
  EXPECT_OK(st_tensor_release(t));
}

static void create_with_25_dims_is_allowed(void** state) {
  (void)state;
  int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
  for (int i = 0; i < ST_MAX_DIMS; ++i) sizes[i] = i == 3 ? 2 : 1;
  for (int i = 0; i < ST_MAX_DIMS; ++i) strides[i] = i < 3 ? 2 : 1;
  st_tensor t = make_tensor(sizes, ST_MAX_DIMS, ST_UINT8);
  expect_layout(t, ST_MAX_DIMS, sizes, strides, 0);
  EXPECT_OK(st_tensor_release(t));
}

static void create_keeps_every_dtype(void** state) {
  (void)state;
  for (int d = 0; d < 17; ++d) {
    st_tensor t = make_tensor(DIMS(3), 1, (st_dtype)d);
    st_dtype got = (st_dtype)-1;
    EXPECT_OK(st_tensor_dtype(t, &got));
    assert_int_equal(got, d);
    EXPECT_OK(st_tensor_release(t));
  }
}

static void create_with_null_out_is_invalid_argument(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create(DIMS(2), 1, ST_FLOAT32, CPU, NULL));
  expect_message_contains("out is NULL");
}

static void create_with_null_sizes_and_positive_ndim_is_invalid_argument(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, NULL, 2, ST_FLOAT32, CPU);
  expect_message_contains("sizes is NULL");
}

static void create_with_negative_ndim_is_invalid_argument(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), -1, ST_FLOAT32, CPU);
  expect_message_contains("ndim = -1");
}

static void create_with_26_dims_is_invalid_argument(void** state) {
  (void)state;
  int64_t sizes[26];
  for (int i = 0; i < 26; ++i) sizes[i] = 1;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, sizes, 26, ST_FLOAT32, CPU);
  expect_message_contains("ndim = 26");
}

static void create_with_a_negative_size_is_invalid_argument(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2, 3, -1), 3, ST_FLOAT32, CPU);
  expect_message_contains("sizes[2] = -1");
}

static void create_with_an_unknown_dtype_is_invalid_argument(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, (st_dtype)21, CPU);
  expect_message_contains("dtype = 21");
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, (st_dtype)-1, CPU);
}

static void create_with_an_unknown_device_type_is_invalid_argument(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, ST_FLOAT32, ((st_device){0, 0}));
  expect_message_contains("device.type = 0");
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, ST_FLOAT32, ((st_device){4, 0}));
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, ST_FLOAT32, ((st_device){-1, 0}));
}

static void create_on_cpu_index_1_is_invalid_argument(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, ST_FLOAT32, ((st_device){ST_DEVICE_CPU, 1}));
  expect_message_contains("device.index = 1");
}

static void create_with_a_negative_device_index_is_invalid_argument(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, ST_FLOAT32, ((st_device){ST_DEVICE_CPU, -1}));
  expect_message_contains("device.index = -1");
  expect_create_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), 1, ST_FLOAT32, ((st_device){ST_DEVICE_CUDA, -1}));
}

static void create_on_cuda_is_device_unavailable(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_DEVICE_UNAVAILABLE, DIMS(2), 1, ST_FLOAT32, CUDA0);
  expect_message_contains("cuda");
}

static void create_on_cuda_host_is_device_unavailable(void** state) {
  (void)state;
  expect_create_fails(ST_ERROR_DEVICE_UNAVAILABLE, DIMS(2), 1, ST_FLOAT32, CUDA_HOST0);
  expect_message_contains("cuda_host");
}

static void create_whose_bytes_overflow_is_out_of_memory_without_allocating(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  expect_create_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(BIG, 4), 2, ST_FLOAT32, CPU);       /* 2^64 elements */
  expect_create_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(BIG), 1, ST_FLOAT32, CPU);          /* 2^64 bytes */
  expect_create_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(1 << 30, 1 << 30, 1 << 30), 3, ST_INT8, CPU);
  expect_create_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(INT64_MAX, 2), 2, ST_BOOL, CPU);
  assert_int_equal(atomic_load(&c.allocs) + atomic_load(&c.refused), 0);
}

/* An empty tensor holds no bytes: its sizes may be any whose row-major
 * strides overflow int64, and each stride that would is 0. Everything made
 * from it works, and nothing is allocated. */
static void create_whose_strides_overflow_is_empty_with_zero_strides(void** state) {
  (void)state;
  const int64_t t40 = INT64_C(1) << 40, t30 = INT64_C(1) << 30;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor e = {0}, e4 = {0};
  EXPECT_OK(st_tensor_create(DIMS(0, t40, t40), 3, ST_FLOAT32, CPU, &e)); /* stride 0 would be 2^80 */
  expect_layout(e, 3, DIMS(0, t40, t40), DIMS(0, t40, 1), 0);
  EXPECT_OK(st_tensor_create(DIMS(0, t40, t40, t40), 4, ST_FLOAT32, CPU, &e4));
  expect_layout(e4, 4, DIMS(0, t40, t40, t40), DIMS(0, 0, t40, 1), 0);

  st_tensor made[8] = {{0}};
  int n = 0;
  EXPECT_OK(st_contiguous(e, ST_MEMORY_FORMAT_CONTIGUOUS, &made[n++]));
  EXPECT_OK(st_clone(e, ST_MEMORY_FORMAT_PRESERVE, &made[n++]));
  EXPECT_OK(st_to(e, ST_FLOAT64, CPU, 0, &made[n++]));
  expect_layout(made[n - 1], 3, DIMS(0, t40, t40), DIMS(0, t40, 1), 0);
  EXPECT_OK(st_tensor_create_like(e, ST_MEMORY_FORMAT_CONTIGUOUS, &made[n++]));
  EXPECT_OK(st_transpose(e, 0, 2, &made[n++]));
  EXPECT_OK(st_slice(e, 1, 5, t40, 3, &made[n++]));
  EXPECT_OK(st_copy(made[0], e, 0));
  EXPECT_OK(st_fill(e, 1.0));
  /* channels-last: C, W, H strides 1, 2^30, 2^60; N's would be 2^90 */
  st_tensor nchw = {0};
  EXPECT_OK(st_tensor_create(DIMS(0, t30, t30, t30), 4, ST_UINT8, CPU, &nchw));
  EXPECT_OK(st_tensor_create_like(nchw, ST_MEMORY_FORMAT_CHANNELS_LAST, &made[n++]));
  expect_layout(made[n - 1], 4, DIMS(0, t30, t30, t30), DIMS(0, 1, INT64_C(1) << 60, t30), 0);
  expect_is_contiguous(made[n - 1], ST_MEMORY_FORMAT_CHANNELS_LAST, 1);
  for (int i = 0; i < n; ++i) EXPECT_OK(st_tensor_release(made[i]));
  EXPECT_OK(st_tensor_release(nchw));
  EXPECT_OK(st_tensor_release(e4));
  EXPECT_OK(st_tensor_release(e));
  assert_int_equal(atomic_load(&c.allocs) + atomic_load(&c.refused), 0);
}

static void create_of_huge_empty_tensor_allocates_nothing(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor t = make_tensor(DIMS(0, INT64_C(1) << 40, 2), 3, ST_FLOAT64);
  expect_layout(t, 3, DIMS(0, INT64_C(1) << 40, 2), DIMS(INT64_C(1) << 41, 2, 1), 0);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(atomic_load(&c.allocs) + atomic_load(&c.refused), 0);
}

/* ---- st_tensor_create_strided -------------------------------------------- */

static void create_strided_keeps_the_strides_and_allocates_their_span(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create_strided(DIMS(2, 3), DIMS(8, 2), 2, ST_FLOAT32, CPU, &t));
  expect_layout(t, 2, DIMS(2, 3), DIMS(8, 2), 0);
  assert_int_equal(atomic_load(&c.allocs), 1);
  assert_int_equal(atomic_load(&c.last_nbytes), (1 + 8 + 2 * 2) * 4); /* 13 elements */
  expect_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, 0);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(atomic_load(&c.frees), 1);
}

static void create_strided_with_a_zero_stride_shares_elements(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create_strided(DIMS(3, 4), DIMS(0, 1), 2, ST_INT16, CPU, &t));
  expect_layout(t, 2, DIMS(3, 4), DIMS(0, 1), 0);
  assert_int_equal(atomic_load(&c.last_nbytes), 4 * 2);
  int64_t numel = 0;
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(numel, 12);
  EXPECT_OK(st_tensor_release(t));
}

static void create_strided_scalar_takes_null_arrays(void** state) {
  (void)state;
  st_tensor t = {0};
  EXPECT_OK(st_tensor_create_strided(NULL, NULL, 0, ST_INT64, CPU, &t));
  int64_t numel = 0;
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(numel, 1);
  EXPECT_OK(st_tensor_release(t));
}

static void create_strided_with_null_out_is_invalid_argument(void** state) {
  (void)state;
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create_strided(DIMS(2), DIMS(1), 1, ST_FLOAT32, CPU, NULL));
}

static void create_strided_with_null_arrays_and_positive_ndim_is_invalid_argument(void** state) {
  (void)state;
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, NULL, DIMS(1), 1, ST_FLOAT32, CPU);
  expect_message_contains("sizes is NULL");
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), NULL, 1, ST_FLOAT32, CPU);
  expect_message_contains("strides is NULL");
}

static void create_strided_with_bad_ndim_is_invalid_argument(void** state) {
  (void)state;
  int64_t ones[26];
  for (int i = 0; i < 26; ++i) ones[i] = 1;
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, ones, ones, -2, ST_FLOAT32, CPU);
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, ones, ones, 26, ST_FLOAT32, CPU);
}

static void create_strided_with_a_negative_size_is_invalid_argument(void** state) {
  (void)state;
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(-2, 3), DIMS(3, 1), 2, ST_FLOAT32, CPU);
  expect_message_contains("sizes[0] = -2");
}

static void create_strided_with_a_negative_stride_is_invalid_argument(void** state) {
  (void)state;
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2, 3), DIMS(3, -1), 2, ST_FLOAT32, CPU);
  expect_message_contains("strides[1] = -1");
}

static void create_strided_checks_arguments_before_the_device(void** state) {
  (void)state;
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2, 3), DIMS(3, -1), 2, ST_FLOAT32, CUDA0);
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2, -3), DIMS(3, 1), 2, ST_FLOAT32, CUDA0);
}

static void create_strided_with_unknown_dtype_or_device_is_invalid_argument(void** state) {
  (void)state;
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), DIMS(1), 1, (st_dtype)99, CPU);
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), DIMS(1), 1, ST_FLOAT32, ((st_device){5, 0}));
  expect_create_strided_fails(ST_ERROR_INVALID_ARGUMENT, DIMS(2), DIMS(1), 1, ST_FLOAT32,
                              ((st_device){ST_DEVICE_CPU, 1}));
}

static void create_strided_on_cuda_is_device_unavailable(void** state) {
  (void)state;
  expect_create_strided_fails(ST_ERROR_DEVICE_UNAVAILABLE, DIMS(2), DIMS(1), 1, ST_FLOAT32, CUDA0);
  expect_create_strided_fails(ST_ERROR_DEVICE_UNAVAILABLE, DIMS(2), DIMS(1), 1, ST_FLOAT32, CUDA_HOST0);
}

static void create_strided_whose_span_overflows_is_out_of_memory_without_allocating(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  /* 1 + 2^62 + 2^62 elements overflow int64 */
  expect_create_strided_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(2, 2), DIMS(BIG, BIG), 2, ST_INT8, CPU);
  /* 1 + 2^61 elements fit, their bytes do not */
  expect_create_strided_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(2), DIMS(INT64_C(1) << 61), 1, ST_FLOAT32, CPU);
  assert_int_equal(atomic_load(&c.allocs) + atomic_load(&c.refused), 0);
}

static void create_strided_whose_numel_overflows_is_out_of_memory_without_allocating(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  /* the span is one element, but 2^64 elements cannot be counted */
  expect_create_strided_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(BIG, 4), DIMS(0, 0), 2, ST_FLOAT32, CPU);
  /* 2^62 elements of 4 bytes overflow int64 bytes */
  expect_create_strided_fails(ST_ERROR_OUT_OF_MEMORY, DIMS(BIG), DIMS(0), 1, ST_FLOAT32, CPU);
  assert_int_equal(atomic_load(&c.allocs) + atomic_load(&c.refused), 0);
}

/* ---- st_tensor_create_like ----------------------------------------------- */

static st_tensor like(st_tensor src, st_memory_format fmt) {
  st_tensor out = {0};
  EXPECT_OK(st_tensor_create_like(src, fmt, &out));
  return out;
}

static void expect_like_fails(st_status want, st_tensor src, st_memory_format fmt) {
  st_tensor out = {GARBAGE_ID};
  EXPECT_STATUS(want, st_tensor_create_like(src, fmt, &out));
  expect_null_handle(out);
}

static void create_like_keeps_shape_dtype_device_with_new_storage(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3), 2, ST_INT16), y = like(x, ST_MEMORY_FORMAT_CONTIGUOUS);
  expect_layout(y, 2, DIMS(2, 3), DIMS(3, 1), 0);
  st_dtype dtype = ST_BOOL;
  st_device dev = {0, 9};
  void *px = NULL, *py = NULL;
  EXPECT_OK(st_tensor_dtype(y, &dtype));
  EXPECT_OK(st_tensor_device(y, &dev));
  EXPECT_OK(st_tensor_data_ptr(x, &px));
  EXPECT_OK(st_tensor_data_ptr(y, &py));
  assert_int_equal(dtype, ST_INT16);
  assert_int_equal(dev.type, ST_DEVICE_CPU);
  assert_int_equal(dev.index, 0);
  assert_ptr_not_equal(px, py);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_contiguous_of_a_permuted_source_is_row_major(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), p = {0};
  EXPECT_OK(st_permute(x, (const int32_t[]){2, 0, 1}, 3, &p));
  st_tensor y = like(p, ST_MEMORY_FORMAT_CONTIGUOUS);
  expect_layout(y, 3, DIMS(4, 2, 3), DIMS(6, 3, 1), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(p));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_channels_last_gives_nhwc_strides(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4, 5), 4, ST_FLOAT32), y = like(x, ST_MEMORY_FORMAT_CHANNELS_LAST);
  /* C fastest (1), then W (3), H (3*5), N (3*5*4) */
  expect_layout(y, 4, DIMS(2, 3, 4, 5), DIMS(60, 1, 15, 3), 0);
  expect_is_contiguous(y, ST_MEMORY_FORMAT_CHANNELS_LAST, 1);
  expect_is_contiguous(y, ST_MEMORY_FORMAT_CONTIGUOUS, 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_channels_last_of_an_empty_tensor_is_channels_last(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 0, 4, 5), 4, ST_FLOAT32), y = like(x, ST_MEMORY_FORMAT_CHANNELS_LAST);
  /* PyTorch's get_channels_last_strides_2d with C = 0: W, H and N strides are 0 */
  expect_layout(y, 4, DIMS(2, 0, 4, 5), DIMS(0, 1, 0, 0), 0);
  expect_is_contiguous(y, ST_MEMORY_FORMAT_CHANNELS_LAST, 1);
  st_tensor z = make_tensor(DIMS(2, 3, 0, 5), 4, ST_FLOAT32), w = like(z, ST_MEMORY_FORMAT_CHANNELS_LAST);
  expect_layout(w, 4, DIMS(2, 3, 0, 5), DIMS(0, 1, 15, 3), 0);
  expect_is_contiguous(w, ST_MEMORY_FORMAT_CHANNELS_LAST, 1);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(y));
  EXPECT_OK(st_tensor_release(z));
  EXPECT_OK(st_tensor_release(w));
}

static void create_like_channels_last_3d_gives_ndhwc_strides(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4, 5, 6), 5, ST_FLOAT32), y = like(x, ST_MEMORY_FORMAT_CHANNELS_LAST_3D);
  /* C (1), W (3), H (3*6), D (3*6*5), N (3*6*5*4) */
  expect_layout(y, 5, DIMS(2, 3, 4, 5, 6), DIMS(360, 1, 90, 18, 3), 0);
  expect_is_contiguous(y, ST_MEMORY_FORMAT_CHANNELS_LAST_3D, 1);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_channels_last_of_the_wrong_rank_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x3 = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), x4 = make_tensor(DIMS(2, 3, 4, 5), 4, ST_FLOAT32);
  expect_like_fails(ST_ERROR_INVALID_ARGUMENT, x3, ST_MEMORY_FORMAT_CHANNELS_LAST);
  expect_message_contains("4 dims");
  expect_like_fails(ST_ERROR_INVALID_ARGUMENT, x4, ST_MEMORY_FORMAT_CHANNELS_LAST_3D);
  expect_message_contains("5 dims");
  EXPECT_OK(st_tensor_release(x3));
  EXPECT_OK(st_tensor_release(x4));
}

static void create_like_preserve_keeps_the_exact_strides_of_a_dense_permuted_source(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2, 3, 4), 3, ST_FLOAT32), p = {0};
  EXPECT_OK(st_permute(x, (const int32_t[]){2, 0, 1}, 3, &p));
  st_tensor y = like(p, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 3, DIMS(4, 2, 3), DIMS(1, 12, 4), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(p));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_preserve_keeps_the_stride_of_a_size_one_dim(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(12), 1, ST_FLOAT32), v = {0};
  EXPECT_OK(st_as_strided(x, DIMS(3, 1, 4), DIMS(4, 7, 1), 3, 0, &v));
  st_tensor y = like(v, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 3, DIMS(3, 1, 4), DIMS(4, 7, 1), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_preserve_of_a_sliced_source_is_dense_in_stride_order(void** state) {
  (void)state;
  counting_allocator c;
  counting_allocator_install(&c);
  st_tensor x = make_tensor(DIMS(4, 6), 2, ST_FLOAT32), s = {0}, t = {0};
  EXPECT_OK(st_slice(x, 1, 0, 6, 2, &s)); /* (4, 3) strides (6, 2) */
  st_tensor y = like(s, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 2, DIMS(4, 3), DIMS(3, 1), 0);
  assert_int_equal(atomic_load(&c.last_nbytes), 12 * 4);
  EXPECT_OK(st_transpose(s, 0, 1, &t)); /* (3, 4) strides (2, 6) */
  st_tensor z = like(t, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(z, 2, DIMS(3, 4), DIMS(1, 3), 0);
  st_tensor releases[] = {x, s, t, y, z};
  for (int i = 0; i < 5; ++i) EXPECT_OK(st_tensor_release(releases[i]));
  assert_int_equal(atomic_load(&c.frees), atomic_load(&c.allocs));
}

static void create_like_preserve_of_a_negative_stride_source_counts_it_by_absolute_value(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(3, 4), 2, ST_FLOAT32), f = {0}, g = {0}, ft = {0};
  EXPECT_OK(st_flip(x, 0, &f)); /* strides (-4, 1) */
  st_tensor y = like(f, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 2, DIMS(3, 4), DIMS(4, 1), 0);
  EXPECT_OK(st_flip(x, 1, &g)); /* strides (4, -1) */
  EXPECT_OK(st_transpose(g, 0, 1, &ft)); /* (4, 3) strides (-1, 4) */
  st_tensor z = like(ft, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(z, 2, DIMS(4, 3), DIMS(1, 4), 0);
  st_tensor releases[] = {x, f, g, ft, y, z};
  for (int i = 0; i < 6; ++i) EXPECT_OK(st_tensor_release(releases[i]));
}

static void create_like_preserve_of_a_flipped_size_one_dim_is_dense(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(1, 3), 2, ST_FLOAT32), f = {0};
  EXPECT_OK(st_flip(x, 0, &f)); /* strides (-3, 1): still contiguous, size-1 dims do not count */
  st_tensor y = like(f, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 2, DIMS(1, 3), DIMS(3, 1), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(f));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_preserve_of_an_empty_flipped_tensor_has_no_negative_stride(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(0, 3), 2, ST_FLOAT32), f = {0};
  EXPECT_OK(st_flip(x, 1, &f)); /* strides (3, -1) */
  st_tensor y = like(f, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 2, DIMS(0, 3), DIMS(3, 1), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(f));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_preserve_orders_an_int64_min_stride_by_its_magnitude(void** state) {
  (void)state;
  static float data[8];
  st_tensor x = {0};
  /* not dense (stride 2), and INT64_MIN on the size-1 dim counts as the largest stride */
  EXPECT_OK(st_tensor_from_data(data, DIMS(1, 3), DIMS(INT64_MIN, 2), 2, ST_FLOAT32, CPU, NULL, NULL, &x));
  st_tensor y = like(x, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 2, DIMS(1, 3), DIMS(3, 1), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_preserve_of_an_expanded_source_is_row_major(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(1, 4), 2, ST_FLOAT32), e = {0};
  EXPECT_OK(st_expand(x, DIMS(3, 4), 2, &e)); /* strides (0, 1) */
  st_tensor y = like(e, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 2, DIMS(3, 4), DIMS(4, 1), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(e));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_preserve_of_a_channels_last_source_stays_channels_last(void** state) {
  (void)state;
  st_tensor x = {0};
  EXPECT_OK(st_tensor_create_strided(DIMS(2, 3, 4, 5), DIMS(60, 1, 15, 3), 4, ST_FLOAT32, CPU, &x));
  st_tensor y = like(x, ST_MEMORY_FORMAT_PRESERVE);
  expect_layout(y, 4, DIMS(2, 3, 4, 5), DIMS(60, 1, 15, 3), 0);
  EXPECT_OK(st_tensor_release(x));
  EXPECT_OK(st_tensor_release(y));
}

static void create_like_with_an_unknown_format_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2), 1, ST_FLOAT32);
  expect_like_fails(ST_ERROR_INVALID_ARGUMENT, x, (st_memory_format)4);
  expect_message_contains("fmt = 4");
  expect_like_fails(ST_ERROR_INVALID_ARGUMENT, x, (st_memory_format)-1);
  EXPECT_OK(st_tensor_release(x));
}

static void create_like_with_null_out_is_invalid_argument(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2), 1, ST_FLOAT32);
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_tensor_create_like(x, ST_MEMORY_FORMAT_CONTIGUOUS, NULL));
  EXPECT_OK(st_tensor_release(x));
}

static void create_like_of_a_released_handle_is_invalid_handle(void** state) {
  (void)state;
  st_tensor x = make_tensor(DIMS(2), 1, ST_FLOAT32);
  EXPECT_OK(st_tensor_release(x));
  expect_like_fails(ST_ERROR_INVALID_HANDLE, x, ST_MEMORY_FORMAT_CONTIGUOUS);
  expect_like_fails(ST_ERROR_INVALID_HANDLE, (st_tensor){0}, ST_MEMORY_FORMAT_CONTIGUOUS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_2x3x4_float32_is_row_major),
      cmocka_unit_test(create_scalar_with_null_sizes_has_one_element),
      cmocka_unit_test(create_with_a_zero_size_is_empty),
      cmocka_unit_test(create_with_a_zero_size_after_huge_sizes_is_empty),
      cmocka_unit_test(create_with_25_dims_is_allowed),
      cmocka_unit_test(create_keeps_every_dtype),
      cmocka_unit_test(create_with_null_out_is_invalid_argument),
      cmocka_unit_test(create_with_null_sizes_and_positive_ndim_is_invalid_argument),
      cmocka_unit_test(create_with_negative_ndim_is_invalid_argument),
      cmocka_unit_test(create_with_26_dims_is_invalid_argument),
      cmocka_unit_test(create_with_a_negative_size_is_invalid_argument),
      cmocka_unit_test(create_with_an_unknown_dtype_is_invalid_argument),
      cmocka_unit_test(create_with_an_unknown_device_type_is_invalid_argument),
      cmocka_unit_test(create_on_cpu_index_1_is_invalid_argument),
      cmocka_unit_test(create_with_a_negative_device_index_is_invalid_argument),
      cmocka_unit_test(create_on_cuda_is_device_unavailable),
      cmocka_unit_test(create_on_cuda_host_is_device_unavailable),
      cmocka_unit_test_teardown(create_whose_bytes_overflow_is_out_of_memory_without_allocating,
                                restore_default_allocator),
      cmocka_unit_test_teardown(create_whose_strides_overflow_is_empty_with_zero_strides,
                                restore_default_allocator),
      cmocka_unit_test_teardown(create_of_huge_empty_tensor_allocates_nothing, restore_default_allocator),
      cmocka_unit_test_teardown(create_strided_keeps_the_strides_and_allocates_their_span,
                                restore_default_allocator),
      cmocka_unit_test_teardown(create_strided_with_a_zero_stride_shares_elements, restore_default_allocator),
      cmocka_unit_test(create_strided_scalar_takes_null_arrays),
      cmocka_unit_test(create_strided_with_null_out_is_invalid_argument),
      cmocka_unit_test(create_strided_with_null_arrays_and_positive_ndim_is_invalid_argument),
      cmocka_unit_test(create_strided_with_bad_ndim_is_invalid_argument),
      cmocka_unit_test(create_strided_with_a_negative_size_is_invalid_argument),
      cmocka_unit_test(create_strided_with_a_negative_stride_is_invalid_argument),
      cmocka_unit_test(create_strided_checks_arguments_before_the_device),
      cmocka_unit_test(create_strided_with_unknown_dtype_or_device_is_invalid_argument),
      cmocka_unit_test(create_strided_on_cuda_is_device_unavailable),
      cmocka_unit_test_teardown(create_strided_whose_span_overflows_is_out_of_memory_without_allocating,
                                restore_default_allocator),
      cmocka_unit_test_teardown(create_strided_whose_numel_overflows_is_out_of_memory_without_allocating,
                                restore_default_allocator),
      cmocka_unit_test(create_like_keeps_shape_dtype_device_with_new_storage),
      cmocka_unit_test(create_like_contiguous_of_a_permuted_source_is_row_major),
      cmocka_unit_test(create_like_channels_last_gives_nhwc_strides),
      cmocka_unit_test(create_like_channels_last_of_an_empty_tensor_is_channels_last),
      cmocka_unit_test(create_like_channels_last_3d_gives_ndhwc_strides),
      cmocka_unit_test(create_like_channels_last_of_the_wrong_rank_is_invalid_argument),
      cmocka_unit_test(create_like_preserve_keeps_the_exact_strides_of_a_dense_permuted_source),
      cmocka_unit_test(create_like_preserve_keeps_the_stride_of_a_size_one_dim),
      cmocka_unit_test_teardown(create_like_preserve_of_a_sliced_source_is_dense_in_stride_order,
                                restore_default_allocator),
      cmocka_unit_test(create_like_preserve_of_a_negative_stride_source_counts_it_by_absolute_value),
      cmocka_unit_test(create_like_preserve_of_a_flipped_size_one_dim_is_dense),
      cmocka_unit_test(create_like_preserve_of_an_empty_flipped_tensor_has_no_negative_stride),
      cmocka_unit_test(create_like_preserve_orders_an_int64_min_stride_by_its_magnitude),
      cmocka_unit_test(create_like_preserve_of_an_expanded_source_is_row_major),
      cmocka_unit_test(create_like_preserve_of_a_channels_last_source_stays_channels_last),
      cmocka_unit_test(create_like_with_an_unknown_format_is_invalid_argument),
      cmocka_unit_test(create_like_with_null_out_is_invalid_argument),
      cmocka_unit_test(create_like_of_a_released_handle_is_invalid_handle),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
