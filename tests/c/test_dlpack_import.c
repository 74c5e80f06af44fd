/* st_from_dlpack and st_from_dlpack_versioned: zero-copy wraps, every
 * accepted layout and dtype, every refusal, and the producer's deleter
 * called exactly once — and never on failure. */
#include <pthread.h>

#include "dlpack_producer.h"

static void expect_dtype(st_tensor t, st_dtype want) {
  st_dtype got;
  EXPECT_OK(st_tensor_dtype(t, &got));
  assert_int_equal(got, want);
}

static void classic_with_strides(void** state) {
  (void)state;
  int64_t sizes[2] = {2, 3}, strides[2] = {1, 2}; /* column-major */
  producer* p = producer_new(2, sizes, strides, kDLFloat, 64);
  for (int k = 0; k < 6; ++k) p->buffer[k] = 10 + k;
  st_tensor t;
  EXPECT_OK(st_from_dlpack(&p->classic, &t));
  expect_layout(t, 2, sizes, strides, 0);
  expect_dtype(t, ST_FLOAT64);
  void* data;
  EXPECT_OK(st_tensor_data_ptr(t, &data));
  assert_ptr_equal(data, p->buffer); /* zero-copy */
  st_device dev;
  EXPECT_OK(st_tensor_device(t, &dev));
  assert_int_equal(dev.type, ST_DEVICE_CPU);
  assert_int_equal(dev.index, 0);

  /* A view outlives the imported handle; the deleter waits for it. */
  st_tensor row;
  EXPECT_OK(st_select(t, 0, 1, &row));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(producer_calls(p), 0);
  EXPECT_OK(st_tensor_data_ptr(row, &data));
  assert_true(*(double*)data == 11); /* element (1, 0) sits at offset 1 */
  EXPECT_OK(st_tensor_release(row));
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);
}

static void null_strides_are_row_major(void** state) {
  (void)state;
  int64_t sizes[3] = {2, 3, 4}, row_major[3] = {12, 4, 1};
  producer* p = producer_new(3, sizes, NULL, kDLInt, 8);
  st_tensor t, tv;
  EXPECT_OK(st_from_dlpack(&p->classic, &t));
  expect_layout(t, 3, sizes, row_major, 0);
  expect_dtype(t, ST_INT8);
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &tv));
  expect_layout(tv, 3, sizes, row_major, 0);
  EXPECT_OK(st_tensor_release(t));
  EXPECT_OK(st_tensor_release(tv));
  assert_int_equal(producer_calls(p), 2);
  producer_free(p);
}

static void negative_strides_and_byte_offset(void** state) {
  (void)state;
  /* Reversed rows of a 2x3 float32 block: element (0, 0) is buffer element 3,
   * reached through byte_offset; the rows go down in memory. */
  int64_t sizes[2] = {2, 3}, strides[2] = {-3, 1};
  producer* p = producer_new(2, sizes, strides, kDLFloat, 32);
  float* f = (float*)p->buffer;
  for (int k = 0; k < 6; ++k) f[k] = (float)k;
  p->versioned.dl_tensor.byte_offset = 3 * sizeof(float);
  st_tensor t;
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
  /* The storage starts at the lowest element, buffer element 0. */
  expect_layout(t, 2, sizes, strides, 3);
  void* data;
  EXPECT_OK(st_tensor_data_ptr(t, &data));
  assert_ptr_equal(data, f + 3);
  /* Element (i, j) of the import is f[3 - 3i + j]: (1, 2) is f[2]. */
  st_tensor e;
  EXPECT_OK(st_select(t, 0, 1, &e));
  st_tensor e2;
  EXPECT_OK(st_select(e, 0, 2, &e2));
  EXPECT_OK(st_tensor_data_ptr(e2, &data));
  assert_true(*(float*)data == 2.0f);
  EXPECT_OK(st_tensor_release(e2));
  EXPECT_OK(st_tensor_release(e));
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);
}

