// TensorIterator: the checks and the layout analysis behind every
// elementwise kernel (as PyTorch's TensorIteratorBase), built by
// TensorIteratorConfig::build().
//
// After build() the operands (outputs first, then inputs) share one
// canonical geometry (Note [The canonical geometry] in iter/geometry.h):
// one shape with dim 0 fastest, inputs broadcast to it, dims sorted by the
// outputs' strides, negative dims walked forwards, mergeable dims merged.
// A kernel reads it (geometry(), or ndim, shape, strides(arg),
// data_ptr(arg)) or runs a loop2d over it with for_each. Element
// (i0, i1, …) of operand k sits at data_ptr(k) + Σ i_d × strides(k)[d].
//
// A kernel over (out, in):
//
//   iter.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
//     for (int64_t j = 0; j < n1; ++j) {
//       char* out = data[0] + j * strides[2];       // dim 1 of operand 0
//       const char* in = data[1] + j * strides[3];  // dim 1 of operand 1
//       for (int64_t i = 0; i < n0; ++i) ...        // out + i * strides[0], in + i * strides[1]
//     }
//   });
//
// A successful build() allocates nothing on the heap unless it allocates an
// output; it keeps a reference to every operand, so the iterator may
// outlive the tensors handed to the config.
#pragma once

#include <climits>
#include <cstdint>
#include <string>

#include "core/function_ref.h"
#include "core/parallel.h"
#include "core/tensor.h"
#include "iter/geometry.h"
#include "iter/tensor_iterator_config.h"

namespace st {

class TensorIterator {
 public:
  using Loop2d = st::Loop2d;

  // The largest offset, in bytes, that 32-bit index arithmetic serves.
  static constexpr int64_t k32BitLimit = INT32_MAX;

  explicit TensorIterator(const TensorIteratorConfig& config);

  // The canonical geometry of the operands (iter/geometry.h).
  const Geometry& geometry() const { return geometry_; }
  int ndim() const { return geometry_.ndim(); }
  // Sizes of the iteration space, dim 0 fastest.
  const DimVector& shape() const { return geometry_.shape; }
  int64_t numel() const { return geometry_.numel(); }
  int ntensors() const { return ntensors_; }
  int noutputs() const { return noutputs_; }
  int ninputs() const { return ntensors_ - noutputs_; }

  // Byte strides of operand `arg` (outputs first), one per dim of shape().
  const DimVector& strides(int arg) const { return geometry_.strides[arg]; }
  // Address of the operand's element at iteration index (0, …, 0). After
  // a flip this is not the tensor's own data pointer.
  char* data_ptr(int arg) const { return geometry_.data[arg]; }
  ScalarType dtype(int arg = 0) const { return operands_[arg].dtype; }
  Device device(int arg = 0) const { return operands_[arg].device; }
  int64_t element_size(int arg) const { return static_cast<int64_t>(itemsize(operands_[arg].dtype)); }
  // The tensor itself (an allocated output once build() made it).
  const Tensor& tensor(int arg) const { return operands_[arg].tensor; }
  const Tensor& output(int i = 0) const { return operands_[i].tensor; }
  const Tensor& input(int i = 0) const { return operands_[noutputs_ + i].tensor; }

  // Every operand steps by its element size along dim 0.
  bool has_contiguous_first_dim() const;
  // One element, or one dim that is contiguous for every operand.
  bool is_contiguous() const;
  bool is_trivial_1d() const { return ndim() == 1; }

  // Whether every element count and byte offset fits `limit` (int32 by
  // default; tests pass a smaller one to force splitting).
  bool can_use_32bit_indexing(int64_t limit = k32BitLimit) const;
  // Calls f on sub-iterators that together cover every element exactly
  // once, each of which can_use_32bit_indexing(limit): the dim with the
  // largest byte extent is split in halves until each part fits (as
  // PyTorch's SplitUntil32Bit). f(*this) when it fits already.
  void with_32bit_indexing(FunctionRef<void(const TensorIterator&)> f, int64_t limit = k32BitLimit) const;
  // The dim with the largest byte extent among dims of size >= 2; -1 if none.
  int dim_to_split() const;
  // Restricts dim `dim` to [start, start + size), size >= 1.
  void narrow(int dim, int64_t start, int64_t size);

  // st::for_each and st::serial_for_each (iter/geometry.h) over the geometry.
  void for_each(Loop2d loop, int64_t grain = kGrainSize) const { st::for_each(geometry_, loop, grain); }
  void serial_for_each(Loop2d loop, Range range) const { st::serial_for_each(geometry_, loop, range); }

 private:
  struct Operand {
    Tensor tensor;  // undefined while an output waits for allocation
    ScalarType dtype = ScalarType::Float32;
    Device device;
    const char* name = nullptr;
    bool is_output = false;
    bool will_allocate = false;
  };

  void populate_operands(const TensorIteratorConfig& config);
  void compute_mem_overlaps(const TensorIteratorConfig& config) const;
  void compute_shape(const TensorIteratorConfig& config);
  void compute_types(const TensorIteratorConfig& config);
  bool fast_set_up(const TensorIteratorConfig& config);
  void compute_strides();
  void allocate_outputs(const TensorIteratorConfig& config, const InlineVector<int>& perm);
  void allocate(const TensorIteratorConfig& config, Operand& op, const DimVector& sizes, const DimVector& strides);
  std::string name_of(int arg) const;

  Operand operands_[kMaxOperands];
  int ntensors_ = 0;
  int noutputs_ = 0;
  Geometry geometry_;
  bool all_ops_same_shape_ = true;
};

inline TensorIterator TensorIteratorConfig::build() const { return TensorIterator(*this); }

}  // namespace st
