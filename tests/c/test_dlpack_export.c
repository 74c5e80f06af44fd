/* st_to_dlpack and st_to_dlpack_versioned: layout kept exactly, dtypes and
 * devices mapped, storage alive until the consumer's deleter runs. */
#include <pthread.h>

#include "dlpack_producer.h"

/* Asserts that `dl` describes `t` exactly: same element (0, …, 0), shape and strides. */
static void expect_describes(const DLTensor* dl, st_tensor t) {
  int32_t ndim;
  int64_t sizes[ST_MAX_DIMS], strides[ST_MAX_DIMS];
  void* data;
  EXPECT_OK(st_tensor_ndim(t, &ndim));
  EXPECT_OK(st_tensor_sizes(t, sizes, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_strides(t, strides, ST_MAX_DIMS));
  EXPECT_OK(st_tensor_data_ptr(t, &data));
  assert_int_equal(dl->ndim, ndim);
  assert_ptr_equal(dl->data, data);
  assert_int_equal(dl->byte_offset, 0);
  assert_int_equal(dl->device.device_type, kDLCPU);
  assert_int_equal(dl->device.device_id, 0);
  assert_int_equal(dl->dtype.lanes, 1);
  for (int32_t i = 0; i < ndim; ++i) {
    assert_int_equal(dl->shape[i], sizes[i]);
    assert_int_equal(dl->strides[i], strides[i]);
  }
}

static void contiguous_tensor(void** state) {
  (void)state;
  float values[6] = {0, 1, 2, 3, 4, 5};
  int64_t sizes[2] = {2, 3};
  st_tensor t;
  EXPECT_OK(st_tensor_from_data(values, sizes, NULL, 2, ST_FLOAT32, CPU, NULL, NULL, &t));
  DLManagedTensor* m = NULL;
  EXPECT_OK(st_to_dlpack(t, &m));
  assert_non_null(m);
  assert_non_null(m->deleter);
  expect_describes(&m->dl_tensor, t);
  assert_ptr_equal(m->dl_tensor.data, values);
  assert_int_equal(m->dl_tensor.shape[0], 2);
  assert_int_equal(m->dl_tensor.shape[1], 3);
  assert_int_equal(m->dl_tensor.strides[0], 3);
  assert_int_equal(m->dl_tensor.strides[1], 1);
  assert_int_equal(m->dl_tensor.dtype.code, kDLFloat);
  assert_int_equal(m->dl_tensor.dtype.bits, 32);
  EXPECT_OK(st_tensor_release(t));
  m->deleter(m);
}

static void size_one_strides_kept(void** state) {
  (void)state;
  int64_t base_sizes[1] = {6};
  st_tensor base = make_tensor(base_sizes, 1, ST_INT16), v;
  /* A size-1 dim with an arbitrary stride: DLPack consumers see it unchanged. */
  int64_t sizes[3] = {3, 1, 2}, strides[3] = {2, 1000, 1};
  EXPECT_OK(st_as_strided(base, sizes, strides, 3, 0, &v));
  DLManagedTensor* m;
  EXPECT_OK(st_to_dlpack(v, &m));
  assert_int_equal(m->dl_tensor.strides[0], 2);
  assert_int_equal(m->dl_tensor.strides[1], 1000);
  assert_int_equal(m->dl_tensor.strides[2], 1);
  assert_int_equal(m->dl_tensor.dtype.code, kDLInt);
  assert_int_equal(m->dl_tensor.dtype.bits, 16);
  m->deleter(m);
  EXPECT_OK(st_tensor_release(v));
  EXPECT_OK(st_tensor_release(base));
}

static void negative_strides_point_at_first_element(void** state) {
  (void)state;
  double values[6] = {0, 1, 2, 3, 4, 5};
  int64_t sizes[2] = {2, 3};
  st_tensor t, f;
  EXPECT_OK(st_tensor_from_data(values, sizes, NULL, 2, ST_FLOAT64, CPU, NULL, NULL, &t));
  EXPECT_OK(st_flip(t, 1, &f));
  DLManagedTensorVersioned* m;
  EXPECT_OK(st_to_dlpack_versioned(f, &m));
  expect_describes(&m->dl_tensor, f);
  assert_int_equal(m->dl_tensor.strides[0], 3);
  assert_int_equal(m->dl_tensor.strides[1], -1);
  /* Element (i, j) of the flipped view is values[3i + 2 - j]. */
  const double* d = (const double*)m->dl_tensor.data;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) assert_true(d[i * 3 - j] == values[3 * i + 2 - j]);
  m->deleter(m);
  EXPECT_OK(st_tensor_release(f));
  EXPECT_OK(st_tensor_release(t));
}