static void empty_and_scalar(void** state) {
  (void)state;
  int64_t sizes[2] = {3, 0};
  producer* p = producer_new(2, sizes, NULL, kDLFloat, 32);
  p->classic.dl_tensor.data = NULL; /* DLPack asks for NULL data when there are no elements */
  st_tensor t;
  EXPECT_OK(st_from_dlpack(&p->classic, &t));
  int64_t numel = -1, want_strides[2] = {1, 1}; /* PyTorch's rule: a size 0 counts as 1 */
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(numel, 0);
  expect_layout(t, 2, sizes, want_strides, 0);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);

  producer* s = producer_new(0, NULL, NULL, kDLComplex, 64);
  s->versioned.dl_tensor.shape = NULL; /* allowed for ndim 0 */
  EXPECT_OK(st_from_dlpack_versioned(&s->versioned, &t));
  EXPECT_OK(st_tensor_numel(t, &numel));
  assert_int_equal(numel, 1);
  expect_dtype(t, ST_COMPLEX64);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(producer_calls(s), 1);
  producer_free(s);
}

static void every_dtype(void** state) {
  (void)state;
  static const struct {
    uint8_t code, bits;
    uint16_t lanes;
    st_dtype dtype;
  } table[] = {
      {ST_DLPACK_CODE_BOOL, 8, 1, ST_BOOL}, {kDLUInt, 8, 1, ST_UINT8},      {kDLInt, 8, 1, ST_INT8},
      {kDLInt, 16, 1, ST_INT16},            {kDLInt, 32, 1, ST_INT32},      {kDLInt, 64, 1, ST_INT64},
      {kDLFloat, 16, 1, ST_FLOAT16},        {kDLBfloat, 16, 1, ST_BFLOAT16}, {kDLFloat, 32, 1, ST_FLOAT32},
      {kDLFloat, 64, 1, ST_FLOAT64},        {kDLComplex, 64, 1, ST_COMPLEX64}, {kDLComplex, 128, 1, ST_COMPLEX128},
      {kDLUInt, 16, 1, ST_UINT16},          {kDLUInt, 32, 1, ST_UINT32},    {kDLUInt, 64, 1, ST_UINT64},
      /* DLPack 1.1: kDLFloat8_e4m3fn = 10, kDLFloat8_e5m2 = 12, kDLFloat8_e8m0fnu = 14, 8 bits;
       * kDLFloat4_e2m1fn = 17 with 4 bits and 2 lanes (float4_e2m1fn_x2, as PyTorch) */
      {10, 8, 1, ST_FLOAT8_E4M3FN},         {12, 8, 1, ST_FLOAT8_E5M2},    {14, 8, 1, ST_FLOAT8_E8M0FNU},
      {17, 4, 2, ST_FLOAT4_E2M1FN_X2},
  };
  assert_int_equal(sizeof table / sizeof table[0], 19); /* and the two float6, padded_float6_imports */
  int64_t sizes[1] = {2};
  for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
    producer* p = producer_new(1, sizes, NULL, table[i].code, table[i].bits);
    p->classic.dl_tensor.dtype.lanes = table[i].lanes;
    p->versioned.dl_tensor.dtype.lanes = table[i].lanes;
    st_tensor a, b;
    EXPECT_OK(st_from_dlpack(&p->classic, &a));
    EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &b));
    expect_dtype(a, table[i].dtype);
    expect_dtype(b, table[i].dtype);
    EXPECT_OK(st_tensor_release(a));
    EXPECT_OK(st_tensor_release(b));
    assert_int_equal(producer_calls(p), 2);
    producer_free(p);
  }
}

/* float6 (codes 15 and 16, 6 bits) is read one value a byte, which a
 * versioned producer says with DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
 * without the flag (and always in the classic struct, which has none) the
 * values would be packed without gaps: refused. The value sits in the low
 * 6 bits: 0x1F reads as 7.5 (e2m3) and 28 (e3m2). */
static void padded_float6_imports(void** state) {
  (void)state;
  int64_t sizes[1] = {2};
  for (int e3m2 = 0; e3m2 < 2; ++e3m2) {
    producer* p = producer_new(1, sizes, NULL, e3m2 ? 16 : 15, 6);
    memset(p->buffer, 0x1F, 2);
    st_tensor t = {12345};
    EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_from_dlpack(&p->classic, &t));
    expect_message_contains("SUBBYTE_TYPE_PADDED");
    assert_int_equal(t.id, 0);
    EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_from_dlpack_versioned(&p->versioned, &t));
    assert_int_equal(producer_calls(p), 0);
    p->versioned.flags = ST_DLPACK_FLAG_SUBBYTE_TYPE_PADDED;
    p->versioned.version.minor = 1;
    st_tensor f = {0};
    EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
    expect_dtype(t, e3m2 ? ST_FLOAT6_E3M2FN : ST_FLOAT6_E2M3FN);
    EXPECT_OK(st_to(t, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &f));
    void* data = NULL;
    EXPECT_OK(st_tensor_data_ptr(f, &data));
    const float* v = data;
    assert_true(v[0] == (e3m2 ? 28.0f : 7.5f) && v[1] == v[0]);
    EXPECT_OK(st_tensor_release(f));
    EXPECT_OK(st_tensor_release(t));
    assert_int_equal(producer_calls(p), 1);
    producer_free(p);
  }
}

