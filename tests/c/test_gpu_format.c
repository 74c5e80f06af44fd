/* st_tensor_format of tensors in CUDA device memory and in pinned host
 * memory: the text of each equals that of the same values on the CPU
 * (which test_format.c and tests/numpy/test_numpy_format.py check against
 * NumPy), for small, summarized and flipped float32 tensors.
 *
 * Needs a GPU: without one (or in a build without CUDA) it prints why and
 * exits 77, which ctest reports as skipped. */
#include <stdlib.h>

#include "support.h"

/* Asserts that `cpu` prints the same on the device `where` (through st_to). */
static void expect_same_text_on(st_tensor cpu, st_device where) {
  st_tensor moved = {0};
  EXPECT_OK(st_to(cpu, ST_FLOAT32, where, ST_MEMORY_FORMAT_PRESERVE, &moved));
  st_tensor flipped_cpu = {0}, flipped = {0};
  EXPECT_OK(st_flip(cpu, 0, &flipped_cpu));
  EXPECT_OK(st_flip(moved, 0, &flipped));
  const st_tensor pairs[2][2] = {{cpu, moved}, {flipped_cpu, flipped}};
  for (int i = 0; i < 2; ++i) {
    char* want = tensor_text(pairs[i][0], NULL);
    char* got = tensor_text(pairs[i][1], NULL);
    assert_string_equal(got, want);
    free(want);
    free(got);
  }
  st_tensor ts[] = {moved, flipped_cpu, flipped};
  for (int i = 0; i < 3; ++i) EXPECT_OK(st_tensor_release(ts[i]));
}

static void device_and_pinned_tensors_print_as_on_the_cpu(void** state) {
  (void)state;
  const st_device places[2] = {{ST_DEVICE_CUDA, 0}, {ST_DEVICE_CUDA_HOST, 0}};
  st_tensor small = make_iota_f32(DIMS(3, 4), 2);
  st_tensor large = make_iota_f32(DIMS(40, 50), 2); /* 2000 elements: summarized */
  for (int p = 0; p < 2; ++p) {
    expect_same_text_on(small, places[p]);
    expect_same_text_on(large, places[p]);
  }
  EXPECT_OK(st_tensor_release(small));
  EXPECT_OK(st_tensor_release(large));
}

int main(void) {
  cuda_devices_or_skip();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_and_pinned_tensors_print_as_on_the_cpu),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
