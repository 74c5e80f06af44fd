// TensorIterator: the layout analysis behind every elementwise kernel (as
// PyTorch's TensorIteratorBase), built by TensorIteratorConfig::build().
//
// After build() the operands (outputs first, then inputs) share one
// iteration shape, in an order of dims where dim 0 moves fastest:
//  - inputs are broadcast to the shape (byte stride 0 on broadcast dims;
//    every dim of size 1 also has stride 0);
//  - dims are sorted by |stride|, the outputs deciding and the inputs
//    breaking ties (PyTorch's reorder_dimensions);
//  - a dim where the deciding operand has a negative stride is walked the
//    other way for every operand (data pointers moved to the other end,
//    strides negated), so flipped views iterate in memory order;
//  - adjacent dims that are one dim for every operand are merged; when all
//    operands share one dense layout the whole space is one dim.
// Strides are in bytes, per operand, in that order. A kernel reads the
// geometry (ndim, shape, strides(arg), data_ptr(arg)) or runs a loop2d over
// it with for_each. Element (i0, i1, …) of operand k sits at
// data_ptr(k) + Σ i_d × strides(k)[d].
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
#include "core/tensor.h"
#include "core/parallel.h"
#include "iter/dim_counter.h"
#include "iter/tensor_iterator_config.h"

namespace st {

class TensorIterator {
 public:
  // loop(data, strides, size0, size1): element (i, j) of operand k is at
  // data[k] + i × strides[k] + j × strides[ntensors + k], for i < size0 and
  // j < size1 (as PyTorch's loop2d_t).
  using Loop2d = FunctionRef<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;

  // The largest offset, in bytes, that 32-bit index arithmetic serves.
  static constexpr int64_t k32BitLimit = INT32_MAX;

  explicit TensorIterator(const TensorIteratorConfig& config);

  int ndim() const { return shape_.size(); }
  // Sizes of the iteration space, dim 0 fastest.
  const DimVector& shape() const { return shape_; }
  int64_t numel() const;
  int ntensors() const { return ntensors_; }
  int noutputs() const { return noutputs_; }
  int ninputs() const { return ntensors_ - noutputs_; }

  // Byte strides of operand `arg` (outputs first), one per dim of shape().
  const DimVector& strides(int arg) const { return operands_[arg].stride_bytes; }
  // Address of the operand's element at iteration index (0, …, 0). After
  // a flip this is not the tensor's own data pointer.
  char* data_ptr(int arg) const { return operands_[arg].data; }
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

  // Runs loop over the whole space: serially when numel() <= grain or with
  // one thread, else split by parallel_for (OpenMP or the host's job
  // system). loop runs concurrently on disjoint ranges.
  void for_each(Loop2d loop, int64_t grain = kGrainSize) const;
  // Runs loop over the linear range of element indices (dim 0 fastest), in
  // 2-d blocks, on this thread.
  void serial_for_each(Loop2d loop, Range range) const;

 private:
  struct Operand {
    Tensor tensor;           // undefined while an output waits for allocation
    DimVector stride_bytes;  // in iteration order
    char* data = nullptr;
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
  void reorder_dimensions(InlineVector<int>* perm);
  void allocate_outputs(const TensorIteratorConfig& config, const InlineVector<int>& perm);
  void walk_negative_dims_forward();
  void coalesce_dimensions();
  void allocate(const TensorIteratorConfig& config, Operand& op, const DimVector& sizes, const DimVector& strides);
  std::string name_of(int arg) const;

  Operand operands_[kMaxOperands];
  int ntensors_ = 0;
  int noutputs_ = 0;
  DimVector shape_;
  bool all_ops_same_shape_ = true;
};

inline TensorIterator TensorIteratorConfig::build() const { return TensorIterator(*this); }

}  // namespace st