/* Each refused import: the status, {0} in out, and no deleter call. */
static void expect_refused(producer* p, int versioned, st_status want, const char* message) {
  st_tensor t = {12345};
  if (versioned)
    EXPECT_STATUS(want, st_from_dlpack_versioned(&p->versioned, &t));
  else
    EXPECT_STATUS(want, st_from_dlpack(&p->classic, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains(message);
  assert_int_equal(producer_calls(p), 0);
}

static void unsupported_dtypes(void** state) {
  (void)state;
  static const struct {
    uint8_t code, bits;
    uint16_t lanes;
  } refused[] = {
      {kDLFloat, 32, 4},      /* a vector type */
      {kDLUInt, 8, 2},        {kDLUInt, 128, 1},  {kDLUInt, 1, 1},  {kDLInt, 128, 1},
      {kDLFloat, 8, 1},       {kDLFloat, 128, 1}, {kDLBfloat, 32, 1}, {kDLComplex, 32, 1},
      {kDLOpaqueHandle, 64, 1}, {ST_DLPACK_CODE_BOOL, 1, 1}, {ST_DLPACK_CODE_BOOL, 16, 1},
      /* DLPack 1.1's float8 codes with other than 8 bits, or lanes */
      {10, 16, 1},            {10, 4, 1},         {12, 16, 1},      {12, 7, 1}, {10, 8, 2}, {12, 8, 4},
      /* the float8 formats stride has no dtype for: e3m4 (7), e4m3 (8),
       * e4m3b11fnuz (9), e4m3fnuz (11), e5m2fnuz (13); e8m0fnu (14) with
       * other than 8 bits or lanes */
      {7, 8, 1},              {8, 8, 1},          {9, 8, 1},        {11, 8, 1}, {13, 8, 1},
      {ST_DLPACK_CODE_FLOAT8_E3M4, 8, 1}, {ST_DLPACK_CODE_FLOAT8_E4M3, 8, 1},
      {ST_DLPACK_CODE_FLOAT8_E4M3B11FNUZ, 8, 1}, {ST_DLPACK_CODE_FLOAT8_E4M3FNUZ, 8, 1},
      {ST_DLPACK_CODE_FLOAT8_E5M2FNUZ, 8, 1}, {ST_DLPACK_CODE_FLOAT8_E8M0FNU, 8, 2},
      {ST_DLPACK_CODE_FLOAT8_E4M3FNUZ, 8, 2}, {ST_DLPACK_CODE_FLOAT8_E8M0FNU, 16, 1},
      /* fp6 e2m3fn (15), e3m2fn (16) stored a byte each with 8 bits, or with
       * lanes; fp4 e2m1fn (17) counted one value an element (packed two a
       * byte: 1 lane of 4 bits), or with 8 bits */
      {15, 8, 1},             {16, 8, 1},         {15, 6, 2},       {16, 6, 4}, {17, 4, 1}, {17, 8, 1},
      {ST_DLPACK_CODE_FLOAT4_E2M1FN, 4, 1}, {ST_DLPACK_CODE_FLOAT4_E2M1FN, 4, 4}, {ST_DLPACK_CODE_FLOAT4_E2M1FN, 8, 2},
      {18, 8, 1},             {255, 8, 1},        /* codes DLPack does not define */
  };
  int64_t sizes[1] = {2};
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; ++i) {
    producer* p = producer_new(1, sizes, NULL, refused[i].code, refused[i].bits);
    p->classic.dl_tensor.dtype.lanes = refused[i].lanes;
    p->versioned.dl_tensor.dtype.lanes = refused[i].lanes;
    const char* why = "has no stride dtype";
    expect_refused(p, 0, ST_ERROR_UNSUPPORTED_DTYPE, why);
    expect_refused(p, 1, ST_ERROR_UNSUPPORTED_DTYPE, why);
    producer_free(p);
  }
}

/* A refused float8 tensor stays the caller's: nothing is freed, and the
 * same struct, its dtype corrected, imports later; its values are read as
 * the dtype says (0x7E as float8_e4m3fn is 448, 0x7B as float8_e5m2 57344). */
static void refused_float8_import_leaves_the_tensor_with_the_caller(void** state) {
  (void)state;
  int64_t sizes[1] = {2};
  for (int e5m2 = 0; e5m2 < 2; ++e5m2) {
    producer* p = producer_new(1, sizes, NULL, e5m2 ? ST_DLPACK_CODE_FLOAT8_E5M2 : ST_DLPACK_CODE_FLOAT8_E4M3FN, 16);
    memset(p->buffer, e5m2 ? 0x7B : 0x7E, 2);
    expect_refused(p, 0, ST_ERROR_UNSUPPORTED_DTYPE, "has no stride dtype");
    expect_refused(p, 1, ST_ERROR_UNSUPPORTED_DTYPE, "has no stride dtype");
    p->versioned.dl_tensor.dtype.bits = 8;
    st_tensor t = {0}, f = {0};
    EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
    expect_dtype(t, e5m2 ? ST_FLOAT8_E5M2 : ST_FLOAT8_E4M3FN);
    EXPECT_OK(st_to(t, ST_FLOAT32, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &f));
    void* data = NULL;
    EXPECT_OK(st_tensor_data_ptr(f, &data));
    const float* v = data;
    assert_true(v[0] == (e5m2 ? 57344.0f : 448.0f) && v[1] == v[0]);
    EXPECT_OK(st_tensor_release(f));
    EXPECT_OK(st_tensor_release(t));
    assert_int_equal(producer_calls(p), 1);
    producer_free(p);
  }
  /* The numbers in the project's header are DLPack 1.1's (dlpack.h,
   * DLDataTypeCode: kDLFloat8_e3m4 = 7U ... kDLFloat4_e2m1fn = 17U). */
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E3M4, 7);
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E4M3, 8);
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E4M3B11FNUZ, 9);
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E4M3FN, 10);
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E4M3FNUZ, 11);
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E5M2, 12);
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E5M2FNUZ, 13);
  assert_int_equal(ST_DLPACK_CODE_FLOAT8_E8M0FNU, 14);
  assert_int_equal(ST_DLPACK_CODE_FLOAT6_E2M3FN, 15);
  assert_int_equal(ST_DLPACK_CODE_FLOAT6_E3M2FN, 16);
  assert_int_equal(ST_DLPACK_CODE_FLOAT4_E2M1FN, 17);
}

