/* st_copy and st_to between every pair of the 21 dtypes (include/stride.h,
 * conversion rules), on vectors of special values whose expected results are
 * written out in conversion_tables.c: one table per source dtype, one row per
 * source value, one column per destination dtype. float4_e2m1fn_x2 copies
 * only to itself: every other pair with it is ST_ERROR_UNSUPPORTED_DTYPE,
 * with nothing written. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "conversion_tables.h"

typedef conversion_table table;

#define SENTINEL 0xA5

static st_tensor source_of(const table* t) {
  st_tensor src = {0};
  int64_t n = t->rows;
  EXPECT_OK(st_tensor_from_data((void*)t->src, &n, NULL, 1, t->dtype, CPU, NULL, NULL, &src));
  return src;
}

/* Checks the `rows` elements at `got` (`stride` elements apart) against the table. */
static void expect_rows(const table* t, st_dtype dst_dtype, const unsigned char* got, int64_t stride,
                        const char* how) {
  size_t item = st_dtype_itemsize(dst_dtype);
  for (int32_t i = 0; i < t->rows; ++i) {
    char what[96];
    snprintf(what, sizeof what, "%s, %s row %d", how, st_dtype_name(t->dtype), (int)i);
    expect_element(dst_dtype, got + (size_t)(i * stride) * item, &t->want[i], what);
  }
}

static void copy_table_to_every_dtype(st_dtype src_dtype) {
  const table* t = &conversion_tables[src_dtype];
  st_tensor src = source_of(t);
  int64_t n = t->rows;
  for (int d = 0; d < NUM_DTYPES; ++d) {
    st_tensor dst = make_tensor(&n, 1, (st_dtype)d);
    if (!dtype_converts((st_dtype)d, src_dtype)) {
      memset(data_ptr(dst), SENTINEL, (size_t)n * st_dtype_itemsize((st_dtype)d));
      EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy(dst, src, 0));
      expect_message_contains("float4_e2m1fn_x2 copies only to itself");
      const unsigned char* p = data_ptr(dst);
      for (size_t b = 0; b < (size_t)n * st_dtype_itemsize((st_dtype)d); ++b) assert_int_equal(p[b], SENTINEL);
      EXPECT_OK(st_tensor_release(dst));
      continue;
    }
    EXPECT_OK(st_copy(dst, src, 0));
    expect_rows(t, (st_dtype)d, data_ptr(dst), 1, "st_copy");
    EXPECT_OK(st_tensor_release(dst));
  }
  EXPECT_OK(st_tensor_release(src));
}

static void to_table_to_every_dtype(st_dtype src_dtype) {
  const table* t = &conversion_tables[src_dtype];
  st_tensor src = source_of(t);
  for (int d = 0; d < NUM_DTYPES; ++d) {
    st_tensor out = {0};
    st_dtype got_dtype = ST_BOOL;
    if (!dtype_converts((st_dtype)d, src_dtype)) {
      out.id = GARBAGE_ID;
      EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_to(src, (st_dtype)d, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
      expect_null_handle(out);
      continue;
    }
    EXPECT_OK(st_to(src, (st_dtype)d, CPU, ST_MEMORY_FORMAT_CONTIGUOUS, &out));
    EXPECT_OK(st_tensor_dtype(out, &got_dtype));
    assert_int_equal(got_dtype, d);
    expect_rows(t, (st_dtype)d, data_ptr(out), 1, "st_to");
    EXPECT_OK(st_tensor_release(out));
  }
  EXPECT_OK(st_tensor_release(src));
}


/* The table read backwards through a negative stride (every other element
 * of a buffer) into every third element of a padded buffer: the strided
 * conversion loops, and nothing written between the elements. */
static void copy_table_between_strided_views(st_dtype src_dtype) {
  const table* t = &conversion_tables[src_dtype];
  const int64_t n = t->rows;
  const size_t src_item = st_dtype_itemsize(src_dtype);
  unsigned char* src_buf = malloc((size_t)(2 * n) * src_item);
  assert_non_null(src_buf);
  memset(src_buf, SENTINEL, (size_t)(2 * n) * src_item);
  for (int64_t i = 0; i < n; ++i) /* row i at element 1 + 2 * (n - 1 - i) */
    memcpy(src_buf + (size_t)(1 + 2 * (n - 1 - i)) * src_item, (const unsigned char*)t->src + (size_t)i * src_item,
           src_item);
  st_tensor src = {0};
  int64_t src_stride = -2;
  EXPECT_OK(st_tensor_from_data(src_buf + (size_t)(1 + 2 * (n - 1)) * src_item, &n, &src_stride, 1, src_dtype, CPU,
                                NULL, NULL, &src));
  for (int d = 0; d < NUM_DTYPES; ++d) {
    const size_t item = st_dtype_itemsize((st_dtype)d), nbytes = (size_t)(3 * n + 2) * item;
    unsigned char* dst_buf = malloc(nbytes);
    assert_non_null(dst_buf);
    memset(dst_buf, SENTINEL, nbytes);
    st_tensor dst = {0};
    int64_t dst_stride = 3;
    EXPECT_OK(st_tensor_from_data(dst_buf + item, &n, &dst_stride, 1, (st_dtype)d, CPU, NULL, NULL, &dst));
    if (dtype_converts((st_dtype)d, src_dtype)) {
      EXPECT_OK(st_copy(dst, src, 0));
      expect_rows(t, (st_dtype)d, dst_buf + item, 3, "st_copy between strided views");
    } else {
      EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_copy(dst, src, 0));
      memset(dst_buf, SENTINEL, nbytes);  /* the check below then finds every byte as it was */
    }
    for (size_t b = 0; b < nbytes; ++b) {
      size_t element = b / item;
      int written = element >= 1 && (element - 1) % 3 == 0 && (element - 1) / 3 < (size_t)n;
      if (!written && dst_buf[b] != SENTINEL) {
        print_error("%s → %s: byte %zu outside the copied elements changed\n", st_dtype_name(src_dtype),
                    st_dtype_name((st_dtype)d), b);
        fail();
      }
    }
    EXPECT_OK(st_tensor_release(dst));
    free(dst_buf);
  }
  EXPECT_OK(st_tensor_release(src));
  free(src_buf);
}

