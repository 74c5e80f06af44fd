// Tensor creation through the dispatcher: empty_strided dispatched on its
// device to the CPU kernel (or, for a device without a backend, to its
// CompositeImplicit kernel, which says why), and empty_like on
// CompositeImplicit calling empty_strided.
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

#include "core/empty.h"
#include "core/runtime/cuda_hooks.h"
#include "dispatch/registration.h"
#include "dispatch_test_support.h"
#include "ops/empty.h"

using namespace st;
using namespace st::dispatch;
using test::expect_contains;
using test::expect_error;

namespace {

struct Allocation {
  DimVector sizes, strides;
  Device device;
  DispatchKeySet keys;
};
std::vector<Allocation> g_allocations;

Tensor recording_empty_strided(DispatchKeySet keys, const DimVector& sizes, const DimVector& strides,
                               ScalarType dtype, Device device) {
  g_allocations.push_back(Allocation{sizes, strides, device, keys});
  return empty_cpu(sizes, strides, dtype);
}

// CUDA hooks that accept every device, as a CUDA build on a GPU machine would.
struct AcceptingCudaHooks final : CudaHooks {
  bool is_built() const override { return true; }
  int device_count() const override { return 1; }
  void check_device(Device) const override {}
};

}  // namespace

static void cpu_device_runs_the_cpu_kernel(void**) {
  const Tensor t = ops::empty_strided({2, 3}, {1, 2}, ScalarType::Int16, cpu_device());
  assert_true(t.sizes() == (DimVector{2, 3}));
  assert_true(t.strides() == (DimVector{1, 2}));
  assert_int_equal(t.dtype(), ScalarType::Int16);
  assert_true(t.device() == cpu_device());
  assert_int_equal(t.storage()->nbytes(), 6 * 2);
  const Tensor c = ops::empty({4, 5}, ScalarType::Float64, cpu_device());
  assert_true(c.strides() == (DimVector{5, 1}));
}

static void factories_dispatch_on_their_device_to_the_newest_cpu_kernel(void**) {
  g_allocations.clear();
  KernelRegistration r = register_kernel("empty_strided", DispatchKey::CPU, &recording_empty_strided);
  const Tensor a = ops::empty({2, 3}, ScalarType::Float32, cpu_device());
  assert_int_equal(g_allocations.size(), 1);
  assert_true(g_allocations[0].strides == (DimVector{3, 1}));
  assert_true(g_allocations[0].keys == DispatchKeySet(DispatchKey::CPU));  // the device's keys, no other layer
  // empty_like allocates through a full call of empty_strided.
  const Tensor src = ops::empty({2, 3, 4, 5}, ScalarType::Float32, cpu_device());
  const Tensor like = ops::empty_like(src, MemoryFormat::ChannelsLast);
  assert_int_equal(g_allocations.size(), 3);
  assert_true(g_allocations[2].sizes == (DimVector{2, 3, 4, 5}));
  assert_true(g_allocations[2].strides == (DimVector{60, 1, 15, 3}));
  assert_true(like.strides() == (DimVector{60, 1, 15, 3}));
  r.reset();
  const Tensor b = ops::empty({2}, ScalarType::Float32, cpu_device());
  assert_int_equal(g_allocations.size(), 3);
}

static void cuda_devices_answer_device_unavailable_without_cuda(void**) {
  if (cuda_hooks().is_built()) {
    std::printf("skipped: this build has CUDA; the CUDA backend's tests cover its devices\n");
    return;
  }
  std::string msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE,
                                 [] { ops::empty({2}, ScalarType::Float32, Device{DeviceType::CUDA, 0}); });
  expect_contains(msg, "cuda:0");
  expect_error(ST_ERROR_DEVICE_UNAVAILABLE,
               [] { ops::empty({2}, ScalarType::Float32, Device{DeviceType::CUDAHost, 0}); });
}