static void invalid_arguments(void** state) {
  (void)state;
  int64_t sizes[2] = {2, 3};
  producer* p = producer_new(2, sizes, NULL, kDLFloat, 32);
  st_tensor t = {12345};
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_from_dlpack(NULL, &t));
  assert_int_equal(t.id, 0);
  expect_message_contains("st_from_dlpack: in is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_from_dlpack_versioned(NULL, &t));
  expect_message_contains("st_from_dlpack_versioned: in is NULL");
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_from_dlpack(&p->classic, NULL));
  EXPECT_STATUS(ST_ERROR_INVALID_ARGUMENT, st_from_dlpack_versioned(&p->versioned, NULL));
  assert_int_equal(producer_calls(p), 0);

  for (int v = 0; v < 2; ++v) {
    DLTensor* dl = v ? &p->versioned.dl_tensor : &p->classic.dl_tensor;
    dl->ndim = -1;
    expect_refused(p, v, ST_ERROR_INVALID_ARGUMENT, "in->dl_tensor.ndim = -1");
    dl->ndim = ST_MAX_DIMS + 1;
    expect_refused(p, v, ST_ERROR_INVALID_ARGUMENT, "in->dl_tensor.ndim = 26");
    dl->ndim = 2;
    dl->shape = NULL;
    expect_refused(p, v, ST_ERROR_INVALID_ARGUMENT, "in->dl_tensor.shape is NULL");
    dl->shape = p->shape;
    p->shape[1] = -3;
    expect_refused(p, v, ST_ERROR_INVALID_ARGUMENT, "sizes");
    p->shape[1] = 3;
    dl->data = NULL;
    expect_refused(p, v, ST_ERROR_INVALID_ARGUMENT, "data is NULL");
    dl->data = p->buffer;
    dl->device.device_id = 1;
    expect_refused(p, v, ST_ERROR_INVALID_ARGUMENT, "in->dl_tensor.device.index = 1");
    dl->device.device_id = 0;
    dl->byte_offset = UINT64_MAX;
    expect_refused(p, v, ST_ERROR_INVALID_ARGUMENT, "byte_offset");
    dl->byte_offset = 0;
  }
  producer_free(p);
}