static void empty_and_scalar(void** state) {
  (void)state;
  int64_t sizes[2] = {0, 4};
  st_tensor e = make_tensor(sizes, 2, ST_UINT8), s = make_tensor(NULL, 0, ST_COMPLEX128);
  DLManagedTensor* m;
  EXPECT_OK(st_to_dlpack(e, &m));
  expect_describes(&m->dl_tensor, e);
  assert_int_equal(m->dl_tensor.shape[0], 0);
  assert_int_equal(m->dl_tensor.shape[1], 4);
  m->deleter(m);
  DLManagedTensorVersioned* mv;
  EXPECT_OK(st_to_dlpack_versioned(s, &mv));
  expect_describes(&mv->dl_tensor, s);
  assert_int_equal(mv->dl_tensor.ndim, 0);
  assert_int_equal(mv->dl_tensor.dtype.code, kDLComplex);
  assert_int_equal(mv->dl_tensor.dtype.bits, 128);
  mv->deleter(mv);
  EXPECT_OK(st_tensor_release(e));
  EXPECT_OK(st_tensor_release(s));
}

static void every_dtype(void** state) {
  (void)state;
  /* DLPack's (code, bits, lanes) for each st_dtype, from the DLPack
   * specification (1.1 for codes 10 to 17), and the versioned export's
   * minor version and flags: 1.1 for the codes DLPack 1.1 added, float6
   * marked as one value a byte; the classic struct, without flags, refuses
   * float6. */
  static const struct {
    st_dtype dtype;
    uint8_t code, bits;
    uint16_t lanes;
    uint32_t minor;
    uint64_t flags;
  } table[] = {
      {ST_BOOL, ST_DLPACK_CODE_BOOL, 8, 1, 0, 0},
      {ST_UINT8, kDLUInt, 8, 1, 0, 0},
      {ST_INT8, kDLInt, 8, 1, 0, 0},
      {ST_INT16, kDLInt, 16, 1, 0, 0},
      {ST_INT32, kDLInt, 32, 1, 0, 0},
      {ST_INT64, kDLInt, 64, 1, 0, 0},
      {ST_FLOAT16, kDLFloat, 16, 1, 0, 0},
      {ST_BFLOAT16, kDLBfloat, 16, 1, 0, 0},
      {ST_FLOAT32, kDLFloat, 32, 1, 0, 0},
      {ST_FLOAT64, kDLFloat, 64, 1, 0, 0},
      {ST_COMPLEX64, kDLComplex, 64, 1, 0, 0},
      {ST_COMPLEX128, kDLComplex, 128, 1, 0, 0},
      {ST_UINT16, kDLUInt, 16, 1, 0, 0},
      {ST_UINT32, kDLUInt, 32, 1, 0, 0},
      {ST_UINT64, kDLUInt, 64, 1, 0, 0},
      /* DLPack 1.1: kDLFloat8_e4m3fn = 10, kDLFloat8_e5m2 = 12, 8 bits */
      {ST_FLOAT8_E4M3FN, 10, 8, 1, 0, 0},
      {ST_FLOAT8_E5M2, 12, 8, 1, 0, 0},
      /* kDLFloat8_e8m0fnu = 14; kDLFloat4_e2m1fn = 17 with 2 lanes a byte, as
       * PyTorch exports float4_e2m1fn_x2; kDLFloat6_e2m3fn = 15 and
       * kDLFloat6_e3m2fn = 16, padded to a byte (flag bit 2) */
      {ST_FLOAT8_E8M0FNU, 14, 8, 1, 1, 0},
      {ST_FLOAT4_E2M1FN_X2, 17, 4, 2, 1, 0},
      {ST_FLOAT6_E2M3FN, 15, 6, 1, 1, ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED},
      {ST_FLOAT6_E3M2FN, 16, 6, 1, 1, ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED},
  };
  assert_int_equal(sizeof table / sizeof table[0], 21);
  assert_int_equal(ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED, 4); /* DLPack 1.1's DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED */
  int64_t sizes[1] = {3};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
    st_tensor t = make_tensor(sizes, 1, table[i].dtype);
    DLManagedTensor* m = NULL;
    DLManagedTensorVersioned* mv;
    if (table[i].flags & ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED) {
      m = (DLManagedTensor*)(uintptr_t)1;
      EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_to_dlpack(t, &m));
      assert_null(m);
      expect_message_contains("st_to_dlpack_versioned");
    } else {
      EXPECT_OK(st_to_dlpack(t, &m));
      assert_int_equal(m->dl_tensor.dtype.code, table[i].code);
      assert_int_equal(m->dl_tensor.dtype.bits, table[i].bits);
      assert_int_equal(m->dl_tensor.dtype.lanes, table[i].lanes);
      m->deleter(m);
    }
    EXPECT_OK(st_to_dlpack_versioned(t, &mv));
    assert_int_equal(mv->dl_tensor.dtype.code, table[i].code);
    assert_int_equal(mv->dl_tensor.dtype.bits, table[i].bits);
    assert_int_equal(mv->dl_tensor.dtype.lanes, table[i].lanes);
    assert_int_equal(mv->version.major, 1);
    assert_int_equal(mv->version.minor, table[i].minor);
    assert_int_equal(mv->flags, table[i].flags);
    mv->deleter(mv);
    EXPECT_OK(st_tensor_release(t));
  }
}

