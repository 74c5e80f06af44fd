// Calling kernels without the dispatcher where no one can tell the difference.
//
// Note [Direct calls]
// st_contiguous of a transposed 4×4 tensor goes contiguous → clone →
// empty_like → empty_strided (its BackendSelect kernel, then its CPU kernel)
// → copy_: six trips through the dispatcher, about 50 instructions each, to
// copy 64 bytes. So the entry points of these operators in src/ops
// (ops::contiguous, clone, empty_like, empty_strided, copy_) do the work of
// the kernels the dispatcher would run, without it, when those kernels and
// nothing else would run, which holds while
//  - the tensors are on the CPU device (copy_: in host memory), or for
//    empty_strided the device is the CPU;
//  - the process-wide included keys are the default, {BackendSelect}: no
//    trace callback is set, so there is no Tracing key, whose kernels
//    report every call (a traced program still sees every operator);
//  - no thread holds a dispatch key include or exclude guard;
//  - the tables of all these operators send CPU calls to the kernels this
//    library registers for them: a kernel registered at run time takes
//    over and turns direct calls off until it is gone. Checked against the
//    tables once per dispatch table epoch (Note [Dispatch table epoch]).
// A kernel called directly gets kDirectCallKeys; none of them reads it.
// Inside a chain of direct calls the conditions hold already, so the
// functions in namespace `direct` (the composites' work, written out) go
// on without asking again.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/memory_format.h"
#include "core/tensor.h"
#include "dispatch/dispatch_key_extractor.h"
#include "dispatch/local_dispatch_key_set.h"
#include "dispatch/operator_entry.h"

namespace st {
namespace ops {

constexpr dispatch::DispatchKeySet kDirectCallKeys{dispatch::DispatchKey::CPU};

namespace detail {

// (epoch << 1) | verdict, for the last epoch checked.
extern std::atomic<uint64_t> g_direct_call_verdict;
// Reads the tables, records the verdict for `epoch` and returns it.
bool check_direct_calls(uint64_t epoch);

// Each operator's own file answers whether a call with `keys` (computed as
// the dispatcher computes them: the tensors' keys and {BackendSelect})
// reaches the kernel that file registers.
bool contiguous_reaches_own_kernel(dispatch::DispatchKeySet keys);
bool clone_reaches_own_kernel(dispatch::DispatchKeySet keys);
bool empty_like_reaches_own_kernel(dispatch::DispatchKeySet keys);
bool empty_strided_reaches_own_kernels(dispatch::DispatchKeySet keys);
bool copy_reaches_own_kernel(dispatch::DispatchKeySet keys);

}  // namespace detail

// Whether, right now, the operators above may call their CPU kernels directly.
ST_FORCE_INLINE bool direct_calls_allowed() {
  using dispatch::DispatchKey;
  using dispatch::DispatchKeySet;
  if (dispatch::global_included_keys() != DispatchKeySet(DispatchKey::BackendSelect) ||
      dispatch::g_dispatch_state.active_guards.load(std::memory_order_relaxed) != 0) {
    return false;
  }
  const uint64_t epoch = dispatch::dispatch_table_epoch();
  const uint64_t verdict = detail::g_direct_call_verdict.load(std::memory_order_relaxed);
  if ((verdict >> 1) == epoch) return (verdict & 1) != 0;
  return detail::check_direct_calls(epoch);
}

// Whether the dispatcher would send a call with this tensor to a CPU kernel
// (host memory, pinned or not).
ST_FORCE_INLINE bool dispatches_as_cpu(const Tensor& t) {
  return dispatch::keys_of_tensor(t) == dispatch::DispatchKeySet(dispatch::DispatchKey::CPU);
}

// Whether `t` is on the CPU device proper: a chain that allocates like it
// takes direct calls only then (pinned memory needs the CUDA backend's
// allocator, which its dispatched calls reach).
ST_FORCE_INLINE bool on_cpu_device(const Tensor& t) { return t.device().type == DeviceType::CPU; }

// The operators' work as direct calls make it, for callers that have
// checked direct_calls_allowed() and the device conditions above.
namespace direct {
// clone(src, fmt) of a tensor on_cpu_device.
Tensor clone_cpu(const Tensor& src, MemoryFormat fmt);
// empty_like(src, fmt) of a tensor on_cpu_device.
Tensor empty_like_cpu(const Tensor& src, MemoryFormat fmt);
// copy_(dst, src, false) where dst is what empty_like_cpu(src, …) has just
// returned.
void copy_into_new_cpu(const Tensor& dst, const Tensor& src);
}  // namespace direct

}  // namespace ops
}  // namespace st
