// The copy kernels on a GPU where only a device shows their behaviour: a
// launch reports its own error only (Note [A launch reports its own
// error]): an error the application left pending fails no copy, and is
// still pending afterwards.
//
// Needs a GPU; without one it prints why and exits 77 (ctest: skipped).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda/cuda_error.h"
#include "gpu_support.h"
#include "stride.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

namespace {

__global__ void application_kernel() {}

st_tensor create_on_gpu(const std::vector<int64_t>& sizes, st_dtype dtype) {
  st_tensor t = {0};
  assert_int_equal(st_tensor_create(sizes.data(), static_cast<int32_t>(sizes.size()), dtype, {ST_DEVICE_CUDA, 0}, &t),
                   ST_OK);
  return t;
}

// An application's launch fails with a bad configuration (a non-sticky
// error, left pending); then stride copies and fills on the device, each
// kind of kernel once. None may fail, and the application's error must
// still be there for it to read, once.
void pending_application_error_fails_no_copy(void**) {
  const std::vector<int64_t> sizes = {64, 48};
  st_tensor a = create_on_gpu(sizes, ST_FLOAT32), b = create_on_gpu(sizes, ST_FLOAT32);
  st_tensor c = create_on_gpu(sizes, ST_FLOAT64), d = create_on_gpu({48, 64}, ST_FLOAT32), back = {0};
  assert_int_equal(st_cuda_synchronize(0), ST_OK);
  assert_int_equal(cudaGetLastError(), cudaSuccess);

  application_kernel<<<1, 4096>>>();  // more threads than any block may have
  assert_int_equal(cudaPeekAtLastError(), cudaErrorInvalidConfiguration);

  assert_int_equal(st_fill(a, 1.5), ST_OK);        // fill_contiguous_kernel
  assert_int_equal(st_copy(b, a, 0), ST_OK);       // copy_bytes_kernel
  assert_int_equal(st_copy(c, a, 0), ST_OK);       // convert_vectorized_kernel
  st_tensor dt = {0};
  assert_int_equal(st_transpose(d, 0, 1, &dt), ST_OK);
  assert_int_equal(st_copy(dt, a, 0), ST_OK);      // 64 × 48 into a column-major one: copy_transpose_kernel
  st_tensor every_other = {0};
  assert_int_equal(st_slice(a, 1, 0, 48, 2, &every_other), ST_OK);
  st_tensor half = {0};
  assert_int_equal(st_slice(c, 1, 0, 24, 1, &half), ST_OK);
  assert_int_equal(st_copy(half, every_other, 0), ST_OK);  // copy_strided_kernel, converting
  assert_int_equal(st_cuda_synchronize(0), ST_OK);
  std::printf("the application's error, after the copies: %s\n", cudaGetErrorName(cudaPeekAtLastError()));
  assert_int_equal(cudaGetLastError(), cudaErrorInvalidConfiguration);
  assert_int_equal(cudaGetLastError(), cudaSuccess);

  // The copies did their work: c holds 1.5 everywhere.
  assert_int_equal(st_to(c, ST_FLOAT64, {ST_DEVICE_CPU, 0}, ST_MEMORY_FORMAT_CONTIGUOUS, &back), ST_OK);
  void* data = nullptr;
  assert_int_equal(st_tensor_data_ptr(back, &data), ST_OK);
  const double* v = static_cast<const double*>(data);
  for (int64_t i = 0; i < 64 * 48; ++i) assert_true(v[i] == 1.5);
  for (st_tensor x : {a, b, c, d, back, dt, every_other, half}) assert_int_equal(st_tensor_release(x), ST_OK);
}

}  // namespace

int main() {
  gpu_support::exit_unless_a_device();
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pending_application_error_fails_no_copy),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
