// A scaled copy's prepared values in device memory, where its kernels read
// them (operands 2 and 3 of cuda/kernels/scaled_copy_iter.h's iteration).
#pragma once

#include "core/device.h"
#include "core/scale_shift.h"
#include "core/tensor.h"

namespace st {
namespace cuda {

// ss's 2 × n compute values (scales, then shifts), 1-d and contiguous, in
// the memory of CUDA device `device` (a checked device), allocated and
// written on this thread's current stream there (cuda/kernels/word_upload.h):
// queued, not waited for, so work queued after it on that stream sees the
// values, and a stream capturing a graph records the writes with them.
Tensor scale_shift_values(const ScaleShift& ss, Device device);

}  // namespace cuda
}  // namespace st
