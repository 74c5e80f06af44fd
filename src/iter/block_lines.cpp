#include "iter/block_lines.h"

#include "iter/tensor_iterator.h"

namespace st {

BlockLines block_lines(const Tensor& elements, const Tensor& values, const Tensor& scales, int dim) {
  BlockLines b;
  const Tensor* operands[3] = {&elements, &values, &scales};
  Geometry& g = b.lines;
  g.noperands = 3;
  b.n = elements.size(dim);
  for (int k = 0; k < 3; ++k) {
    const Tensor& t = *operands[k];
    const int64_t item = static_cast<int64_t>(t.itemsize());
    g.data[k] = static_cast<char*>(t.data());
    b.step[k] = t.size(dim) > 1 ? t.stride(dim) * item : 0;
  }
  // The other dims, last first (dim 0 of a geometry moves fastest), without those of size 1.
  for (int d = elements.ndim() - 1; d >= 0; --d) {
    if (d == dim || elements.size(d) == 1) continue;
    g.shape.push_back(elements.size(d));
    for (int k = 0; k < 3; ++k) {
      const Tensor& t = *operands[k];
      g.strides[k].push_back(t.stride(d) * static_cast<int64_t>(t.itemsize()));
    }
  }
  TensorIterator::canonicalize(g);
  return b;
}

}  // namespace st
