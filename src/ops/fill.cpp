// The fill_ operator (include/stride.h, st_fill): a self-overlapping dst is
// allowed, since every element receives the same value. The backends' kernels
// live in src/cpu/fill_kernel.cpp and src/cuda/fill_kernel.cpp.
#include "ops/fill.h"

#include "dispatch/registration.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Fill, "fill_", "fill_(Tensor(a!) self, float value) -> ()", void(const Tensor&, double));

}  // namespace

void fill_(const Tensor& dst, double value) { Fill::call(dst, value); }

}  // namespace ops
}  // namespace st
