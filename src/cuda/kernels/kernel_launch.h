// Launching a kernel over a checked shape, with the launch's own status:
// the one way stride starts a kernel (cuda/kernels/copy_kernels.cuh for the copies
// and fills, cuda/kernels/word_upload.cu for a scaled copy's values).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "core/macros.h"
#include "cuda/kernels/launch_shape.h"
#include "cuda/runtime/cuda_error.h"

namespace st {
namespace cuda {

// Note [A launch reports its own error]
// The CUDA runtime keeps one last error per host thread and per copy of
// the runtime library: a failing call sets it, a successful one leaves it
// as it was, cudaGetLastError returns and clears it, cudaPeekAtLastError
// returns it. libstride.so links its own copy, whose last error a program
// using it never sees; code built together with stride's objects (its
// tests, a static link) shares one. Read after a <<<>>> launch, a shared
// last error would blame a copy for an error the code around it left
// pending (a launch of its own with a bad configuration, say), and take
// that error away from it. So each kernel is launched with
// cudaLaunchKernelEx, whose status is the launch's own: the copy fails only
// when its launch failed, or when the context is broken (a sticky error,
// which every call of every runtime copy returns), and a pending error
// stays for its owner to read, as if the copy had not run. When the launch
// fails, the runtime has already put the launch's error in place of a
// pending one; stride clears it (throw_cuda_error) and returns it as the
// call's status, so it cannot surface later as another's.
// (tests/cuda/test_copy_kernels_gpu.cu, which shares stride's runtime,
// leaves such an error pending before copies of every kind, and reads it
// back afterwards.)

inline dim3 grid_of(const LaunchShape& s) { return dim3(s.grid[0], s.grid[1], s.grid[2]); }
inline dim3 block_of(const LaunchShape& s) { return dim3(s.block[0], s.block[1], s.block[2]); }

// Launches `kernel` over shape `s` on `stream` after check_launch_shape
// (`max_threads`: the kernel's launch bounds); throws with the runtime's
// error if the launch fails (Note [A launch reports its own error]).
template <typename Args>
void launch_kernel(void (*kernel)(Args), const LaunchShape& s, uint32_t max_threads, const char* name,
                   const Args& args, cudaStream_t stream) {
  check_launch_shape(s, max_threads, name);
  cudaLaunchConfig_t config = {};
  config.gridDim = grid_of(s);
  config.blockDim = block_of(s);
  config.stream = stream;
  const cudaError_t err = cudaLaunchKernelEx(&config, kernel, args);
  if (ST_UNLIKELY(err != cudaSuccess)) throw_cuda_error(err, (std::string("launching ") + name).c_str());
}

}  // namespace cuda
}  // namespace st
