/* Sizes whose product overflows int64 are refused with OUT_OF_MEMORY, never
 * computed with undefined behaviour (the sanitizer builds run this). */
#include "support.h"

static void create_refuses_overflowing_sizes(void** state) {
  (void)state;
  int64_t sizes[2] = {(int64_t)1 << 62, (int64_t)1 << 62};
  st_tensor t = {7};
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_tensor_create(sizes, 2, ST_FLOAT32, CPU, &t));
  assert_int_equal(t.id, 0);
  float x = 0;
  EXPECT_STATUS(ST_ERROR_OUT_OF_MEMORY, st_tensor_from_data(&x, sizes, NULL, 2, ST_FLOAT32, CPU, NULL, NULL, &t));
}

static void empty_tensor_with_huge_dims(void** state) {
  (void)state;
  /* No elements: valid, and the row-major strides saturate instead of overflowing. */
  int64_t sizes[3] = {0, (int64_t)1 << 40, (int64_t)1 << 40};
  st_tensor t;
  EXPECT_OK(st_tensor_create(sizes, 3, ST_UINT8, CPU, &t));
  int64_t strides[3];
  EXPECT_OK(st_tensor_strides(t, strides, 3));
  assert_int_equal(strides[2], 1);
  assert_int_equal(strides[1], (int64_t)1 << 40);
  assert_int_equal(strides[0], INT64_MAX);
  EXPECT_OK(st_tensor_release(t));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(create_refuses_overflowing_sizes),
      cmocka_unit_test(empty_tensor_with_huge_dims),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
