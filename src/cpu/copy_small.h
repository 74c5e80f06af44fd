// The copy kernel for small tensors: dst ← src without a TensorIterator.
//
// Building an iterator (broadcast, byte strides, reordering, coalescing)
// costs more than copying a few hundred elements, and a 4×4 transpose is
// 16 loads and stores. Every element gets the value the iterator kernels
// would give it: the same byte copy for equal dtypes, the same convert()
// for others; only the order of the writes differs, which nobody sees
// since the copy front has removed any overlap between src and dst.
#pragma once

#include <cstdint>

#include "core/tensor.h"

namespace st {
namespace cpu {

// Most elements a small copy takes; below this the iterator's set-up
// outweighs the scalar loop.
constexpr int64_t kSmallCopyMaxElements = 256;
// Most dims of size > 1 a small copy takes.
constexpr int kSmallCopyMaxDims = 4;

// Copies src (broadcast to dst's shape) into dst, converting dtypes, when
// dst has at most kSmallCopyMaxElements elements in at most
// kSmallCopyMaxDims dims of size > 1, and returns true; otherwise returns
// false and writes nothing. The same preconditions as copy_kernel: both in
// host memory, src broadcastable to dst, no overlap between them.
bool copy_small(const Tensor& dst, const Tensor& src);

}  // namespace cpu
}  // namespace st
