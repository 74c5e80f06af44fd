// Work on cuda:1 from fresh threads creates no context on cuda:0 (Note
// [Restoring the current device] in cuda/runtime/device_guard.h): a program that
// only uses its second GPU must not pay for a context on its first. Its own
// program, so that nothing before it touched device 0. The work includes
// stride's bookkeeping: the keep-alive events of a non_blocking copy swept
// on another thread, and a check of host memory being wrapped.
//
// Needs two GPUs; with fewer it prints why and exits 77 (ctest: skipped).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <thread>

#include "cuda/runtime/device_status.h"
#include "stride.h"

namespace {

int primary_context_active(int device) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  if (cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &fn, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return -1;
  unsigned flags = 0;
  int active = 0;
  auto get_state = reinterpret_cast<CUresult (*)(CUdevice, unsigned*, int*)>(fn);
  return get_state(device, &flags, &active) == CUDA_SUCCESS ? active : -1;
}

}  // namespace

int main() {
  const st::cuda::DeviceStatus& s = st::cuda::device_status();
  if (s.count < 2) {
    std::printf("skipped: this test needs two CUDA devices, this machine has %d%s%s\n", s.count,
                s.count ? "" : ": ", s.reason.c_str());
    return 77;
  }
  int failures = 0;
  std::thread([&] {
    const st_device gpu1 = {ST_DEVICE_CUDA, 1}, pinned1 = {ST_DEVICE_CUDA_HOST, 1}, cpu = {ST_DEVICE_CPU, 0};
    const int64_t sizes[2] = {128, 64};
    st_tensor a = {0}, b = {0}, h = {0}, c = {0};
    failures += st_tensor_create(sizes, 2, ST_FLOAT32, gpu1, &a) != ST_OK;
    failures += st_fill(a, 4.0) != ST_OK;
    failures += st_tensor_create(sizes, 2, ST_FLOAT64, pinned1, &h) != ST_OK;
    failures += st_copy(h, a, 1) != ST_OK;
    failures += st_cuda_synchronize(1) != ST_OK;
    failures += st_tensor_create(sizes, 2, ST_FLOAT64, cpu, &c) != ST_OK;
    failures += st_copy(c, a, 0) != ST_OK;
    failures += st_clone(a, ST_MEMORY_FORMAT_CONTIGUOUS, &b) != ST_OK;
    for (st_tensor t : {a, b, h, c}) failures += st_tensor_release(t) != ST_OK;
    failures += st_cuda_empty_cache(1) != ST_OK;
  }).join();
  // A non_blocking copy leaves its pinned memory to the keep-alive list;
  // another fresh thread sweeps it (every copy between devices does) and
  // wraps host memory (asked of CUDA, cuda:1 having a context): the event
  // is queried on its own device, the pointer on a device with a context.
  const st_device gpu1 = {ST_DEVICE_CUDA, 1}, pinned1 = {ST_DEVICE_CUDA_HOST, 1}, cpu = {ST_DEVICE_CPU, 0};
  const int64_t sizes[2] = {256, 256};
  std::thread([&] {
    st_tensor a = {0}, h = {0};
    failures += st_tensor_create(sizes, 2, ST_FLOAT32, gpu1, &a) != ST_OK;
    failures += st_tensor_create(sizes, 2, ST_FLOAT32, pinned1, &h) != ST_OK;
    failures += st_copy(h, a, 1) != ST_OK;  // queued: its pinned memory is kept alive
    for (st_tensor t : {a, h}) failures += st_tensor_release(t) != ST_OK;
  }).join();
  std::thread([&] {
    static float host[256 * 256];
    st_tensor a = {0}, wrapped = {0};
    failures += st_tensor_from_data(host, sizes, nullptr, 2, ST_FLOAT32, cpu, nullptr, nullptr, &wrapped) != ST_OK;
    failures += st_tensor_create(sizes, 2, ST_FLOAT32, gpu1, &a) != ST_OK;
    failures += st_copy(wrapped, a, 0) != ST_OK;  // sweeps the keep-alive list first
    for (st_tensor t : {a, wrapped}) failures += st_tensor_release(t) != ST_OK;
    failures += st_cuda_synchronize(1) != ST_OK;
  }).join();
  const int on0 = primary_context_active(0), on1 = primary_context_active(1);
  std::printf("primary context active: cuda:0 %d, cuda:1 %d; %d failed calls\n", on0, on1, failures);
  const bool ok = failures == 0 && on0 == 0 && on1 == 1;
  std::printf("%s\n", ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
  return ok ? 0 : 1;
}
