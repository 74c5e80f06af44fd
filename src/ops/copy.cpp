// The copy_ operator (include/stride.h, st_copy). It dispatches on the union of
// dst's and src's keys, so a CUDA operand selects the CUDA backend's kernel;
// the backends' kernels live in src/cpu/copy_kernel.cpp and
// src/cuda/copy_kernel.cpp and share their preconditions
// (core/copy_preconditions.h).
#include "ops/copy.h"

#include "dispatch/registration.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Copy, "copy_", "copy_(Tensor(a!) self, Tensor src, bool non_blocking) -> ()",
                   void(const Tensor&, const Tensor&, bool));

}  // namespace

void copy_(const Tensor& dst, const Tensor& src, bool non_blocking) { Copy::call(dst, src, non_blocking); }

}  // namespace ops
}  // namespace st
