// The copy kernels on a GPU where only a device shows their behaviour:
//  - transposes with short extents through tiles shaped to them (Note
//    [Transpose tiles for small extents]): NCHW <-> NHWC with 3 channels,
//    batches of 16 × 16 and other small matrices, each result compared
//    with a reference loop over the elements;
//  - a launch reports its own error only (Note [A launch reports its own
//    error]): an error the code around it left pending in the runtime it
//    shares with stride (this program links stride's objects, so one
//    runtime serves both) fails no copy, and is still pending afterwards.
//
// Needs a GPU; without one it prints why and exits 77 (ctest: skipped).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "copy_cases.h"
#include "core/contiguity.h"
#include "core/empty.h"
#include "core/views.h"
#include "cuda/kernels/copy_part.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/runtime/cuda_error.h"
#include "gpu_support.h"
#include "iter/tensor_iterator.h"
#include "ops/copy.h"
#include "stride.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using copy_cases::describe;
using gpu_support::mirror;
using gpu_support::read_back;

namespace {

const Device kGpu0{DeviceType::CUDA, 0};

// ---- Small-extent transposes against a reference loop.

// dst element ← src element for the pairs these cases use: the same dtype
// (its bytes), or a widening whose every value is exact (no floating-point
// source: random bytes would make NaNs, whose payload a GPU may change).
void reference_element(ScalarType dt, ScalarType st_, unsigned char* d, const unsigned char* s) {
  if (dt == st_) {
    std::memcpy(d, s, itemsize(dt));
  } else if (dt == ScalarType::Float32 && st_ == ScalarType::UInt8) {
    const float v = static_cast<float>(*s);
    std::memcpy(d, &v, sizeof v);
  } else if (dt == ScalarType::Float64 && st_ == ScalarType::Int32) {
    int32_t i;
    std::memcpy(&i, s, sizeof i);
    const double v = i;
    std::memcpy(d, &v, sizeof v);
  } else if (dt == ScalarType::Int32 && st_ == ScalarType::Int16) {
    int16_t i;
    std::memcpy(&i, s, sizeof i);
    const int32_t v = i;
    std::memcpy(d, &v, sizeof v);
  } else {
    (st::fail)(ST_ERROR_INTERNAL, "no reference for this pair");
  }
}

// The whole dst storage after dst ← src, computed element by element.
std::vector<unsigned char> reference_copy(const Tensor& dst, const Tensor& src) {
  std::vector<unsigned char> want = copy_cases::storage_bytes(dst);
  const std::vector<unsigned char> from = copy_cases::storage_bytes(src);
  const std::vector<int64_t> d = copy_cases::element_byte_offsets(dst), s = copy_cases::element_byte_offsets(src);
  for (size_t i = 0; i < d.size(); ++i)
    reference_element(dst.dtype(), src.dtype(), &want[static_cast<size_t>(d[i])], &from[static_cast<size_t>(s[i])]);
  return want;
}

// dst ← src on the GPU (both mirrored there) must equal the reference, and
// the copy must have gone through the tiled transpose kernel.
bool check_transpose(const Tensor& dst, const Tensor& src) {
  bool tiled = true;
  TensorIterator::copy(dst, src).with_32bit_indexing([&](const TensorIterator& part) {
    tiled = tiled && cuda::plan_device_copy(cuda::CopyPart(part)).kernel == cuda::CopyKernel::Transpose;
  });
  if (!tiled) {
    print_error("dst %s <- src %s: not planned as a tiled transpose\n", describe(dst).c_str(), describe(src).c_str());
    return false;
  }
  const Tensor gdst = mirror(dst, kGpu0), gsrc = mirror(src, kGpu0);
  ops::copy_(gdst, gsrc, false);
  if (read_back(gdst) == reference_copy(dst, src)) return true;
  print_error("dst %s <- src %s on the GPU differs from the reference loop\n", describe(dst).c_str(),
              describe(src).c_str());
  return false;
}

Tensor random_tensor(const DimVector& sizes, const DimVector& strides, ScalarType dtype, std::mt19937_64& rng) {
  const Tensor t = empty_cpu(sizes, strides, dtype);
  copy_cases::fill_random_bytes(t, rng);
  return t;
}

struct Pair {
  ScalarType dst, src;
};
const Pair kPairs[] = {{ScalarType::UInt8, ScalarType::UInt8},       {ScalarType::Float16, ScalarType::Float16},
                       {ScalarType::Float32, ScalarType::Float32},   {ScalarType::Float64, ScalarType::Float64},
                       {ScalarType::Complex128, ScalarType::Complex128},
                       {ScalarType::Float32, ScalarType::UInt8},     {ScalarType::Float64, ScalarType::Int32},
                       {ScalarType::Int32, ScalarType::Int16}};

void three_channels_between_nchw_and_nhwc(void**) {
  std::mt19937_64 rng(test_seed("three_channels_between_nchw_and_nhwc"));
  for (const Pair& p : kPairs) {
    for (const DimVector& sizes : {DimVector{2, 3, 37, 41}, DimVector{1, 3, 224, 224}, DimVector{5, 3, 1, 7}}) {
      const DimVector nchw = contiguous_strides(sizes), nhwc = channels_last_strides_2d(sizes);
      if (!check_transpose(random_tensor(sizes, nhwc, p.dst, rng), random_tensor(sizes, nchw, p.src, rng))) fail();
      if (!check_transpose(random_tensor(sizes, nchw, p.dst, rng), random_tensor(sizes, nhwc, p.src, rng))) fail();
    }
  }
}

// Batches of rows × cols matrices, transposed: 16 × 16 (four to a tile),
// and other small extents, some of them dims of a larger permutation.
void small_matrices_in_batches(void**) {
  std::mt19937_64 rng(test_seed("small_matrices_in_batches"));
  const DimVector shapes[] = {{70, 16, 16}, {3, 16, 16}, {9, 2, 2}, {33, 3, 5}, {4, 7, 100}, {4, 100, 7},
                              {2, 2, 5000}, {1, 5000, 2}, {40, 17, 17}, {1, 16, 1000}, {1, 1000, 16}};
  for (const Pair& p : kPairs) {
    for (const DimVector& sizes : shapes) {
      const Tensor src = random_tensor(sizes, contiguous_strides(sizes), p.src, rng);
      const DimVector swapped{sizes[0], sizes[2], sizes[1]};
      const Tensor dst = transpose(random_tensor(swapped, contiguous_strides(swapped), p.dst, rng), 1, 2);
      if (!check_transpose(dst, src)) fail();
    }
    // Bench case F's permutation, at extent 4: every dim short.
    const DimVector six{4, 4, 4, 4, 4, 4};
    const Tensor src = random_tensor(six, contiguous_strides(six), p.src, rng);
    const Tensor dst_base = random_tensor(six, contiguous_strides(six), p.dst, rng);
    const Tensor dst = permute(dst_base, {0, 3, 1, 5, 2, 4});
    if (!check_transpose(dst, src)) fail();
  }
}

// ---- Launch errors.

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
      cmocka_unit_test(three_channels_between_nchw_and_nhwc),
      cmocka_unit_test(small_matrices_in_batches),
      cmocka_unit_test(pending_application_error_fails_no_copy),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
