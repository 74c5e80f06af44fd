// A copy between two tensors in host memory (CPU or pinned), by the CPU
// backend's copy_ kernel: the host-side step of a copy the CUDA backend
// stages. It is reached by redispatching to the CPU key, below tracing, so
// it is part of the one copy_ call being traced.
#pragma once

#include "core/tensor.h"

namespace st {
namespace cuda {

void copy_on_host(const Tensor& dst, const Tensor& src);

}  // namespace cuda
}  // namespace st
