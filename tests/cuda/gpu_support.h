// What the GPU tests of tests/cuda/ share: skipping on a machine without a
// device, and test tensors moved to and from devices with their bytes
// untouched (the tests compare whole storages, the bytes outside a view
// included).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/runtime/allocator.h"
#include "core/tensor.h"
#include "cuda/runtime/allocator.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/stream.h"

namespace gpu_support {

using st::Device;
using st::DeviceType;
using st::MemoryRelease;
using st::Storage;
using st::Tensor;

// Without a CUDA device, says why and ends the program with 77 (ctest: skipped).
inline void exit_unless_a_device() {
  const st::cuda::DeviceStatus& s = st::cuda::device_status();
  if (s.count == 0) {
    std::printf("skipped: no CUDA device (%s)\n", s.reason.c_str());
    std::exit(77);
  }
}

// A tensor with t's layout and storage bytes on `device`, its storage at
// the same address phase modulo 16 as t's (so unaligned cases stay
// unaligned on the device).
inline Tensor mirror(const Tensor& t, Device device) {
  const size_t nbytes = t.storage()->nbytes();
  const size_t shift = reinterpret_cast<uintptr_t>(t.storage()->base()) % 16;
  Storage real = device.type == DeviceType::CUDA ? st::cuda::allocate_device_storage(nbytes + 16, device.index)
                 : device.type == DeviceType::CUDAHost
                     ? st::cuda::allocate_pinned_storage(nbytes + 16, device.index)
                     : st::allocate_cpu_storage(nbytes + 16);
  char* base = static_cast<char*>(real->base()) + shift;
  if (nbytes > 0 && device.type == DeviceType::CUDA) {
    // On the stream the block was allocated on: a plain cudaMemcpy runs on
    // the current device's legacy stream, unordered with another device's
    // allocation.
    st::cuda::DeviceGuard guard(device.index);
    const cudaStream_t stream = st::cuda::current_stream(device.index);
    ST_CUDA_CHECK(cudaMemcpyAsync(base, t.storage()->base(), nbytes, cudaMemcpyDefault, stream));
    ST_CUDA_CHECK(cudaStreamSynchronize(stream));
  } else if (nbytes > 0) {
    std::memcpy(base, t.storage()->base(), nbytes);
  }
  Storage storage = Storage::make(base, nbytes, device, MemoryRelease{});
  struct Holder {
    Storage real;
  };
  MemoryRelease keep;
  keep.ctx = new Holder{real};
  keep.run = [](const MemoryRelease& r) { delete static_cast<Holder*>(r.ctx); };
  storage->adopt_release(keep);
  return Tensor::make(storage, t.sizes(), t.strides(), t.storage_offset(), t.dtype());
}

// Every device's queued work done (a copy between devices ends on dst's).
inline void synchronize_all_devices() {
  for (int d = 0; d < st::cuda::device_status().count; ++d) {
    st::cuda::DeviceGuard guard(d);
    ST_CUDA_CHECK(cudaDeviceSynchronize());
  }
}

// The storage bytes of t, wherever it lives, once all queued work is done.
inline std::vector<unsigned char> read_back(const Tensor& t) {
  synchronize_all_devices();
  std::vector<unsigned char> out(t.storage()->nbytes());
  if (!out.empty()) ST_CUDA_CHECK(cudaMemcpy(out.data(), t.storage()->base(), out.size(), cudaMemcpyDefault));
  return out;
}

}  // namespace gpu_support