static void span_overflow(void** state) {
  (void)state;
  int64_t sizes[2] = {INT64_MAX / 2, 3}, strides[2] = {INT64_MAX / 4, 1};
  producer* p = producer_new(2, sizes, strides, kDLFloat, 32);
  expect_refused(p, 0, ST_ERROR_OUT_OF_MEMORY, "span more than int64 bytes");
  expect_refused(p, 1, ST_ERROR_OUT_OF_MEMORY, "span more than int64 bytes");
  producer_free(p);
}

static void devices(void** state) {
  (void)state;
  int64_t sizes[1] = {2};
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 32);
  static const int32_t foreign_types[] = {kDLOpenCL, kDLVulkan, kDLMetal, kDLROCM, kDLExtDev, kDLCUDAManaged, 0, 99};
  for (size_t i = 0; i < sizeof foreign_types / sizeof foreign_types[0]; ++i) {
    p->classic.dl_tensor.device.device_type = (DLDeviceType)foreign_types[i];
    p->versioned.dl_tensor.device.device_type = (DLDeviceType)foreign_types[i];
    expect_refused(p, 0, ST_ERROR_DEVICE_UNAVAILABLE, "is not one stride handles");
    expect_refused(p, 1, ST_ERROR_DEVICE_UNAVAILABLE, "is not one stride handles");
  }
  /* CUDA memory is accepted exactly when st_tensor_from_data accepts it. */
  static const int32_t cuda_types[] = {kDLCUDA, kDLCUDAHost};
  for (size_t i = 0; i < 2; ++i) {
    st_tensor ref = {0}, t = {0};
    st_status want = st_tensor_from_data(p->buffer, sizes, NULL, 1, ST_FLOAT32,
                                         (st_device){cuda_types[i], 0}, NULL, NULL, &ref);
    EXPECT_OK(st_tensor_release(ref));
    p->classic.dl_tensor.device.device_type = (DLDeviceType)cuda_types[i];
    EXPECT_STATUS(want, st_from_dlpack(&p->classic, &t));
    if (want == ST_OK) {
      st_device dev;
      EXPECT_OK(st_tensor_device(t, &dev));
      assert_int_equal(dev.type, cuda_types[i]);
      EXPECT_OK(st_tensor_release(t));
      assert_int_equal(producer_calls(p), 1);
      atomic_store(&p->deleter_calls, 0);
    } else {
      assert_int_equal(t.id, 0);
      assert_int_equal(producer_calls(p), 0);
    }
  }
  producer_free(p);
}

static void versions(void** state) {
  (void)state;
  int64_t sizes[1] = {2};
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 32);
  p->versioned.version.major = 2;
  expect_refused(p, 1, ST_ERROR_INVALID_ARGUMENT, "in->version = 2.0");
  /* Newer minor versions only add enum values: accepted, as is 0.x. */
  static const uint32_t accepted[][2] = {{1, 0}, {1, 7}, {0, 8}};
  for (int i = 0; i < 3; ++i) {
    p->versioned.version.major = accepted[i][0];
    p->versioned.version.minor = accepted[i][1];
    st_tensor t;
    EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
    EXPECT_OK(st_tensor_release(t));
  }
  assert_int_equal(producer_calls(p), 3);
  producer_free(p);
}

static void null_deleter(void** state) {
  (void)state;
  int64_t sizes[1] = {2};
  producer* p = producer_new(1, sizes, NULL, kDLFloat, 32);
  p->classic.deleter = NULL;
  p->versioned.deleter = NULL;
  st_tensor a, b;
  EXPECT_OK(st_from_dlpack(&p->classic, &a));
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &b));
  EXPECT_OK(st_tensor_release(a));
  EXPECT_OK(st_tensor_release(b));
  assert_int_equal(producer_calls(p), 0);
  producer_free(p);
}

