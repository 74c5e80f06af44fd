// Running a loop2d over a TensorIterator: serial_for_each walks a linear
// range in 2-d blocks with a DimCounter; for_each splits [0, numel) with
// parallel_for (as PyTorch's TensorIteratorBase::for_each).
#include "iter/tensor_iterator.h"

namespace st {

void TensorIterator::serial_for_each(Loop2d loop, Range range) const {
  if (range.size() <= 0) return;
  const int nt = ntensors_, nd = ndim();
  // strides[d * nt + k]: operand k along dim d, padded to two dims.
  int64_t strides[kMaxOperands * kMaxDims];
  const int padded = nd < 2 ? 2 : nd;
  for (int d = 0; d < padded; ++d) {
    for (int k = 0; k < nt; ++k) strides[d * nt + k] = d < nd ? operands_[k].stride_bytes[d] : 0;
  }
  char* ptrs[kMaxOperands];
  if (nd <= 1) {
    for (int k = 0; k < nt; ++k) ptrs[k] = operands_[k].data + range.begin * strides[k];
    loop(ptrs, strides, range.size(), 1);
    return;
  }
  DimCounter counter(shape_, range);
  while (!counter.is_done()) {
    const DimVector& at = counter.values();
    for (int k = 0; k < nt; ++k) {
      int64_t offset = 0;
      for (int d = 0; d < nd; ++d) offset += at[d] * strides[d * nt + k];
      ptrs[k] = operands_[k].data + offset;
    }
    const std::array<int64_t, 2> step = counter.max_2d_step();
    loop(ptrs, strides, step[0], step[1]);
    counter.increment(step);
  }
}

void TensorIterator::for_each(Loop2d loop, int64_t grain) const {
  const int64_t n = numel();
  if (n == 0) return;
  parallel_for(0, n, grain, [&](int64_t begin, int64_t end) { serial_for_each(loop, Range{begin, end}); });
}

}  // namespace st
