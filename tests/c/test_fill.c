/* st_fill and st_zero: the value converted to every dtype by the rules
 * (expected results written out by hand), expanded and self-overlapping
 * dsts allowed, and nothing written outside dst's elements. Set
 * ST_TEST_SEED to replay other random cases. */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include "copy_support.h"

/* Columns as in test_copy_dtypes.c: bool, uint8, int8, int16, int32, int64,
 * float16 bits, bfloat16 bits, float32, float64, uint16, uint32, uint64,
 * float8_e4m3fn bits, float8_e5m2 bits; complex is (float, +0). */
/* The float8_e8m0fnu and float6 columns (the last three) were computed by
 * a rule written apart from the library (exact rationals, each format's
 * values searched for the nearest, ties to the even code; e8m0 by c10's
 * rule). */
#define R(b, u8, i8, i16, i32, i64, f16, bf16, f32, f64, u16, u32, u64, e4m3fn, e5m2, e8m0, e2m3, e3m2)          \
  {                                                                                                           \
    (b), (u8), (i8), (i16), (i32), (i64), (f16), (bf16), (f32), (f64), {(f32), 0.0f}, {(f64), 0.0}, (u16), (u32), \
        (u64), (e4m3fn), (e5m2), (e8m0), 0, (e2m3), (e3m2)                                                     \
  }

static const double fill_values[] = {
    0.0, -0.0, 1.0, 0.5, 300.7, -300.7, 128.0, -129.9, 65520.0, 0x1.0020000001p0, 1e10, INFINITY, -INFINITY, NAN,
    464.0, 464.0 + 0x1p-30, 61440.0 - 0x1p-20, 61440.0, 0x1p-10, 0x1p64, 0x1p64 - 2048, -1.0,
};
static const every_dtype fill_want[] = {
    R(0, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00),
    R(0, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, 0, 0, 0, 0x80, 0x80, 0x00, 0x20, 0x20),
    R(1, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 0, 0, 0, 0, 0, 0x3800, 0x3F00, 0.5f, 0.5, 0, 0, 0, 0x30, 0x38, 0x7E, 0x04, 0x08),
    /* float → integer truncates, then saturates: 300 is 127 in int8, not 44 */
    R(1, 255, 127, 300, 300, 300, 0x5CB3, 0x4396, 300.7f, 300.7, 300, 300, 300, 0x79, 0x5D, 0x87, 0x1F, 0x1F),
    R(1, 0, -128, -300, -300, -300, 0xDCB3, 0xC396, -300.7f, -300.7, 0, 0, 0, 0xF9, 0xDD, 0x87, 0x3F, 0x3F),
    R(1, 128, 127, 128, 128, 128, 0x5800, 0x4300, 128.0f, 128.0, 128, 128, 128, 0x70, 0x58, 0x86, 0x1F, 0x1F),
    R(1, 0, -128, -129, -129, -129, 0xD80F, 0xC302, -129.9f, -129.9, 0, 0, 0, 0xF0, 0xD8, 0x86, 0x3F, 0x3F),
    R(1, 255, 127, 32767, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0, 65520, 65520, 65520, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    /* float16 rounded once from the double (through float32 it would be 0x3C00) */
    R(1, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 0x1.002p0f, 0x1.0020000001p0, 1, 1, 1, 0x38, 0x3C, 0x7F, 0x08, 0x0C),
    R(1, 255, 127, 32767, INT32_MAX, INT64_C(10000000000), 0x7C00, 0x5015, 1e10f, 1e10, 65535, UINT32_MAX,
      UINT64_C(10000000000), 0x7F, 0x7C, 0xA0, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, INFINITY, INFINITY, 65535, UINT32_MAX, UINT64_MAX, 0x7F,
      0x7C, 0xFF, 0x1F, 0x1F), /* float8_e4m3fn has no infinity: NaN */
    R(1, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -INFINITY, -INFINITY, 0, 0, 0, 0xFF, 0xFC, 0xFF, 0x3F, 0x3F),
    R(1, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, NAN, NAN, 0, 0, 0, 0x7F, 0x7E, 0xFF, 0x1F, 0x1F), /* NaN → 0 for integers, nonzero for bool */
    /* float8_e4m3fn: 464 is the tie 448 | 480, to even 448; a hair above it, NaN */
    R(1, 255, 127, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0, 464, 464, 464, 0x7E, 0x5F, 0x88, 0x1F, 0x1F),
    R(1, 255, 127, 464, 464, 464, 0x5F40, 0x43E8, 464.0f, 464.0000000009313, 464, 464, 464, 0x7F, 0x5F, 0x88, 0x1F, 0x1F),
    /* float8_e5m2: 61440 is the tie 57344 | 65536, to even 65536: inf; a hair below it, 57344 */
    R(1, 255, 127, 32767, 61439, 61439, 0x7B80, 0x4770, 61440.0f, 61439.999999046326, 61439, 61439, 61439, 0x7F, 0x7B, 0x8F, 0x1F, 0x1F),
    R(1, 255, 127, 32767, 61440, 61440, 0x7B80, 0x4770, 61440.0f, 61440.0, 61440, 61440, 61440, 0x7F, 0x7C, 0x8F, 0x1F, 0x1F),
    R(1, 0, 0, 0, 0, 0, 0x1400, 0x3A80, 0x1p-10f, 0x1p-10, 0, 0, 0, 0x00, 0x14, 0x75, 0x00, 0x00), /* e4m3fn: a tie, to even 0 */
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1p64f, 0x1p64, 65535, UINT32_MAX, UINT64_MAX, 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F80, 0x1p64f, 0x1p64 - 2048, 65535, UINT32_MAX,
      UINT64_C(18446744073709549568), 0x7F, 0x7C, 0xBF, 0x1F, 0x1F),
    R(1, 0, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 0, 0, 0, 0xB8, 0xBC, 0x7F, 0x28, 0x2C), /* saturates to 0 when unsigned */
};
_Static_assert(sizeof fill_values / sizeof fill_values[0] == sizeof fill_want / sizeof fill_want[0],
               "one expected row per value");
