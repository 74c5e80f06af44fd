// DimCounter: walks a linear range of an iteration space in 2-d steps (as
// PyTorch's DimCounter). `values` is the multi-index of `offset`, dim 0
// fastest; max_2d_step says how far the next step can go without leaving
// the range: along dim 0 to the end of the row, then whole rows along dim 1.
#pragma once

#include <array>
#include <cstdint>

#include "core/dim_vector.h"

namespace st {

// A half-open range [begin, end) of linear element indices.
struct Range {
  int64_t begin;
  int64_t end;
  int64_t size() const { return end - begin; }
};

class DimCounter {
 public:
  // `shape` must outlive the counter; range.begin < numel(shape).
  DimCounter(const DimVector& shape, Range range);

  bool is_done() const { return offset_ >= range_.end; }
  // {size0, size1}: a full-width block of rows when the counter sits at
  // the start of a row, otherwise the rest of the current row.
  std::array<int64_t, 2> max_2d_step() const;
  void increment(const std::array<int64_t, 2>& step);

  const DimVector& values() const { return values_; }
  int64_t offset() const { return offset_; }

 private:
  const DimVector& shape_;
  Range range_;
  DimVector values_;
  int64_t offset_;
};

}  // namespace st