static void versioned_header_and_flags(void** state) {
  (void)state;
  int64_t sizes[1] = {4};
  st_tensor t = make_tensor(sizes, 1, ST_FLOAT32);
  DLManagedTensorVersioned* m;
  EXPECT_OK(st_to_dlpack_versioned(t, &m));
  assert_int_equal(m->version.major, 1);
  assert_int_equal(m->version.minor, 0);
  assert_int_equal(m->flags, 0);
  m->deleter(m);
  EXPECT_OK(st_tensor_release(t));

  /* A read-only import exports read-only, views included. */
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 32);
  p->versioned.flags = ST_DLPACK_FLAG_READ_ONLY;
  st_tensor ro, view;
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &ro));
  EXPECT_OK(st_slice(ro, 0, 1, 3, 1, &view));
  EXPECT_OK(st_to_dlpack_versioned(view, &m));
  assert_int_equal(m->flags, ST_DLPACK_FLAG_READ_ONLY);
  /* ... and the flag survives a round trip through the library. */
  st_tensor back;
  EXPECT_OK(st_from_dlpack_versioned(m, &back));
  DLManagedTensorVersioned* again;
  EXPECT_OK(st_to_dlpack_versioned(back, &again));
  assert_int_equal(again->flags, ST_DLPACK_FLAG_READ_ONLY);
  again->deleter(again);
  EXPECT_OK(st_tensor_release(back));
  EXPECT_OK(st_tensor_release(view));
  EXPECT_OK(st_tensor_release(ro));
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);
}

/* The exported tensor keeps the storage after every handle is gone. */
static void storage_lives_until_deleter(void** state) {
  (void)state;
  atomic_int freed;
  atomic_init(&freed, 0);
  int32_t values[4] = {7, 8, 9, 10};
  int64_t sizes[1] = {4};
  st_tensor t;
  EXPECT_OK(st_tensor_from_data(values, sizes, NULL, 1, ST_INT32, CPU, count_deleter, &freed, &t));
  DLManagedTensor* m;
  DLManagedTensorVersioned* mv;
  EXPECT_OK(st_to_dlpack(t, &m));
  EXPECT_OK(st_to_dlpack_versioned(t, &mv));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(atomic_load(&freed), 0);
  assert_int_equal(((int32_t*)m->dl_tensor.data)[3], 10);
  m->deleter(m);
  assert_int_equal(atomic_load(&freed), 0);
  mv->deleter(mv);
  assert_int_equal(atomic_load(&freed), 1);
}

static void* run_deleter(void* arg) {
  DLManagedTensor* m = (DLManagedTensor*)arg;
  m->deleter(m);
  return NULL;
}

static void deleter_on_another_thread(void** state) {
  (void)state;
  atomic_int freed;
  atomic_init(&freed, 0);
  float values[2] = {1, 2};
  int64_t sizes[1] = {2};
  st_tensor t;
  EXPECT_OK(st_tensor_from_data(values, sizes, NULL, 1, ST_FLOAT32, CPU, count_deleter, &freed, &t));
  enum { kExports = 8 };
  DLManagedTensor* ms[kExports];
  for (int i = 0; i < kExports; ++i) EXPECT_OK(st_to_dlpack(t, &ms[i]));
  EXPECT_OK(st_tensor_release(t));
  pthread_t threads[kExports];
  for (int i = 0; i < kExports; ++i) assert_int_equal(pthread_create(&threads[i], NULL, run_deleter, ms[i]), 0);
  for (int i = 0; i < kExports; ++i) assert_int_equal(pthread_join(threads[i], NULL), 0);
  assert_int_equal(atomic_load(&freed), 1);
}

static void errors(void** state) {
  (void)state;
  int64_t sizes[1] = {2};
  st_tensor t = make_tensor(sizes, 1, ST_FLOAT32);
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_to_dlpack(t, NULL));
  expect_message_contains("st_to_dlpack: out is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_to_dlpack_versioned(t, NULL));
  expect_message_contains("st_to_dlpack_versioned: out is NULL");
  EXPECT_OK(st_tensor_release(t));

  DLManagedTensor* m = (DLManagedTensor*)&sizes; /* any non-NULL value: it must be overwritten */
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_to_dlpack(t, &m));
  assert_null(m);
  expect_message_contains("st_to_dlpack");
  DLManagedTensorVersioned* mv = (DLManagedTensorVersioned*)&sizes;
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_to_dlpack_versioned(t, &mv));
  assert_null(mv);
  st_tensor null_handle = {0};
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_to_dlpack(null_handle, &m));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_to_dlpack_versioned(null_handle, &mv));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contiguous_tensor),
      cmocka_unit_test(size_one_strides_kept),
      cmocka_unit_test(negative_strides_point_at_first_element),
      cmocka_unit_test(empty_and_scalar),
      cmocka_unit_test(every_dtype),
      cmocka_unit_test(versioned_header_and_flags),
      cmocka_unit_test(storage_lives_until_deleter),
      cmocka_unit_test(deleter_on_another_thread),
      cmocka_unit_test(errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