#define NUM_VALUES ((int)(sizeof fill_values / sizeof fill_values[0]))

static int32_t g_threads_before;

static int save_threads(void** state) {
  (void)state;
  g_threads_before = st_get_num_threads();
  return 0;
}

static int restore_threads(void** state) {
  (void)state;
  return st_set_num_threads(g_threads_before) == ST_OK ? 0 : -1;
}

static void fill_converts_the_value_to_every_dtype(void** state) {
  (void)state;
  for (int d = 0; d < NUM_DTYPES; ++d) {
    st_tensor t = make_tensor(DIMS(2, 3), 2, (st_dtype)d);
    const size_t item = st_dtype_itemsize((st_dtype)d);
    if (d == ST_FLOAT4_E2M1FN_X2) {
      /* It holds pairs: no value converts to it, and nothing is written. */
      unsigned char* p = data_ptr(t);
      memset(p, 0x5A, 6);
      EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_fill(t, 1.0));
      expect_message_contains("float4_e2m1fn_x2");
      EXPECT_STATUS(ST_ERROR_UNSUPPORTED_DTYPE, st_zero(t));
      for (int i = 0; i < 6; ++i) assert_int_equal(p[i], 0x5A);
      EXPECT_OK(st_tensor_release(t));
      continue;
    }
    for (int v = 0; v < NUM_VALUES; ++v) {
      EXPECT_OK(st_fill(t, fill_values[v]));
      const unsigned char* p = data_ptr(t);
      for (int i = 0; i < 6; ++i) {
        char what[64];
        snprintf(what, sizeof what, "fill value %d (%g), element %d", v, fill_values[v], i);
        expect_element((st_dtype)d, p + (size_t)i * item, &fill_want[v], what);
      }
    }
    EXPECT_OK(st_tensor_release(t));
  }
}

