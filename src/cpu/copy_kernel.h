// The element work of the CPU copy_ kernel: dst ← src over the canonical
// geometry of the copy (operand 0 dst, operand 1 src; iter/geometry.h), any of
// the 289 dtype pairs, both operands in host memory, no harmful overlap (copy_'s
// checks saw to it).
#pragma once

#include "core/numeric/dtype.h"
#include "core/runtime/function_ref.h"
#include "core/tensor.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

void copy_kernel(const Geometry& g, ScalarType dst_type, ScalarType src_type);

// The part of the CPU copy_ kernel around its element work, for every copy
// of host memory (copy_ and copy_scaled_): copy_'s checks
// (core/copy_preconditions.h; `transforms` as there), then run(dst, src) -
// after copying src into a temporary first when the two share memory, so
// that src is read in full before dst is written.
using HostCopyRun = FunctionRef<void(const Tensor& dst, const Tensor& src)>;
void checked_host_copy(const Tensor& dst, const Tensor& src, bool transforms, HostCopyRun run);

}  // namespace cpu
}  // namespace st
