// TensorIterator: the one builder of the canonical geometry (Note [The
// canonical geometry] in iter/geometry.h), for every backend. It broadcasts
// the operands to one shape, reorders the dims fastest first, flips the
// dims the destination walks backwards, coalesces mergeable dims and, for
// the CUDA kernels' 32-bit index math, splits the result into parts (as
// PyTorch's TensorIterator and SplitUntil32Bit). The CPU kernels take its
// geometry(); the CUDA kernels build their OffsetCalculator from it
// (cuda/kernels/iter_offsets.h).
//
// The operands are a copy's (dst 0, src 1, scaled copies' scales and
// shifts 2 and 3) or a fill's (dst 0). Their checks are the caller's
// (core/copy_preconditions.h): src broadcasts to dst's shape. Building one
// allocates nothing on the heap and holds no reference to the tensors.
//
// A kernel over (dst, src) with for_each (dim 0 fastest, Loop2d):
//
//   TensorIterator::copy(dst, src).for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
//     for (int64_t j = 0; j < n1; ++j) {
//       char* out = data[0] + j * strides[2];       // dim 1 of operand 0
//       const char* in = data[1] + j * strides[3];  // dim 1 of operand 1
//       for (int64_t i = 0; i < n0; ++i) ...        // out + i * strides[0], in + i * strides[1]
//     }
//   });
#pragma once

#include <climits>
#include <cstdint>

#include "core/runtime/function_ref.h"
#include "core/runtime/parallel.h"
#include "core/scale_shift.h"
#include "core/tensor.h"
#include "iter/geometry.h"

namespace st {

class TensorIterator {
 public:
  // The largest offset, in bytes, that 32-bit index arithmetic serves.
  static constexpr int64_t k32BitLimit = INT32_MAX;

  // dst ← src (src broadcast to dst's shape, which the caller has checked).
  // When both are laid out alike and densely the result is one dim (as
  // PyTorch's fast_set_up). Throws ST_ERROR_OUT_OF_MEMORY when a stride in
  // bytes overflows int64.
  static TensorIterator copy(const Tensor& dst, const Tensor& src);
  // A scaled copy dst ← src: the copy with ss's scales and shifts as
  // operands 2 and 3, which vary along dst dim ss.dim only (stride 0 on
  // every other dim; on every dim when ss.dim is -1), so that the same
  // sort (dst decides), flips and merges serve them. `values` holds ss.n
  // scales then ss.n shifts as ss.compute values: ss's own, or their copy
  // in device memory.
  static TensorIterator scaled_copy(const Tensor& dst, const Tensor& src, const ScaleShift& ss, const void* values);
  // A fill of dst (operand 0 alone): a broadcast dim (stride 0) is walked
  // as one element, so that each address is written once. Throws
  // ST_ERROR_OUT_OF_MEMORY when a stride in bytes overflows int64.
  static TensorIterator fill(const Tensor& dst);
  // Steps 2 to 4 of the Note (reorder, flip, coalesce) on a geometry whose
  // operands are all set: a layout a test writes by hand.
  static void canonicalize(Geometry& g);

  // The canonical geometry of the operands.
  const Geometry& geometry() const { return geometry_; }
  int ndim() const { return geometry_.ndim(); }
  // Sizes of the iteration space, dim 0 fastest.
  const DimVector& shape() const { return geometry_.shape; }
  int64_t numel() const { return geometry_.numel(); }
  int ntensors() const { return geometry_.noperands; }
  // Byte strides of operand `arg`, one per dim of shape().
  const DimVector& strides(int arg) const { return geometry_.strides[arg]; }
  // Address of the operand's element at iteration index (0, …, 0). After
  // a flip this is not the tensor's own data pointer.
  char* data_ptr(int arg) const { return geometry_.data[arg]; }
  ScalarType dtype(int arg = 0) const { return dtypes_[arg]; }
  int64_t element_size(int arg) const { return static_cast<int64_t>(itemsize(dtypes_[arg])); }
  // One element, or one dim along which every operand steps by its element size.
  bool is_contiguous() const;

  // Whether every element count and byte offset fits `limit` (int32 by
  // default; tests pass a smaller one to force splitting).
  bool can_use_32bit_indexing(int64_t limit = k32BitLimit) const;
  // Calls f on parts that together cover every element exactly once, each
  // of which can_use_32bit_indexing(limit): the dim with the largest byte
  // extent is split in halves until each part fits (as PyTorch's
  // SplitUntil32Bit). f(*this) when it fits already.
  void with_32bit_indexing(FunctionRef<void(const TensorIterator&)> f, int64_t limit = k32BitLimit) const;

  // st::for_each and st::serial_for_each (iter/geometry.h) over the geometry.
  void for_each(Loop2d loop, int64_t grain = kGrainSize) const { st::for_each(geometry_, loop, grain); }
  void serial_for_each(Loop2d loop, Range range) const { st::serial_for_each(geometry_, loop, range); }

 private:
  TensorIterator() = default;

  Geometry geometry_;
  ScalarType dtypes_[kMaxOperands] = {};
};

}  // namespace st
