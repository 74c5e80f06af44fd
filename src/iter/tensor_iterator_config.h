// TensorIteratorConfig: what an operator tells TensorIterator about its
// operands (as PyTorch's TensorIteratorConfig). Outputs are added first,
// then inputs; build() runs the checks and the layout analysis.
//
//   TensorIterator iter = TensorIteratorConfig()
//                             .add_output(dst, "dst")
//                             .add_input(src, "src")
//                             .resize_outputs(false)
//                             .check_all_same_dtype(false)
//                             .build();
#pragma once

#include "core/tensor.h"
#include "iter/geometry.h"

namespace st {

class TensorIterator;

class TensorIteratorConfig {
 public:
  // Makes an undefined output. Tensors are immutable, so this is the only way
  // an iterator creates memory; the default is core's empty_cpu, which
  // serves CPU only (other devices fail with ST_ERROR_NOT_IMPLEMENTED).
  // Operators pass their own (ops::empty_strided), since iter cannot reach
  // the ops layer. Strides are >= 0.
  using AllocateFn = Tensor (*)(const DimVector& sizes, const DimVector& strides, ScalarType dtype, Device device);

  // `t` may be undefined: build() then allocates it, in the layout of the
  // inputs, with the dtype of the first input (or declare_static_dtype) and
  // the device of the first input. `name` ("dst") is used in error
  // messages and must outlive the config (a string literal).
  TensorIteratorConfig& add_output(const Tensor& t, const char* name = nullptr);
  // Inputs come after every output and are always defined.
  TensorIteratorConfig& add_input(const Tensor& t, const char* name = nullptr);

  // true (the default, as PyTorch): an undefined output is allocated.
  // false (copy_): every output must be defined; the first output's shape
  // is the iteration shape. A defined output is never resized (tensors are
  // immutable): inputs broadcast to it, never the reverse.
  TensorIteratorConfig& resize_outputs(bool v) {
    resize_outputs_ = v;
    return *this;
  }
  // Each true by default, as in PyTorch.
  TensorIteratorConfig& check_all_same_dtype(bool v) {
    check_all_same_dtype_ = v;
    return *this;
  }
  TensorIteratorConfig& check_all_same_device(bool v) {
    check_all_same_device_ = v;
    return *this;
  }
  // Outputs must be free of self-overlap, and no input may partially
  // overlap an output (ST_ERROR_OVERLAP, before anything is written).
  TensorIteratorConfig& check_mem_overlap(bool v) {
    check_mem_overlap_ = v;
    return *this;
  }
  TensorIteratorConfig& declare_static_dtype(ScalarType dtype) {
    static_dtype_ = dtype;
    has_static_dtype_ = true;
    return *this;
  }
  TensorIteratorConfig& allocate_outputs_with(AllocateFn fn) {
    allocate_ = fn;
    return *this;
  }

  TensorIterator build() const;

 private:
  friend class TensorIterator;

  Tensor tensors_[kMaxOperands];
  const char* names_[kMaxOperands] = {};
  int ntensors_ = 0;
  int noutputs_ = 0;
  bool resize_outputs_ = true;
  bool check_all_same_dtype_ = true;
  bool check_all_same_device_ = true;
  bool check_mem_overlap_ = true;
  bool has_static_dtype_ = false;
  ScalarType static_dtype_ = ScalarType::Float32;
  AllocateFn allocate_ = nullptr;
};

}  // namespace st
