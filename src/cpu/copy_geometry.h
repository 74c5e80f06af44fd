// The geometry the CPU copy kernels work on: a copy of ndim nested loops,
// each with a size and a byte stride for dst and for src. It is what a
// TensorIterator over (dst, src) holds after reordering and coalescing, but
// the kernels only assume what is written here, so they can be driven
// (and tested) without one.
#pragma once

#include <cstdint>

#include "stride.h"

namespace st {
namespace cpu {

struct CopyGeometry {
  int ndim = 0;                       // 0 (one element) to ST_MAX_DIMS
  int64_t sizes[ST_MAX_DIMS];         // elements, >= 0
  int64_t dst_strides[ST_MAX_DIMS];   // bytes, any sign
  int64_t src_strides[ST_MAX_DIMS];   // bytes, any sign; 0 for a broadcast dim
  char* dst = nullptr;                // the element at index 0 in every dim
  const char* src = nullptr;
};
// Preconditions: dst never writes one byte twice (no dst self-overlap) and
// does not overlap src; the copy front guarantees both. Dims may come in
// any order (fastest-first by dst is what a TensorIterator gives and costs
// nothing to normalize).

// The same copy in canonical form: size-1 dims dropped, every dst stride
// made positive (a dim with a negative one is walked from its other end,
// which moves both base pointers), dims sorted by dst stride (fastest
// first), and neighbours that step both operands evenly merged into one.
// A geometry with a zero-size dim becomes one with numel 0: ndim 1 and
// sizes[0] == 0.
CopyGeometry normalize_geometry(const CopyGeometry& g);

int64_t geometry_numel(const CopyGeometry& g);

}  // namespace cpu
}  // namespace st
