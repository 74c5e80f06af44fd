#include "iter/dim_counter.h"

#include <algorithm>

namespace st {

DimCounter::DimCounter(const DimVector& shape, Range range)
    : shape_(shape), range_(range), values_(shape.size(), 0), offset_(range.begin) {
  int64_t linear = range.begin;
  for (int d = 0; d < shape.size() && linear > 0; ++d) {
    if (shape[d] > 0) {
      values_[d] = linear % shape[d];
      linear /= shape[d];
    }
  }
}

std::array<int64_t, 2> DimCounter::max_2d_step() const {
  const int64_t left = range_.end - offset_;
  if (shape_.size() == 0) return {left, 1};
  const int64_t step0 = std::min(shape_[0] - values_[0], left);
  int64_t step1 = 1;
  if (step0 == shape_[0] && shape_.size() >= 2) step1 = std::min(shape_[1] - values_[1], left / shape_[0]);
  return {step0, step1};
}

void DimCounter::increment(const std::array<int64_t, 2>& step) {
  offset_ += step[0] * step[1];
  // A block of whole rows leaves dim 0 at 0 and advances dim 1; otherwise
  // dim 0 advances. Either way the carry ripples up one at a time.
  int d = 0;
  int64_t carry = step[0];
  if (step[1] != 1) {
    d = 1;
    carry = step[1];
  }
  for (; d < shape_.size() && carry > 0; ++d) {
    int64_t value = values_[d] + carry;
    if (value >= shape_[d]) {
      value -= shape_[d];
      carry = 1;
    } else {
      carry = 0;
    }
    values_[d] = value;
  }
}

}  // namespace st
