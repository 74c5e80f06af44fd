// Geometry: the layout of an elementwise operation, worked out once.
//
// Note [The canonical geometry]
// Every kernel - the CPU copy and convert kernels, the small copies, the
// loops of for_each, the CUDA OffsetCalculator - walks the same description
// of its operands: one shape and, per operand, byte strides and the address
// of element (0, …, 0). A TensorIterator builds it (and so does
// copy_geometry for the CPU copy, which needs no iterator), in these steps,
// each a function below:
//  1. broadcast: the shape's dims are taken last first (the tensors' own
//     order, fastest first: dim 0 of the geometry is the tensors' last);
//     every operand gets byte strides for them, stride 0 where it is
//     broadcast and on every dim of size 1 (set_operand_strides);
//  2. sort: dims fastest first by |stride|, the first operand with a strict
//     answer deciding (outputs come first, so the destination decides),
//     broadcast strides abstaining, ties keeping the smaller size first and
//     then the order of step 1 (as PyTorch's reorder_dimensions;
//     sort_dims_fastest_first);
//  3. flip: a dim where the first operand that moves along it goes
//     backwards is walked from its other end by every operand: the same
//     pairs of elements, in memory order (walk_negative_dims_forward);
//  4. coalesce: neighbouring dims that step every operand evenly, or that
//     have size 1, become one (as PyTorch's coalesce_dimensions;
//     coalesce_dims).
// When every operand shares one dense layout the result is one dim of
// numel elements, and building it takes the shortcut that says so.
//
// After the steps, for an output that does not overlap itself (every
// copy's destination): its strides are positive, strictly increasing, and
// no two neighbouring dims merge; a dim of size 1 remains only as the one
// dim of a one-element space; an empty space keeps its dims (numel 0).
// Element (i0, i1, …) of operand k is at data[k] + Σ i_d × strides[k][d].
#pragma once

#include <cstdint>

#include "core/dim_vector.h"
#include "core/function_ref.h"
#include "core/tensor.h"

namespace st {

// The most operands one geometry (and one TensorIterator) holds.
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

// Step 1 for operand k, a tensor of `sizes` and `strides` (elements) that
// broadcasts to the shape whose dims g.shape holds last first, `itemsize`
// bytes per element, element (0, …, 0) at `data`. False (g unchanged for
// operand k's data) when a stride in bytes overflows int64; the caller
// names it.
bool set_operand_strides(Geometry& g, int k, const DimVector& sizes, const DimVector& strides, int64_t itemsize,
                         char* data);

// Step 2. Operands whose bit is set in `abstain` take no part in the
// decision (outputs not allocated yet). When perm is not null, perm[i] is
// the dim, in step 1's order, that is now dim i.
void sort_dims_fastest_first(Geometry& g, unsigned abstain, InlineVector<int>* perm);

// Step 3.
void walk_negative_dims_forward(Geometry& g);

// Step 4.
void coalesce_dims(Geometry& g);

// Steps 2 to 4, for a geometry whose operands are all defined.
void canonicalize(Geometry& g);

// The geometry of a copy dst ← src (operand 0 dst, 1 src; src broadcast to
// dst's shape, which the caller has checked), canonical. The one-dim
// shortcut applies when both are laid out alike and densely. Throws
// ST_ERROR_OUT_OF_MEMORY when a stride in bytes overflows int64.
Geometry copy_geometry(const Tensor& dst, const Tensor& src);

// The geometry of a fill of dst (operand 0 alone), canonical: a broadcast
// dim (stride 0) is walked as one element, so that each address is written
// once. Throws ST_ERROR_OUT_OF_MEMORY when a stride in bytes overflows int64.
Geometry fill_geometry(const Tensor& dst);

// Operands a copy reads beside src that vary along one dim of dst only
// (a scaled copy's scales and shifts): operand 2 + i's element c along dst
// dim `dim` is at data[i] + c × itemsize bytes; dim -1: one element for all.
struct ChannelOperands {
  int dim = -1;
  int64_t itemsize = 0;
  int count = 0;  // at most kMaxOperands - 2
  char* data[kMaxOperands - 2] = {};
};

// copy_geometry's geometry with the channel operands as operands 2, 3, …
// (stride 0 on every dim but `dim`), canonical: the same sort (dst
// decides), flips and merges serve them.
Geometry copy_geometry(const Tensor& dst, const Tensor& src, const ChannelOperands& channels);

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
