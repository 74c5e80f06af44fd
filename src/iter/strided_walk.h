// StridedWalk: the one multi-index walk on the host. It steps through some
// dims of a geometry (iter/geometry.h) in order, the first added fastest,
// keeping each of N operands' byte offsets current: a seek (divisions)
// once per task, then an increment per step. The loops of for_each walk the
// dims above their 2-d blocks with it; the CPU copy kernels walk the dims
// their 2-d pieces leave out.
#pragma once

#include <cstdint>

#include "core/dim_vector.h"

namespace st {

template <int N>
class StridedWalk {
 public:
  StridedWalk() = default;
  // Copies only the dims in use: a walk is copied per task, and a tiny
  // copy cannot afford moving the whole kMaxDims capacity.
  StridedWalk(const StridedWalk& other) : n_(other.n_) {
    for (int k = 0; k < N; ++k) offsets_[k] = other.offsets_[k];
    for (int d = 0; d < n_; ++d) {
      sizes_[d] = other.sizes_[d];
      index_[d] = other.index_[d];
      for (int k = 0; k < N; ++k) strides_[d][k] = other.strides_[d][k];
    }
  }
  StridedWalk& operator=(const StridedWalk&) = delete;

  // Adds dim `d` of a geometry (operands beyond its own count step by 0),
  // as the walk's slowest dim so far.
  template <typename G>
  void add_dim(const G& g, int d) {
    sizes_[n_] = g.shape[d];
    index_[n_] = 0;
    for (int k = 0; k < N; ++k) strides_[n_][k] = k < g.noperands ? g.strides[k][d] : 0;
    ++n_;
  }

  // Positions: the product of the sizes (1 with no dims).
  int64_t count() const {
    int64_t c = 1;
    for (int d = 0; d < n_; ++d) c *= sizes_[d];
    return c;
  }

  // Moves to position `linear` (< count()).
  void seek(int64_t linear) {
    for (int k = 0; k < N; ++k) offsets_[k] = 0;
    for (int d = 0; d < n_; ++d) {
      index_[d] = linear % sizes_[d];
      linear /= sizes_[d];
      for (int k = 0; k < N; ++k) offsets_[k] += index_[d] * strides_[d][k];
    }
  }

  // Moves to the next position (from the last, back to the first).
  void next() {
    for (int d = 0; d < n_; ++d) {
      for (int k = 0; k < N; ++k) offsets_[k] += strides_[d][k];
      if (++index_[d] < sizes_[d]) return;
      for (int k = 0; k < N; ++k) offsets_[k] -= sizes_[d] * strides_[d][k];
      index_[d] = 0;
    }
  }

  // Operand k's byte offset at the current position.
  int64_t offset(int k) const { return offsets_[k]; }

 private:
  int n_ = 0;
  int64_t offsets_[N] = {};
  int64_t sizes_[kMaxDims];
  int64_t index_[kMaxDims];
  int64_t strides_[kMaxDims][N];
};

}  // namespace st
