// The CUDA backend's copy_, copy_plan, fill_ and empty_strided kernels as a
// machine without the named device reaches them: registered for the CUDA
// key, and refusing with the reason once the shared preconditions pass. The device
// index is one past the last device, so this runs (and refuses) on GPU
// machines too, without touching the tensors' made-up memory.
#include <string>

#include "core/error.h"
#include "core/tensor.h"
#include "cuda/runtime/device_status.h"
#include "dispatch/dispatcher.h"
#include "dispatch_test_support.h"
#include "ops/copy.h"
#include "ops/copy_plan.h"
#include "ops/empty.h"
#include "ops/fill.h"

using namespace st;
using test::expect_contains;
using test::expect_error;

namespace {

const int kMissing = cuda::device_status().count;

// A tensor of `sizes` (contiguous float32) over made-up memory of
// `device`, never read or written: each has its own, so that no two share
// an address (the overlap analysis compares addresses).
Tensor fake_on(Device device, const DimVector& sizes, bool read_only = false) {
  static unsigned char fakes[16][256];
  static int next = 0;
  unsigned char* memory = fakes[next++ % 16];
  Storage storage = Storage::make(memory, sizeof fakes[0], device, MemoryRelease{}, read_only);
  DimVector strides(sizes.size(), 1);
  for (int d = sizes.size() - 2; d >= 0; --d) strides[d] = strides[d + 1] * sizes[d + 1];
  return Tensor::make(storage, sizes, strides, 0, ScalarType::Float32);
}

bool has_kernel(const char* op, dispatch::DispatchKey key) {
  const dispatch::OperatorEntry* entry = dispatch::Dispatcher::singleton().find(op);
  if (entry == nullptr) return false;
  for (dispatch::DispatchKey k : entry->registered_keys())
    if (k == key) return true;
  return false;
}

void the_cuda_kernels_are_registered(void**) {
  assert_true(has_kernel("copy_", dispatch::DispatchKey::CUDA));
  assert_true(has_kernel("fill_", dispatch::DispatchKey::CUDA));
  assert_true(has_kernel("empty_strided", dispatch::DispatchKey::CUDA));
  assert_true(has_kernel("copy_plan", dispatch::DispatchKey::CUDA));
}

std::string missing_device_text() {
  return "device cuda:" + std::to_string(kMissing) + " " +
         (kMissing == 0 ? "is unavailable: " + cuda::device_status().reason : std::string("is out of range"));
}

// Between the host and a device, and within a device: the CUDA kernel runs,
// and it refuses the device after the shared preconditions.
void copies_with_a_missing_device_say_why(void**) {
  const Device gpu{DeviceType::CUDA, kMissing};
  const Tensor host = fake_on(cpu_device(), {4, 8});
  const Tensor dev = fake_on(gpu, {4, 8}), dev2 = fake_on(gpu, {4, 8});
  for (int i = 0; i < 3; ++i) {
    const Tensor& dst = i == 1 ? host : dev;
    const Tensor& src = i == 0 ? host : (i == 1 ? dev : dev2);
    const std::string msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE, [&] { ops::copy_(dst, src, i == 0); });
    expect_contains(msg, missing_device_text().c_str());
  }
  // Preconditions first, as on the CPU: broadcast, read-only, self-overlap.
  std::string msg = expect_error(ST_ERROR_SHAPE_MISMATCH, [&] { ops::copy_(dev, fake_on(cpu_device(), {3, 8}), false); });
  expect_contains(msg, "cannot be broadcast");
  expect_error(ST_ERROR_READ_ONLY, [&] { ops::copy_(fake_on(gpu, {4, 8}, true), host, false); });
  const Tensor expanded = Tensor::make(dev.storage(), {4, 8}, {0, 1}, 0, ScalarType::Float32);
  expect_error(ST_ERROR_OVERLAP, [&] { ops::copy_(expanded, host, false); });
  // No element to copy: nothing to refuse.
  ops::copy_(fake_on(gpu, {0, 8}), fake_on(cpu_device(), {0, 8}), false);
  // Pinned memory on a missing device, with a device operand: the CUDA kernel checks dst first.
  const Tensor pinned = fake_on(Device{DeviceType::CUDAHost, kMissing}, {4, 8});
  msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE, [&] { ops::copy_(pinned, dev, false); });
  expect_contains(msg, "cuda_host");
}

// A plan of operands on one device is prepared there, so creating it on a
// missing device says why; a plan between the host and a device prepares
// nothing (each execute runs copy_, which refuses then), and neither do
// the address checks of execute_raw get past the device.
void plans_with_a_missing_device_say_why(void**) {
  const Device gpu{DeviceType::CUDA, kMissing};
  const Tensor host = fake_on(cpu_device(), {4, 8});
  const Tensor dev = fake_on(gpu, {4, 8}), dev2 = fake_on(gpu, {4, 8});
  for (PlanEffort effort : {PlanEffort::Estimate, PlanEffort::Measure}) {
    const std::string msg =
        expect_error(ST_ERROR_DEVICE_UNAVAILABLE, [&] { ops::CopyPlan plan(dev, dev2, nullptr, effort); });
    expect_contains(msg, missing_device_text().c_str());
  }
  const ops::CopyPlan across(dev, host, nullptr, PlanEffort::Estimate);
  std::string msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE, [&] { across.execute(dev.data(), host.data(), false); });
  expect_contains(msg, missing_device_text().c_str());
  msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE, [&] { across.check_addresses(dev.data(), host.data()); });
  expect_contains(msg, missing_device_text().c_str());
  // Preconditions first, as st_copy's.
  expect_error(ST_ERROR_READ_ONLY,
               [&] { ops::CopyPlan plan(fake_on(gpu, {4, 8}, true), dev2, nullptr, PlanEffort::Estimate); });
}

void fills_and_allocations_with_a_missing_device_say_why(void**) {
  const Device gpu{DeviceType::CUDA, kMissing};
  std::string msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE, [&] { ops::fill_(fake_on(gpu, {4, 8}), 1.0); });
  expect_contains(msg, missing_device_text().c_str());
  expect_error(ST_ERROR_READ_ONLY, [&] { ops::fill_(fake_on(gpu, {4, 8}, true), 1.0); });
  msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE, [&] { ops::empty({2, 3}, ScalarType::Float32, gpu); });
  expect_contains(msg, missing_device_text().c_str());
  msg = expect_error(ST_ERROR_DEVICE_UNAVAILABLE,
                     [&] { ops::empty({2, 3}, ScalarType::Float32, Device{DeviceType::CUDAHost, kMissing}); });
  expect_contains(msg, "(pinned host memory)");
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_cuda_kernels_are_registered),
      cmocka_unit_test(copies_with_a_missing_device_say_why),
      cmocka_unit_test(plans_with_a_missing_device_say_why),
      cmocka_unit_test(fills_and_allocations_with_a_missing_device_say_why),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
