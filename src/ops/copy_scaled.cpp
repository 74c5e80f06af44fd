// The copy_scaled_ operator (include/stride.h, st_copy_scaled): copy_ with a
// scale and a shift applied to every element. It dispatches as copy_ does, on
// the union of dst's and src's keys; the kernels live in
// src/cpu/copy_scaled_kernel.cpp and src/cuda/copy_scaled_kernel.cpp.
#include "ops/copy.h"

#include "dispatch/registration.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(CopyScaled, "copy_scaled_",
                   "copy_scaled_(Tensor(a!) self, Tensor src, ScaleShift ss, bool non_blocking) -> ()",
                   void(const Tensor&, const Tensor&, const ScaleShift&, bool));

}  // namespace

void copy_scaled_(const Tensor& dst, const Tensor& src, const ScaleShift& ss, bool non_blocking) {
  CopyScaled::call(dst, src, ss, non_blocking);
}

}  // namespace ops
}  // namespace st
