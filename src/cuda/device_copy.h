// Copies within one CUDA device: dst ← src, src broadcast to dst, any dtype
// pair, queued on this thread's current stream of that device (the call
// returns before the copy has run, as every device-side copy in PyTorch).
#pragma once

#include <cuda_runtime_api.h>

#include "core/tensor.h"
#include "cuda/kernels/copy_part.h"
#include "cuda/kernels/element_io.h"

namespace st {
namespace cuda {

// dst and src on the same CUDA device; check_copy passed and they do not
// partially overlap (the caller stages when they do); dst is not empty.
void copy_on_device(const Tensor& dst, const Tensor& src);

// Queues the kernel that copies one part of such a copy (with elements, its
// operands aligned as kernels_take says) on `stream` of the current device.
void launch_copy_part(const CopyPart& part, cudaStream_t stream);

// Every element of dst (a CUDA tensor, possibly an expanded view) becomes
// the element whose bytes are `value` (itemsize bytes, converted already).
void fill_on_device(const Tensor& dst, const Word16& value);

}  // namespace cuda
}  // namespace st
