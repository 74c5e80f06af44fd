// Walks the outer dims of a copy (those a kernel does not take itself) in
// order, fastest first, keeping the byte offsets of dst and src: a seek
// (divisions) once per task, then one increment per step.
#pragma once

#include <cstdint>

#include "stride.h"

namespace st {
namespace cpu {

class OuterWalk {
 public:
  OuterWalk() = default;
  // Copies only the dims in use: a walk is copied per task, and a tiny
  // copy cannot afford moving the whole ST_MAX_DIMS capacity.
  OuterWalk(const OuterWalk& other) : n_(other.n_), dst_(other.dst_), src_(other.src_) {
    for (int d = 0; d < n_; ++d) {
      sizes_[d] = other.sizes_[d];
      dst_strides_[d] = other.dst_strides_[d];
      src_strides_[d] = other.src_strides_[d];
      idx_[d] = other.idx_[d];
    }
  }
  OuterWalk& operator=(const OuterWalk&) = delete;

  void add_dim(int64_t size, int64_t dst_stride, int64_t src_stride) {
    sizes_[n_] = size;
    dst_strides_[n_] = dst_stride;
    src_strides_[n_] = src_stride;
    ++n_;
  }
  int64_t count() const {
    int64_t c = 1;
    for (int d = 0; d < n_; ++d) c *= sizes_[d];
    return c;
  }
  void seek(int64_t linear) {
    dst_ = src_ = 0;
    for (int d = 0; d < n_; ++d) {
      idx_[d] = linear % sizes_[d];
      linear /= sizes_[d];
      dst_ += idx_[d] * dst_strides_[d];
      src_ += idx_[d] * src_strides_[d];
    }
  }
  void next() {
    for (int d = 0; d < n_; ++d) {
      dst_ += dst_strides_[d];
      src_ += src_strides_[d];
      if (++idx_[d] < sizes_[d]) return;
      dst_ -= sizes_[d] * dst_strides_[d];
      src_ -= sizes_[d] * src_strides_[d];
      idx_[d] = 0;
    }
  }
  int64_t dst_offset() const { return dst_; }
  int64_t src_offset() const { return src_; }

 private:
  int n_ = 0;
  int64_t sizes_[ST_MAX_DIMS];
  int64_t dst_strides_[ST_MAX_DIMS];
  int64_t src_strides_[ST_MAX_DIMS];
  int64_t idx_[ST_MAX_DIMS];
  int64_t dst_ = 0, src_ = 0;
};

}  // namespace cpu
}  // namespace st