static void zero_writes_all_zero_bits_in_every_dtype(void** state) {
  (void)state;
  for (int d = 0; d < NUM_DTYPES; ++d) {
    if (d == ST_FLOAT4_E2M1FN_X2) continue; /* refused: fill_converts_the_value_to_every_dtype */
    st_tensor t = make_tensor(DIMS(7), 1, (st_dtype)d);
    const size_t nbytes = 7 * st_dtype_itemsize((st_dtype)d);
    unsigned char* p = data_ptr(t);
    memset(p, 0xFF, nbytes);
    EXPECT_OK(st_zero(t));
    for (size_t b = 0; b < nbytes; ++b) assert_int_equal(p[b], 0); /* +0 in every dtype */
    EXPECT_OK(st_tensor_release(t));
  }
}

static void fill_of_a_scalar_and_of_an_empty_tensor(void** state) {
  (void)state;
  int16_t value = 0;
  st_tensor s = {0}, empty = make_tensor(DIMS(3, 0), 2, ST_FLOAT64);
  EXPECT_OK(st_tensor_from_data(&value, NULL, NULL, 0, ST_INT16, CPU, NULL, NULL, &s));
  EXPECT_OK(st_fill(s, -7.9));
  assert_int_equal(value, -7);
  EXPECT_OK(st_fill(empty, 1.0));
  EXPECT_OK(st_zero(empty));
  EXPECT_OK(st_tensor_release(s));
  EXPECT_OK(st_tensor_release(empty));
}

