// Converting copies of the hot dtype pairs over a Geometry, vectorized
// and bit-identical to the scalar rules (convert_rules.h):
// float32 -> float16 / bfloat16, int64 -> float64, uint8 -> float32,
// float16 / bfloat16 -> float32, for every layout, including the
// converting transposes (uint8 NHWC -> float32 NCHW in one pass).
#pragma once

#include "core/dtype.h"
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
