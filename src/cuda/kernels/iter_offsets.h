// From a TensorIterator's canonical geometry (or a CopyPart's,
// cuda/kernels/copy_part.h: the same accessors) to the OffsetCalculator a kernel
// walks it with, as PyTorch's make_offset_calculator: the geometry's dims
// (dim 0 fastest) and byte strides, operand by operand. Host code.
#pragma once

#include "core/error.h"
#include "cuda/kernels/offset_calculator.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {

// Over dims[0..ndims) of the iterator, in that order (the first fastest),
// for its first NARGS operands. The iterator fits 32-bit indexing and has
// at least one element (an empty iteration launches nothing).
template <int NARGS, typename Iter>
OffsetCalculator<NARGS> make_offset_calculator(const Iter& iter, const int* dims, int ndims) {
  ST_CHECK(NARGS <= iter.ntensors() && ndims >= 0 && ndims <= iter.ndim(), ST_ERROR_INTERNAL,
           "make_offset_calculator: %d operands and %d dims of an iterator with %d operands and %d dims", NARGS, ndims,
           iter.ntensors(), iter.ndim());
  int64_t sizes[kMaxOffsetDims];
  int64_t strides[NARGS][kMaxOffsetDims];
  const int64_t* stride_rows[NARGS];
  for (int i = 0; i < ndims; ++i) {
    sizes[i] = iter.shape()[dims[i]];
    for (int arg = 0; arg < NARGS; ++arg) strides[arg][i] = iter.strides(arg)[dims[i]];
  }
  for (int arg = 0; arg < NARGS; ++arg) stride_rows[arg] = strides[arg];
  return OffsetCalculator<NARGS>(ndims, sizes, stride_rows);
}

// Over every dim of the iterator.
template <int NARGS, typename Iter>
OffsetCalculator<NARGS> make_offset_calculator(const Iter& iter) {
  int dims[kMaxOffsetDims];
  for (int d = 0; d < iter.ndim(); ++d) dims[d] = d;
  return make_offset_calculator<NARGS>(iter, dims, iter.ndim());
}

}  // namespace cuda
}  // namespace st
