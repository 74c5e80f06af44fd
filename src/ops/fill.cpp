// The fill_ operator and its kernel for host memory: a self-overlapping dst
// is allowed, since every element receives the same value (API.md, st_fill).
#include "core/copy_preconditions.h"
#include "core/cuda_hooks.h"
#include "core/error.h"
#include "cpu/fill_kernel.h"
#include "dispatch/registration.h"
#include "ops/copy.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Fill, "fill_", "fill_(Tensor(a!) self, float value) -> ()", void(const Tensor&, double));

void fill_cpu(dispatch::DispatchKeySet, const Tensor& dst, double value) {
  check_writable(dst, "dst");
  if (!dst.device().is_host()) cuda_hooks().check_device(dst.device());
  ST_CHECK(dst.device().is_host(), ST_ERROR_NOT_IMPLEMENTED, "fill of device memory is not available in this build");
  cpu::fill_kernel(dst, value);
}
ST_REGISTER_KERNEL("fill_", CPU, fill_cpu);

}  // namespace

void fill_(const Tensor& dst, double value) { Fill::call(dst, value); }

}  // namespace ops
}  // namespace st
