// Geometry: the layout of an elementwise operation, worked out once.
//
// Note [The canonical geometry]
// Every kernel - the CPU copy and convert kernels, the small copies, the
// loops of for_each, the CUDA OffsetCalculator - walks the same description
// of its operands: one shape and, per operand, byte strides and the address
// of element (0, …, 0). One builder makes it for every backend, the
// TensorIterator (iter/tensor_iterator.h), in these steps:
//  1. broadcast: the shape's dims are taken last first (the tensors' own
//     order, fastest first: dim 0 of the geometry is the tensors' last);
//     every operand gets byte strides for them, stride 0 where it is
//     broadcast and on every dim of size 1;
//  2. reorder: dims fastest first by |stride|, the first operand with a
//     strict answer deciding (dst comes first, so the destination decides),
//     broadcast strides abstaining, ties keeping the smaller size first and
//     then the order of step 1 (as PyTorch's reorder_dimensions);
//  3. flip: a dim where the first operand that moves along it goes
//     backwards is walked from its other end by every operand: the same
//     pairs of elements, in memory order;
//  4. coalesce: neighbouring dims that step every operand evenly, or that
//     have size 1, become one (as PyTorch's coalesce_dimensions).
// When every operand shares one dense layout the result is one dim of
// numel elements, and building it takes the shortcut that says so. For the
// CUDA kernels' 32-bit index math the builder then splits the geometry
// into parts, each a geometry of the same form.
//
// After the steps, for an output that does not overlap itself (every
// copy's destination): its strides are positive, strictly increasing, and
// no two neighbouring dims merge; a dim of size 1 remains only as the one
// dim of a one-element space; an empty space keeps its dims (numel 0).
// Element (i0, i1, …) of operand k is at data[k] + Σ i_d × strides[k][d].
#pragma once

#include <cstdint>

#include "core/dim_vector.h"
#include "core/runtime/function_ref.h"

namespace st {

// The most operands one geometry holds.
constexpr int kMaxOperands = 4;

struct Geometry {
  DimVector shape;                  // elements per dim, dim 0 fastest
  DimVector strides[kMaxOperands];  // bytes, per operand, one per dim
  char* data[kMaxOperands] = {};    // element (0, …, 0) of each operand
  int noperands = 0;

  int ndim() const { return shape.size(); }
  // 0 when any size is 0 (the others may then multiply past int64).
  int64_t numel() const;
};

// A half-open range [begin, end) of linear element indices, dim 0 fastest.
struct Range {
  int64_t begin;
  int64_t end;
  int64_t size() const { return end - begin; }
};

// loop(data, strides, size0, size1): element (i, j) of operand k is at
// data[k] + i × strides[k] + j × strides[noperands + k], for i < size0 and
// j < size1 (as PyTorch's loop2d_t).
using Loop2d = FunctionRef<void(char** data, const int64_t* strides, int64_t size0, int64_t size1)>;

// Runs loop over the linear range of element indices in 2-d blocks: the
// rest of a row, whole rows of dims 0 and 1, then the outer dims (walked
// with StridedWalk), on this thread.
void serial_for_each(const Geometry& g, Loop2d loop, Range range);

// Runs loop over every element: serially when numel <= grain or with one
// thread, else split by parallel_for (OpenMP or the host's job system);
// loop runs concurrently on disjoint ranges.
void for_each(const Geometry& g, Loop2d loop, int64_t grain);

}  // namespace st
