// The copy_ operator and its kernel for host memory (API.md, st_copy): the
// preconditions every backend shares (core/copy_preconditions.h), staging
// through a temporary when src and dst share memory, then the CPU kernel
// over a TensorIterator (small tensors skip the iterator: cpu/copy_small.h).
// copy_ dispatches on the union of dst's and src's keys, so a CUDA operand
// selects the CUDA backend's kernel.
#include "ops/copy.h"

#include "core/contiguity.h"
#include "core/copy_preconditions.h"
#include "core/cuda_hooks.h"
#include "core/empty.h"
#include "core/error.h"
#include "cpu/copy_kernel.h"
#include "cpu/copy_small.h"
#include "dispatch/registration.h"
#include "iter/tensor_iterator.h"
#include "ops/direct_calls.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(Copy, "copy_", "copy_(Tensor(a!) self, Tensor src, bool non_blocking) -> ()",
                   void(const Tensor&, const Tensor&, bool));

void run_cpu_copy(const Tensor& dst, const Tensor& src) {
  if (cpu::copy_small(dst, src)) return;
  TensorIterator iter = TensorIteratorConfig()
                            .add_output(dst, "dst")
                            .add_input(src, "src")
                            .resize_outputs(false)
                            .check_all_same_dtype(false)
                            .check_all_same_device(false)
                            .check_mem_overlap(false)  // check_copy decided already
                            .build();
  cpu::copy_kernel(iter);
}

// Host copies are synchronous, so non_blocking changes nothing here.
void copy_cpu(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src, bool /*non_blocking*/) {
  const CopyAction action = check_copy(dst, src);
  if (action == CopyAction::Nothing) return;
  if (!dst.device().is_host() || !src.device().is_host()) {
    cuda_hooks().check_device(dst.device().is_host() ? src.device() : dst.device());
  }
  ST_CHECK(dst.device().is_host() && src.device().is_host(), ST_ERROR_NOT_IMPLEMENTED,
           "copy between device memory and the host is not available in this build");
  if (action == CopyAction::ViaTemporary) {
    // src is read in full before dst is written; the temporary has src's own
    // (unbroadcast) shape, so it is as small as src.
    Tensor staged = empty_cpu(src.sizes(), contiguous_strides(src.sizes()), src.dtype());
    run_cpu_copy(staged, src);
    run_cpu_copy(dst, staged);
    return;
  }
  run_cpu_copy(dst, src);
}
ST_REGISTER_KERNEL("copy_", CPU, copy_cpu);

}  // namespace

namespace detail {
bool copy_reaches_own_kernel(dispatch::DispatchKeySet keys) { return Copy::dispatches_to(keys, &copy_cpu); }
}  // namespace detail

void direct::copy_into_new_cpu(const Tensor& dst, const Tensor& src) {
  // copy_cpu, where check_copy's answer is known for a tensor that
  // direct::empty_like_cpu(src, …) has just made: writable, dense, src's
  // shape, in memory that was free while src was alive, so apart from
  // src's. Direct, or Nothing without elements.
  if (dst.numel() != 0) run_cpu_copy(dst, src);
}

void copy_(const Tensor& dst, const Tensor& src, bool non_blocking) {
  if (dispatches_as_cpu(dst) && dispatches_as_cpu(src) && direct_calls_allowed()) {
    return copy_cpu(kDirectCallKeys, dst, src, non_blocking);
  }
  Copy::call(dst, src, non_blocking);
}

}  // namespace ops
}  // namespace st
