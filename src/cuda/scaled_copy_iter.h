// The iteration and the kernel arguments of a scaled copy on one device
// (cuda/copy_scaled_kernel.cpp), host code without the CUDA runtime so that
// the host emulation tests build them alike: dst, src, and the scales and
// shifts as two more inputs of dst's shape, stride 0 on every dim but the
// channel dim, so that one iterator sorts, flips, merges and splits all four.
#pragma once

#include "core/scale_shift.h"
#include "core/views.h"
#include "cuda/copy_args.h"
#include "cuda/iter_offsets.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {

// `values`: ss's 2 × n compute values (scales, then shifts), 1-d and
// contiguous, in memory the kernels can read (dst's device).
inline TensorIterator scaled_copy_iterator(const Tensor& dst, const Tensor& src, const Tensor& values,
                                           const ScaleShift& ss) {
  DimVector strides(dst.ndim(), 0);
  if (ss.dim >= 0) strides[ss.dim] = 1;
  const Tensor scale = as_strided(values, dst.sizes(), strides, values.storage_offset());
  const Tensor shift = as_strided(values, dst.sizes(), strides, values.storage_offset() + ss.n);
  return TensorIteratorConfig()
      .add_output(dst, "dst")
      .add_input(src, "src")
      .add_input(scale, "scale")
      .add_input(shift, "shift")
      .resize_outputs(false)
      .check_all_same_dtype(false)
      .check_mem_overlap(false)  // check_copy decided already
      .build();
}

// A part of the iteration that fits 32-bit indexing (a TensorIterator or a
// CopyPart, cuda/copy_part.h).
template <typename Part>
ScaledCopyArgs scaled_copy_args(const Part& part, bool saturate) {
  return ScaledCopyArgs{part.data_ptr(0), part.data_ptr(1), part.data_ptr(2), part.data_ptr(3),
                        make_offset_calculator<4>(part), static_cast<uint32_t>(part.numel()), saturate};
}

}  // namespace cuda
}  // namespace st
