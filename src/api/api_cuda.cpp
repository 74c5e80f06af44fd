// CUDA: st_cuda_device_count, st_cuda_set_stream, st_cuda_synchronize,
// st_cuda_empty_cache.
// Through CudaHooks, so they answer in builds without CUDA as well.
#include "api/args.h"
#include "api/guard.h"
#include "core/runtime/cuda_hooks.h"

using namespace st;

namespace {

void check_device_index(int32_t device) {
  ST_CHECK(device >= 0, ST_ERROR_INVALID_ARGUMENT, "device = %d is negative", device);
}

}  // namespace

extern "C" {

st_status st_cuda_device_count(int32_t* out) {
  return api::guarded("st_cuda_device_count", [&] {
    api::check_out(out);
    *out = cuda_hooks().device_count();
  });
}

st_status st_cuda_set_stream(int32_t device, void* stream) {
  return api::guarded("st_cuda_set_stream", [&] {
    check_device_index(device);
    cuda_hooks().set_stream(device, stream);
  });
}

st_status st_cuda_synchronize(int32_t device) {
  return api::guarded("st_cuda_synchronize", [&] {
    check_device_index(device);
    cuda_hooks().synchronize(device);
  });
}

st_status st_cuda_empty_cache(int32_t device) {
  return api::guarded("st_cuda_empty_cache", [&] {
    check_device_index(device);
    cuda_hooks().empty_cache(device);
  });
}

}  // extern "C"