static void* release_handle(void* arg) {
  EXPECT_OK(st_tensor_release(*(st_tensor*)arg));
  return NULL;
}

/* Views released on several threads at once: one deleter call in all. */
static void last_release_on_any_thread(void** state) {
  (void)state;
  int64_t sizes[1] = {8};
  producer* p = producer_new(1, sizes, NULL, kDLInt, 32);
  st_tensor t;
  EXPECT_OK(st_from_dlpack(&p->classic, &t));
  enum { kViews = 8 };
  st_tensor views[kViews];
  for (int i = 0; i < kViews; ++i) EXPECT_OK(st_select(t, 0, i, &views[i]));
  EXPECT_OK(st_tensor_release(t));
  pthread_t threads[kViews];
  for (int i = 0; i < kViews; ++i) assert_int_equal(pthread_create(&threads[i], NULL, release_handle, &views[i]), 0);
  for (int i = 0; i < kViews; ++i) assert_int_equal(pthread_join(threads[i], NULL), 0);
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);
}

/* Export then import: the same memory and layout, each deleter once. */
static void round_trips(void** state) {
  (void)state;
  atomic_int freed;
  atomic_init(&freed, 0);
  float values[12];
  for (int k = 0; k < 12; ++k) values[k] = (float)k;
  int64_t sizes[3] = {3, 1, 4}, strides[3] = {4, 99, -1};
  st_tensor src;
  EXPECT_OK(st_tensor_from_data(values + 3, sizes, strides, 3, ST_FLOAT32, CPU, count_deleter, &freed, &src));
  DLManagedTensor* m;
  DLManagedTensorVersioned* mv;
  EXPECT_OK(st_to_dlpack(src, &m));
  EXPECT_OK(st_to_dlpack_versioned(src, &mv));
  EXPECT_OK(st_tensor_release(src));
  st_tensor a, b;
  EXPECT_OK(st_from_dlpack(m, &a));
  EXPECT_OK(st_from_dlpack_versioned(mv, &b));
  /* Element (0, 0, 0) is values[3]; the lowest element, (0, 0, 3), is values[0]. */
  expect_layout(a, 3, sizes, strides, 3);
  expect_layout(b, 3, sizes, strides, 3);
  void* data;
  EXPECT_OK(st_tensor_data_ptr(a, &data));
  assert_ptr_equal(data, values + 3);
  EXPECT_OK(st_tensor_release(a));
  assert_int_equal(atomic_load(&freed), 0);
  EXPECT_OK(st_tensor_release(b));
  assert_int_equal(atomic_load(&freed), 1);

  /* Import then export: the producer's deleter runs after the consumer's. */
  int64_t psizes[2] = {2, 2};
  producer* p = producer_new(2, psizes, NULL, kDLBfloat, 16);
  st_tensor t;
  EXPECT_OK(st_from_dlpack_versioned(&p->versioned, &t));
  EXPECT_OK(st_to_dlpack(t, &m));
  assert_ptr_equal(m->dl_tensor.data, p->buffer);
  assert_int_equal(m->dl_tensor.dtype.code, kDLBfloat);
  EXPECT_OK(st_tensor_release(t));
  assert_int_equal(producer_calls(p), 0);
  m->deleter(m);
  assert_int_equal(producer_calls(p), 1);
  producer_free(p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(classic_with_strides),
      cmocka_unit_test(null_strides_are_row_major),
      cmocka_unit_test(negative_strides_and_byte_offset),
      cmocka_unit_test(empty_and_scalar),
      cmocka_unit_test(every_dtype),
      cmocka_unit_test(padded_float6_imports),
      cmocka_unit_test(unsupported_dtypes),
      cmocka_unit_test(refused_float8_import_leaves_the_tensor_with_the_caller),
      cmocka_unit_test(invalid_arguments),
      cmocka_unit_test(span_overflow),
      cmocka_unit_test(devices),
      cmocka_unit_test(versions),
      cmocka_unit_test(null_deleter),
      cmocka_unit_test(last_release_on_any_thread),
      cmocka_unit_test(round_trips),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