// Whatever the build and the machine: a bad layout is an argument error,
// reported before any device's answer.
static void layout_errors_come_before_the_devices_answer(void**) {
  for (DeviceType type : {DeviceType::CUDA, DeviceType::CUDAHost}) {
    const std::string msg = expect_error(ST_ERROR_INVALID_ARGUMENT, [&] {
      ops::empty_strided({3, 4}, {-1, 3}, ScalarType::Float32, Device{type, 0});
    });
    expect_contains(msg, "strides[0] = -1");
  }
  expect_error(ST_ERROR_INVALID_ARGUMENT,
               [] { ops::empty_strided({-2}, {1}, ScalarType::Float32, Device{DeviceType::CUDA, 7}); });
}

static void backend_without_kernel_is_not_implemented(void**) {
  const OperatorEntry* op = Dispatcher::singleton().find("empty_strided");
  assert_non_null(op);
  for (DispatchKey k : op->registered_keys()) {
    if (k == DispatchKey::CUDA) {
      std::printf("skipped: empty_strided has a CUDA kernel in this build\n");
      return;
    }
  }
  const CudaHooks* previous = &cuda_hooks();
  static const AcceptingCudaHooks accepting;
  install_cuda_hooks(&accepting);
  const std::string msg = expect_error(ST_ERROR_NOT_IMPLEMENTED, [] {
    ops::empty({2}, ScalarType::Float32, Device{DeviceType::CUDA, 0});
  });
  install_cuda_hooks(previous);
  assert_string_equal(msg.c_str(), "empty_strided: no allocator for device cuda:0 in this build");
}

// Pinned host memory dispatches as CPU memory; the CPU kernel checks the
// layout, then asks the CUDA hooks for the span's bytes on that device.
struct PinnedRecordingHooks final : CudaHooks {
  bool is_built() const override { return true; }
  int device_count() const override { return 2; }
  void check_device(Device) const override {}
  Storage allocate(size_t nbytes, Device device) const override {
    requests.push_back({nbytes, device});
    return Storage::make(buffer, nbytes, device, MemoryRelease{});
  }
  mutable std::vector<std::pair<size_t, Device>> requests;
  mutable unsigned char buffer[256] = {};
};

static void pinned_memory_comes_from_the_cuda_hooks(void**) {
  const CudaHooks* previous = &cuda_hooks();
  static PinnedRecordingHooks hooks;
  hooks.requests.clear();
  install_cuda_hooks(&hooks);
  const Device pinned{DeviceType::CUDAHost, 1};
  // Strides (1, 3) over sizes (3, 4): a span of 12 int32 elements.
  const Tensor t = ops::empty_strided({3, 4}, {1, 3}, ScalarType::Int32, pinned);
  // A layout error is reported before any allocation.
  const std::string msg = expect_error(ST_ERROR_INVALID_ARGUMENT,
                                       [&] { ops::empty_strided({3, 4}, {-1, 3}, ScalarType::Int32, pinned); });
  // Zero strides that count more elements than int64 holds: refused before allocating.
  expect_error(ST_ERROR_OUT_OF_MEMORY, [&] {
    ops::empty_strided({INT64_MAX / 2, 4}, {0, 0}, ScalarType::Int32, pinned);
  });
  install_cuda_hooks(previous);
  assert_int_equal(hooks.requests.size(), 1);
  assert_int_equal(hooks.requests[0].first, 12 * 4);
  assert_true(hooks.requests[0].second == pinned);
  assert_true(t.device() == pinned);
  assert_ptr_equal(t.data(), hooks.buffer);
  assert_true(t.sizes() == (DimVector{3, 4}));
  assert_true(t.strides() == (DimVector{1, 3}));
  expect_contains(msg, "strides[0] = -1 is negative");
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(cpu_device_runs_the_cpu_kernel),
      cmocka_unit_test(factories_dispatch_on_their_device_to_the_newest_cpu_kernel),
      cmocka_unit_test(cuda_devices_answer_device_unavailable_without_cuda),
      cmocka_unit_test(layout_errors_come_before_the_devices_answer),
      cmocka_unit_test(backend_without_kernel_is_not_implemented),
      cmocka_unit_test(pinned_memory_comes_from_the_cuda_hooks),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
