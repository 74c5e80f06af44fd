#include "iter/tensor_iterator_config.h"

#include "core/error.h"

namespace st {

TensorIteratorConfig& TensorIteratorConfig::add_output(const Tensor& t, const char* name) {
  ST_CHECK(ntensors_ == noutputs_, ST_ERROR_INTERNAL, "TensorIteratorConfig: add every output before the inputs");
  ST_CHECK(ntensors_ < kMaxOperands, ST_ERROR_INTERNAL, "TensorIteratorConfig: at most %d operands", kMaxOperands);
  tensors_[ntensors_] = t;
  names_[ntensors_] = name;
  ++ntensors_;
  ++noutputs_;
  return *this;
}

TensorIteratorConfig& TensorIteratorConfig::add_input(const Tensor& t, const char* name) {
  ST_CHECK(ntensors_ < kMaxOperands, ST_ERROR_INTERNAL, "TensorIteratorConfig: at most %d operands", kMaxOperands);
  tensors_[ntensors_] = t;
  names_[ntensors_] = name;
  ++ntensors_;
  return *this;
}

}  // namespace st
