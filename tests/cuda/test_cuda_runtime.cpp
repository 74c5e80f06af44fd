// The CUDA runtime layer: error translation, device status, and the hooks
// the rest of the library calls. Runs anywhere: without a GPU every device
// use must be refused with the reason; with one, memory and streams must work.
#include <cuda_runtime_api.h>

#include <cstring>
#include <string>

#include "core/cuda_hooks.h"
#include "core/error.h"
#include "cuda/cuda_error.h"
#include "cuda/device_status.h"
#include "cuda/empty.h"
#include "cuda/stream.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::Device;
using st::DeviceType;

namespace {

cudaError_t returns(cudaError_t e) { return e; }

// Runs `body`; true when it threw st::Error with `code` and a message containing `text`.
template <typename Body>
bool throws(Body&& body, st_status code, const std::string& text) {
  try {
    body();
  } catch (const st::Error& e) {
    if (e.code() == code && std::strstr(e.what(), text.c_str())) return true;
    print_error("threw %s \"%s\", expected %s containing \"%s\"\n", st_status_name(e.code()), e.what(),
                st_status_name(code), text.c_str());
    return false;
  }
  print_error("did not throw, expected %s containing \"%s\"\n", st_status_name(code), text.c_str());
  return false;
}

void cuda_check_names_the_call_and_the_error(void**) {
  assert_true(throws([] { ST_CUDA_CHECK(returns(cudaErrorInvalidValue)); }, ST_ERROR_DEVICE_FAILURE,
                     "returns(cudaErrorInvalidValue) failed: cudaErrorInvalidValue: invalid argument"));
  assert_true(throws([] { ST_CUDA_CHECK(returns(cudaErrorMemoryAllocation)); }, ST_ERROR_OUT_OF_MEMORY,
                     "returns(cudaErrorMemoryAllocation) failed: cudaErrorMemoryAllocation: out of memory"));
  ST_CUDA_CHECK(returns(cudaSuccess));  // no throw
}

void hooks_are_installed(void**) {
  const st::CudaHooks& hooks = st::cuda_hooks();
  assert_true(hooks.is_built());
  assert_int_equal(hooks.device_count(), st::cuda::device_status().count);
  print_message("CUDA devices: %d%s%s\n", hooks.device_count(), hooks.device_count() ? "" : "; ",
                st::cuda::device_status().reason.c_str());
}

// Index device_count() is missing on every machine: without a GPU the
// message gives the reason, with one it says the index is out of range.
void a_missing_device_is_refused_with_the_reason(void**) {
  const st::cuda::DeviceStatus& s = st::cuda::device_status();
  if (s.count == 0) assert_true(!s.reason.empty());
  const int index = s.count;
  const std::string why = s.count ? "is out of range" : "is unavailable: " + s.reason;
  const std::string cuda = "device cuda:" + std::to_string(index) + " " + why;
  const std::string host = "device cuda_host:" + std::to_string(index) + " (pinned host memory) " + why;
  const Device gpu{DeviceType::CUDA, index}, pinned{DeviceType::CUDAHost, index};
  const st::CudaHooks& hooks = st::cuda_hooks();
  const st_status unavailable = ST_ERROR_DEVICE_UNAVAILABLE;
  assert_true(throws([&] { hooks.check_device(gpu); }, unavailable, cuda));
  assert_true(throws([&] { hooks.check_device(pinned); }, unavailable, host));
  assert_true(throws([&] { hooks.current_stream(index); }, unavailable, cuda));
  assert_true(throws([&] { hooks.set_stream(index, nullptr); }, unavailable, cuda));
  assert_true(throws([&] { hooks.synchronize(index); }, unavailable, cuda));
  assert_true(throws([&] { hooks.allocate(16, gpu); }, unavailable, cuda));
  assert_true(throws([&] { hooks.allocate(16, pinned); }, unavailable, host));
  const st::DimVector sizes{2, 3}, strides{3, 1};
  assert_true(throws([&] { st::cuda::empty_strided_cuda(sizes, strides, st::ScalarType::Float32, gpu); }, unavailable,
                     cuda));
  assert_true(throws([&] { st::cuda::empty_strided_pinned(sizes, strides, st::ScalarType::Float32, pinned); },
                     unavailable, host));
}

void empty_checks_the_device_type(void**) {
  const st::DimVector sizes{2}, strides{1};
  assert_true(throws([&] { st::cuda::empty_strided_cuda(sizes, strides, st::ScalarType::Int8, st::cpu_device()); },
                     ST_ERROR_INVALID_ARGUMENT, "device cpu:0 is not a CUDA device"));
  assert_true(throws(
      [&] { st::cuda::empty_strided_pinned(sizes, strides, st::ScalarType::Int8, Device{DeviceType::CUDA, 0}); },
      ST_ERROR_INVALID_ARGUMENT, "device cuda:0 is not pinned host memory"));
}

// With a GPU: memory of both kinds, on the current stream, and streams set
// per thread. Without one there is nothing to allocate; the refusals are
// checked above.
void with_a_gpu_memory_and_streams_work(void**) {
  const int n = st::cuda::device_status().count;
  if (n == 0) {
    print_message("skipped: no CUDA device (%s)\n", st::cuda::device_status().reason.c_str());
    skip();
  }
  const st::CudaHooks& hooks = st::cuda_hooks();
  const Device gpu{DeviceType::CUDA, 0}, pinned{DeviceType::CUDAHost, 0};
  assert_null(hooks.current_stream(0));
  cudaStream_t stream = nullptr;
  ST_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  hooks.set_stream(0, stream);
  assert_ptr_equal(hooks.current_stream(0), stream);
  {
    const st::DimVector sizes{4, 5}, strides{1, 4};
    const st::Tensor t = st::cuda::empty_strided_cuda(sizes, strides, st::ScalarType::Float64, gpu);
    assert_true(t.device() == gpu);
    assert_int_equal(t.storage()->nbytes(), 4 * 5 * 8);
    cudaPointerAttributes attr;
    ST_CUDA_CHECK(cudaPointerGetAttributes(&attr, t.data()));
    assert_int_equal(attr.type, cudaMemoryTypeDevice);
    assert_int_equal(attr.device, 0);
    ST_CUDA_CHECK(cudaMemsetAsync(t.data(), 0, 160, stream));
    const st::Tensor h = st::cuda::empty_strided_pinned(sizes, strides, st::ScalarType::Float64, pinned);
    ST_CUDA_CHECK(cudaPointerGetAttributes(&attr, h.data()));
    assert_int_equal(attr.type, cudaMemoryTypeHost);
    const st::Tensor none = st::cuda::empty_strided_cuda({0, 3}, {3, 1}, st::ScalarType::Float32, gpu);
    assert_null(none.data());
  }  // freed on `stream`
  hooks.synchronize(0);
  hooks.set_stream(0, nullptr);
  assert_null(hooks.current_stream(0));
  ST_CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cuda_check_names_the_call_and_the_error),
      cmocka_unit_test(hooks_are_installed),
      cmocka_unit_test(a_missing_device_is_refused_with_the_reason),
      cmocka_unit_test(empty_checks_the_device_type),
      cmocka_unit_test(with_a_gpu_memory_and_streams_work),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