static void fill_of_an_expanded_dst_sets_the_elements_it_views(void** state) {
  (void)state;
  float mem[5] = {-1, -1, -1, -1, -1};
  st_tensor whole = {0}, row = {0}, rows = {0};
  EXPECT_OK(st_tensor_from_data(mem, DIMS(5), NULL, 1, ST_FLOAT32, CPU, NULL, NULL, &whole));
  EXPECT_OK(st_as_strided(whole, DIMS(1, 3), DIMS(3, 1), 2, 1, &row));
  EXPECT_OK(st_expand(row, DIMS(4, 3), 2, &rows));
  EXPECT_OK(st_fill(rows, 2.5));
  const float want[5] = {-1, 2.5f, 2.5f, 2.5f, -1};
  assert_memory_equal(mem, want, sizeof want);
  EXPECT_OK(st_zero(rows));
  assert_true(mem[0] == -1.0f && mem[1] == 0.0f && mem[3] == 0.0f && mem[4] == -1.0f);
  st_tensor ts[] = {whole, row, rows};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void fill_of_a_self_overlapping_dst_is_allowed(void** state) {
  (void)state;
  int32_t mem[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  st_tensor whole = {0}, windows = {0};
  EXPECT_OK(st_tensor_from_data(mem, DIMS(8), NULL, 1, ST_INT32, CPU, NULL, NULL, &whole));
  EXPECT_OK(st_as_strided(whole, DIMS(3, 3), DIMS(1, 1), 2, 1, &windows)); /* elements 1..5, each several times */
  EXPECT_OK(st_fill(windows, 4.0));
  const int32_t want[8] = {9, 4, 4, 4, 4, 4, 9, 9};
  assert_memory_equal(mem, want, sizeof want);
  EXPECT_OK(st_tensor_release(whole));
  EXPECT_OK(st_tensor_release(windows));
}

/* Fills view `l` of a buffer with a small integer and compares every byte
 * of the buffer with the reference: the value at dst's elements (a 0-d
 * source broadcast by reference_copy), the old bytes elsewhere. */
static void expect_fill_matches_the_reference(buffer* b, const layout* l, int64_t value, const char* what) {
  const size_t nbytes = (size_t)b->numel * b->itemsize;
  unsigned char* before = malloc(nbytes);
  unsigned char* want = malloc(nbytes);
  unsigned char scalar[16];
  layout none;
  memset(&none, 0, sizeof none);
  assert_true(before && want);
  put_small_int(b->dtype, scalar, value);
  memcpy(before, b->bytes, nbytes);
  memcpy(want, b->bytes, nbytes);
  reference_copy(want, b->dtype, l, scalar, b->dtype, &none);
  st_tensor dst = buffer_view(b, l);
  for (int32_t threads = 1; threads <= 2; ++threads) {
    memcpy(b->bytes, before, nbytes);
    EXPECT_OK(st_set_num_threads(threads));
    EXPECT_OK(st_fill(dst, (double)value));
    expect_same_bytes(b->bytes, want, nbytes, b->itemsize, what);
  }
  EXPECT_OK(st_tensor_release(dst));
  free(before);
  free(want);
}

static void fill_of_random_strided_dsts_leaves_the_gaps_untouched(void** state) {
  (void)state;
  uint64_t seed = test_seed("fill_of_random_strided_dsts", 20240651ull);
  for (int i = 0; i < 1000; ++i) {
    uint64_t rng = seed ^ ((uint64_t)i * 0x9E3779B97F4A7C15ull);
    int32_t nd = 1 + (int32_t)rng_below(&rng, 6);
    int64_t sizes[ST_MAX_DIMS];
    for (int32_t d = 0; d < nd; ++d) sizes[d] = rng_below(&rng, 20) == 0 ? 0 : 1 + rng_below(&rng, 7);
    layout l;
    st_dtype dtype = (st_dtype)rng_below(&rng, NUM_DTYPES);
    if (dtype == ST_FLOAT4_E2M1FN_X2) dtype = ST_FLOAT6_E2M3FN; /* nothing fills it */
    buffer b = buffer_create(dtype, random_layout(&rng, nd, sizes, 1, &l), &rng);
    int64_t value = random_small_int(dtype, dtype, &rng);
    char what[96];
    snprintf(what, sizeof what, "seed %llu case %d (%s)", (unsigned long long)seed, i, st_dtype_name(dtype));
    expect_fill_matches_the_reference(&b, &l, value, what);
    buffer_destroy(&b);
  }
}

static void fill_of_a_large_matrix_with_gaps_between_rows(void** state) {
  (void)state;
  uint64_t rng = 99;
  layout l = row_major(2, DIMS(2000, 1000), 3);
  l.strides[0] = 1024;
  buffer b = buffer_create(ST_FLOAT32, 2000 * 1024 + 3, &rng);
  expect_fill_matches_the_reference(&b, &l, -42, "2000 rows of 1000, 1024 apart");
  buffer_destroy(&b);
  /* the same memory through a flipped, transposed view */
  layout t = l;
  t.sizes[0] = 1000, t.sizes[1] = 2000, t.strides[0] = -1, t.strides[1] = 1024, t.offset = 3 + 999;
  b = buffer_create(ST_INT16, 2000 * 1024 + 3, &rng);
  expect_fill_matches_the_reference(&b, &t, 17, "flipped transposed view");
  buffer_destroy(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fill_converts_the_value_to_every_dtype),
      cmocka_unit_test(zero_writes_all_zero_bits_in_every_dtype),
      cmocka_unit_test(fill_of_a_scalar_and_of_an_empty_tensor),
      cmocka_unit_test(fill_of_an_expanded_dst_sets_the_elements_it_views),
      cmocka_unit_test(fill_of_a_self_overlapping_dst_is_allowed),
      cmocka_unit_test(fill_of_random_strided_dsts_leaves_the_gaps_untouched),
      cmocka_unit_test(fill_of_a_large_matrix_with_gaps_between_rows),
  };
  return cmocka_run_group_tests(tests, save_threads, restore_threads);
}
