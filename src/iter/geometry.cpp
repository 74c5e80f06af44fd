// The loops over a geometry (Note [The canonical geometry]).
#include "iter/geometry.h"

#include "core/runtime/parallel.h"
#include "iter/strided_walk.h"

namespace st {

int64_t Geometry::numel() const {
  // One pass: the product wraps harmlessly (unsigned) when a 0 comes after
  // sizes whose product overflows, and is then discarded.
  uint64_t n = 1;
  bool empty = false;
  for (int64_t s : shape) {
    empty |= s == 0;
    n *= static_cast<uint64_t>(s);
  }
  return empty ? 0 : static_cast<int64_t>(n);
}

void serial_for_each(const Geometry& g, Loop2d loop, Range range) {
  if (range.size() <= 0) return;
  const int nt = g.noperands, nd = g.ndim();
  // Dim 0's strides, then dim 1's: the loop's strides argument.
  int64_t strides[2 * kMaxOperands];
  for (int k = 0; k < nt; ++k) {
    strides[k] = nd > 0 ? g.strides[k][0] : 0;
    strides[nt + k] = nd > 1 ? g.strides[k][1] : 0;
  }
  char* ptrs[kMaxOperands];
  if (nd <= 1) {
    for (int k = 0; k < nt; ++k) ptrs[k] = g.data[k] + range.begin * strides[k];
    loop(ptrs, strides, range.size(), 1);
    return;
  }
  const int64_t size0 = g.shape[0], plane = size0 * g.shape[1];  // the range is not empty: no overflow
  StridedWalk<kMaxOperands> outer;
  for (int d = 2; d < nd; ++d) outer.add_dim(g, d);
  outer.seek(range.begin / plane);
  // Element (i0, i1) of the current plane, n0 × n1 of them.
  auto block = [&](int64_t i0, int64_t i1, int64_t n0, int64_t n1) {
    for (int k = 0; k < nt; ++k) ptrs[k] = g.data[k] + outer.offset(k) + i0 * strides[k] + i1 * strides[nt + k];
    loop(ptrs, strides, n0, n1);
  };
  int64_t at = range.begin;
  for (;;) {
    const int64_t plane_start = at - at % plane;
    const int64_t stop = range.end - plane_start < plane ? range.end - plane_start : plane;
    int64_t pos = at - plane_start;
    if (pos % size0 != 0) {  // the rest of a row
      const int64_t n0 = size0 - pos % size0 < stop - pos ? size0 - pos % size0 : stop - pos;
      block(pos % size0, pos / size0, n0, 1);
      pos += n0;
    }
    const int64_t rows = (stop - pos) / size0;
    if (rows > 0) {
      block(0, pos / size0, size0, rows);
      pos += rows * size0;
    }
    if (pos < stop) {  // the start of a row
      block(0, pos / size0, stop - pos, 1);
      pos = stop;
    }
    at = plane_start + pos;
    if (at >= range.end) return;
    outer.next();
  }
}

void for_each(const Geometry& g, Loop2d loop, int64_t grain) {
  const int64_t n = g.numel();
  if (n == 0) return;
  parallel_for(0, n, grain, [&](int64_t begin, int64_t end) { serial_for_each(g, loop, Range{begin, end}); });
}

}  // namespace st
