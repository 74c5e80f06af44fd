// Splitting a TensorIterator until 32-bit index arithmetic serves each part
// (as PyTorch's SplitUntil32Bit), for the CUDA kernels' offset calculators.
#include "core/error.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace {

uint64_t magnitude(int64_t v) { return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v); }

}  // namespace

bool TensorIterator::can_use_32bit_indexing(int64_t limit) const {
  const int64_t n = numel();
  if (n == 0) return true;
  if (n > limit) return false;
  for (int k = 0; k < ntensors_; ++k) {
    // Offsets run between −Σ and +Σ of (size − 1)·|stride|; with the
    // element itself this bounds both ends.
    uint64_t reach = 1;
    for (int d = 0; d < ndim(); ++d) {
      uint64_t step;
      if (__builtin_mul_overflow(static_cast<uint64_t>(geometry_.shape[d] - 1), magnitude(geometry_.strides[k][d]),
                                 &step) ||
          __builtin_add_overflow(reach, step, &reach)) {
        return false;
      }
    }
    if (reach > static_cast<uint64_t>(limit)) return false;
  }
  return true;
}

int TensorIterator::dim_to_split() const {
  int best = -1;
  uint64_t best_extent = 0;
  for (int d = ndim() - 1; d >= 0; --d) {
    if (geometry_.shape[d] < 2) continue;
    for (int k = 0; k < ntensors_; ++k) {
      uint64_t extent;
      if (__builtin_mul_overflow(static_cast<uint64_t>(geometry_.shape[d] - 1), magnitude(geometry_.strides[k][d]),
                                 &extent)) {
        extent = UINT64_MAX;
      }
      if (best < 0 || extent > best_extent) {
        best = d;
        best_extent = extent;
      }
    }
  }
  // Every operand broadcast along every dim: split the longest.
  if (best >= 0 && best_extent == 0) {
    for (int d = 0; d < ndim(); ++d)
      if (geometry_.shape[d] > geometry_.shape[best]) best = d;
  }
  return best;
}

void TensorIterator::narrow(int dim, int64_t start, int64_t size) {
  ST_CHECK(dim >= 0 && dim < ndim() && size >= 1 && start >= 0 && start + size <= geometry_.shape[dim], ST_ERROR_INTERNAL,
           "narrow(%d, %lld, %lld) is outside the iteration shape", dim, static_cast<long long>(start),
           static_cast<long long>(size));
  geometry_.shape[dim] = size;
  for (int k = 0; k < ntensors_; ++k) geometry_.data[k] += geometry_.strides[k][dim] * start;
  if (size == 1) coalesce_dims(geometry_);
}

void TensorIterator::with_32bit_indexing(FunctionRef<void(const TensorIterator&)> f, int64_t limit) const {
  ST_CHECK(limit >= 1, ST_ERROR_INTERNAL, "with_32bit_indexing: limit = %lld", static_cast<long long>(limit));
  if (can_use_32bit_indexing(limit)) {
    f(*this);
    return;
  }
  const int dim = dim_to_split();
  ST_CHECK(dim >= 0, ST_ERROR_INTERNAL, "with_32bit_indexing: an iterator of one element exceeds %lld bytes",
           static_cast<long long>(limit));
  // One copy per level: the depth is at most Σ log2(size) + ndim.
  const int64_t half = geometry_.shape[dim] / 2;
  TensorIterator part = *this;
  part.narrow(dim, 0, half);
  part.with_32bit_indexing(f, limit);
  part = *this;
  part.narrow(dim, half, geometry_.shape[dim] - half);
  part.with_32bit_indexing(f, limit);
}

}  // namespace st