#define TABLE_TESTS(name, dtype)                                                                            \
  static void copy_from_##name##_to_every_dtype(void** state) {                                            \
    (void)state;                                                                                            \
    copy_table_to_every_dtype(dtype);                                                                       \
  }                                                                                                         \
  static void to_from_##name##_to_every_dtype(void** state) {                                              \
    (void)state;                                                                                            \
    to_table_to_every_dtype(dtype);                                                                         \
  }                                                                                                         \
  static void copy_from_##name##_through_strided_views(void** state) {                                     \
    (void)state;                                                                                            \
    copy_table_between_strided_views(dtype);                                                                \
  }

TABLE_TESTS(bool, ST_BOOL)
TABLE_TESTS(uint8, ST_UINT8)
TABLE_TESTS(int8, ST_INT8)
TABLE_TESTS(int16, ST_INT16)
TABLE_TESTS(int32, ST_INT32)
TABLE_TESTS(int64, ST_INT64)
TABLE_TESTS(float16, ST_FLOAT16)
TABLE_TESTS(bfloat16, ST_BFLOAT16)
TABLE_TESTS(float32, ST_FLOAT32)
TABLE_TESTS(float64, ST_FLOAT64)
TABLE_TESTS(complex64, ST_COMPLEX64)
TABLE_TESTS(complex128, ST_COMPLEX128)
TABLE_TESTS(uint16, ST_UINT16)
TABLE_TESTS(uint32, ST_UINT32)
TABLE_TESTS(uint64, ST_UINT64)
TABLE_TESTS(float8_e4m3fn, ST_FLOAT8_E4M3FN)
TABLE_TESTS(float8_e5m2, ST_FLOAT8_E5M2)
TABLE_TESTS(float8_e8m0fnu, ST_FLOAT8_E8M0FNU)
TABLE_TESTS(float4_e2m1fn_x2, ST_FLOAT4_E2M1FN_X2)
TABLE_TESTS(float6_e2m3fn, ST_FLOAT6_E2M3FN)
TABLE_TESTS(float6_e3m2fn, ST_FLOAT6_E3M2FN)

/* ---- The rules that differ from PyTorch, each on its own ----------------------- */

static st_tensor scalar_of(st_dtype dtype, void* value) {
  st_tensor t = {0};
  EXPECT_OK(st_tensor_from_data(value, NULL, NULL, 0, dtype, CPU, NULL, NULL, &t));
  return t;
}

