/* The shortest life of a tensor: create, view, read back, release. */
#include "support.h"

static void create_transpose_release(void** state) {
  (void)state;
  int64_t sizes[3] = {2, 3, 4};
  st_tensor x = make_tensor(sizes, 3, ST_FLOAT32), xt = {0};
  EXPECT_OK(st_transpose(x, 0, 2, &xt));
  EXPECT_OK(st_tensor_release(x));
  int64_t want_sizes[3] = {4, 3, 2}, want_strides[3] = {1, 4, 12};
  expect_layout(xt, 3, want_sizes, want_strides, 0);
  EXPECT_OK(st_tensor_release(xt));
  EXPECT_STATUS(ST_ERROR_INVALID_HANDLE, st_tensor_release(xt));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(create_transpose_release)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
