// Converting copies of the hot dtype pairs (cpu/levels/convert_kernel_table.h's
// ConvertPair) over a Geometry, vectorized and bit-identical to the scalar
// rules (convert_rules.h), for every layout, including the converting
// transposes (uint8 NHWC -> float32 NCHW in one pass).
#pragma once

#include "core/numeric/dtype.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

// Whether copy_convert has a kernel for the pair.
bool has_fast_convert(ScalarType dst, ScalarType src);

// Copies g (dst strides in dst elements' bytes, src strides in src's)
// converting each element; over up to st_get_num_threads() threads.
// Returns false, writing nothing, for a pair without a kernel.
bool copy_convert(const Geometry& g, ScalarType dst, ScalarType src);

}  // namespace cpu
}  // namespace st