static void float64_to_float16_rounds_once_from_the_exact_value(void** state) {
  (void)state;
  double v = 0x1.0020000001p0; /* float32 would hold 1 + 2^-11, a float16 tie that goes to even 1.0 */
  uint16_t got = 0;
  st_tensor src = scalar_of(ST_FLOAT64, &v), dst = scalar_of(ST_FLOAT16, &got);
  EXPECT_OK(st_copy(dst, src, 0));
  assert_int_equal(got, 0x3C01); /* 1 + 2^-10 */
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void int64_to_bfloat16_near_a_tie_rounds_once(void** state) {
  (void)state;
  int64_t v = INT64_C(4311744513); /* float32 would hold 2^32 + 2^24, a bfloat16 tie that goes to even 2^32 */
  uint16_t got = 0;
  st_tensor src = scalar_of(ST_INT64, &v), dst = scalar_of(ST_BFLOAT16, &got);
  EXPECT_OK(st_copy(dst, src, 0));
  assert_int_equal(got, 0x4F81); /* 2^32 + 2^25 */
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void complex_to_bool_is_true_when_either_part_is_nonzero(void** state) {
  (void)state;
  float v[4][2] = {{0.0f, 2.0f}, {3.0f, 0.0f}, {-0.0f, 0.0f}, {0.0f, -0.0f}};
  uint8_t got[4] = {7, 7, 7, 7};
  int64_t n = 4;
  st_tensor src = {0}, dst = {0};
  EXPECT_OK(st_tensor_from_data(v, &n, NULL, 1, ST_COMPLEX64, CPU, NULL, NULL, &src));
  EXPECT_OK(st_tensor_from_data(got, &n, NULL, 1, ST_BOOL, CPU, NULL, NULL, &dst));
  EXPECT_OK(st_copy(dst, src, 0));
  assert_int_equal(got[0], 1); /* PyTorch 1.13 looks at the real part only and says 0 */
  assert_int_equal(got[1], 1);
  assert_int_equal(got[2], 0);
  assert_int_equal(got[3], 0);
  EXPECT_OK(st_tensor_release(src));
  EXPECT_OK(st_tensor_release(dst));
}

static void float_to_integer_truncates_then_saturates(void** state) {
  (void)state;
  float v[4] = {300.5f, -1.5f, 128.0f, NAN};
  uint8_t u[4] = {0};
  int8_t s[4] = {0};
  int64_t n = 4;
  st_tensor src = {0}, du = {0}, ds = {0};
  EXPECT_OK(st_tensor_from_data(v, &n, NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &src));
  EXPECT_OK(st_tensor_from_data(u, &n, NULL, 1, ST_UINT8, CPU, NULL, NULL, &du));
  EXPECT_OK(st_tensor_from_data(s, &n, NULL, 1, ST_INT8, CPU, NULL, NULL, &ds));
  EXPECT_OK(st_copy(du, src, 0));
  EXPECT_OK(st_copy(ds, src, 0));
  assert_int_equal(u[0], 255);
  assert_int_equal(u[1], 0);
  assert_int_equal(u[2], 128);
  assert_int_equal(u[3], 0);
  assert_int_equal(s[0], 127);
  assert_int_equal(s[1], -1);
  assert_int_equal(s[2], 127); /* saturates; an integer 128 would wrap to -128 */
  assert_int_equal(s[3], 0);
  st_tensor ts[] = {src, du, ds};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

#define TABLE_ENTRIES(name)                                                                                   \
  cmocka_unit_test(copy_from_##name##_to_every_dtype), cmocka_unit_test(to_from_##name##_to_every_dtype),     \
      cmocka_unit_test(copy_from_##name##_through_strided_views)

int main(void) {
  const struct CMUnitTest tests[] = {
      TABLE_ENTRIES(bool),
      TABLE_ENTRIES(uint8),
      TABLE_ENTRIES(int8),
      TABLE_ENTRIES(int16),
      TABLE_ENTRIES(int32),
      TABLE_ENTRIES(int64),
      TABLE_ENTRIES(float16),
      TABLE_ENTRIES(bfloat16),
      TABLE_ENTRIES(float32),
      TABLE_ENTRIES(float64),
      TABLE_ENTRIES(complex64),
      TABLE_ENTRIES(complex128),
      TABLE_ENTRIES(uint16),
      TABLE_ENTRIES(uint32),
      TABLE_ENTRIES(uint64),
      TABLE_ENTRIES(float8_e4m3fn),
      TABLE_ENTRIES(float8_e5m2),
      TABLE_ENTRIES(float8_e8m0fnu),
      TABLE_ENTRIES(float4_e2m1fn_x2),
      TABLE_ENTRIES(float6_e2m3fn),
      TABLE_ENTRIES(float6_e3m2fn),
      cmocka_unit_test(float64_to_float16_rounds_once_from_the_exact_value),
      cmocka_unit_test(int64_to_bfloat16_near_a_tie_rounds_once),
      cmocka_unit_test(complex_to_bool_is_true_when_either_part_is_nonzero),
      cmocka_unit_test(float_to_integer_truncates_then_saturates),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
