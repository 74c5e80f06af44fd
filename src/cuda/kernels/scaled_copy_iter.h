// The kernel arguments of a scaled copy on one device
// (cuda/copy_scaled_kernel.cpp), host code without the CUDA runtime so that
// the host emulation tests build them alike, from a part of
// TensorIterator::scaled_copy's iteration over dst, src, the scales and the
// shifts (the scale and shift values in device memory).
#pragma once

#include "cuda/kernels/copy_args.h"
#include "cuda/kernels/iter_offsets.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {

// A part of the iteration that fits 32-bit indexing (a TensorIterator or a
// CopyPart, cuda/kernels/copy_part.h).
template <typename Part>
ScaledCopyArgs scaled_copy_args(const Part& part, bool saturate) {
  return ScaledCopyArgs{part.data_ptr(0), part.data_ptr(1), part.data_ptr(2), part.data_ptr(3),
                        make_offset_calculator<4>(part), static_cast<uint32_t>(part.numel()), saturate};
}

}  // namespace cuda
}  // namespace st
