// Copy plans: the copy_plan operator asks the operands' backend for a
// PreparedCopy (core/prepared_copy.h); executing one runs it directly
// unless the two operands' bytes may meet, or the prepared copy does not
// take the addresses (a device conversion of memory off its element
// alignment), where it copies through the copy_ (copy_scaled_) operator as
// st_copy (st_copy_scaled) does: staging, or for the very same elements
// nothing (in place), so a plan's results are that call's bit for bit.
#include "ops/copy_plan.h"

#include "core/copy_preconditions.h"
#include "core/dims.h"
#include "core/error.h"
#include "core/extent.h"
#include "core/foreign.h"
#include "core/runtime/cuda_hooks.h"
#include "dispatch/local_dispatch_key_set.h"
#include "dispatch/registration.h"
#include "ops/copy.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(PlanCopy, "copy_plan", "copy_plan(Tensor dst, Tensor src, ScaleShift? ss, int effort) -> Plan",
                   std::unique_ptr<PreparedCopy>(const Tensor&, const Tensor&, const ScaleShift*, PlanEffort));

PlanOperand operand_of(const Tensor& t) {
  PlanOperand op;
  op.sizes = t.sizes();
  op.strides = t.strides();
  op.dtype = t.dtype();
  op.device = t.device();
  op.extent_known = t.impl()->byte_extent(&op.bytes);
  return op;
}

std::string describe(Device d) {
  return std::string(device_type_name(static_cast<int32_t>(d.type))) + ":" + std::to_string(d.index);
}

void check_operand(const PlanOperand& plan, const Tensor& t, const char* name) {
  ST_CHECK(t.sizes() == plan.sizes, ST_ERROR_INVALID_ARGUMENT, "%s has sizes %s; the plan was made for sizes %s", name,
           format_dims(t.sizes()).c_str(), format_dims(plan.sizes).c_str());
  ST_CHECK(t.strides() == plan.strides, ST_ERROR_INVALID_ARGUMENT,
           "%s has strides %s; the plan was made for strides %s", name, format_dims(t.strides()).c_str(),
           format_dims(plan.strides).c_str());
  ST_CHECK(t.dtype() == plan.dtype, ST_ERROR_INVALID_ARGUMENT, "%s has dtype %s; the plan was made for dtype %s", name,
           dtype_name(static_cast<int32_t>(t.dtype())), dtype_name(static_cast<int32_t>(plan.dtype)));
  ST_CHECK(t.device() == plan.device, ST_ERROR_INVALID_ARGUMENT, "%s is on device %s; the plan was made for %s", name,
           describe(t.device()).c_str(), describe(plan.device).c_str());
}

// An operand's bytes from `p` are memory of its device, when that is a
// CUDA device. One whose extent overflows goes through copy_, which wraps
// (and so checks) it.
void check_device_memory(const PlanOperand& op, const void* p, const char* name) {
  if (!op.device.is_cuda() || !op.extent_known) return;
  uintptr_t first, last;
  byte_addresses(op.bytes, p, &first, &last);
  cuda_hooks().check_foreign_memory(reinterpret_cast<const void*>(first), static_cast<size_t>(last - first + 1),
                                    op.device, name);
}

}  // namespace

CopyPlan::CopyPlan(const Tensor& dst, const Tensor& src, const ScaleShift* ss, PlanEffort effort)
    : dst_(operand_of(dst)),
      src_(operand_of(src)),
      empty_(dst.numel() == 0),
      on_cuda_(!empty_ && (dst.device().is_cuda() || src.device().is_cuda())) {
  check_copy_layouts(dst, src);
  if (ss) ss_ = std::make_unique<const ScaleShift>(*ss);
  if (empty_) return;
  // Only host copies are timed: a device plan takes st_copy's own choice
  // of kernel.
  const bool host = dst.device().is_host() && src.device().is_host();
  const bool measured = effort == PlanEffort::Measure && host && get_overlap_status(dst, src) == OverlapStatus::No;
  prepared_ = PlanCopy::call(dst, src, ss_.get(), measured ? PlanEffort::Measure : PlanEffort::Estimate);
  // A measured plan leaves dst holding the copy; the backend did it unless
  // it could not time on these operands.
  if (effort == PlanEffort::Measure && !measured) {
    if (ss_) {
      copy_scaled_(dst, src, *ss_, false);
    } else {
      copy_(dst, src, false);
    }
  }
}

CopyPlan::~CopyPlan() = default;

void CopyPlan::check_operands(const Tensor& dst, const Tensor& src) const {
  check_operand(dst_, dst, "dst");
  check_operand(src_, src, "src");
  check_writable(dst, "dst");
}

void CopyPlan::check_device_addresses(const void* dst, const void* src) const {
  check_device_memory(dst_, dst, "dst_data");
  check_device_memory(src_, src, "src_data");
}

bool CopyPlan::may_share_memory(const void* dst, const void* src) const {
  if (!dst_.extent_known || !src_.extent_known) return true;
  uintptr_t d_first, d_last, s_first, s_last;
  byte_addresses(dst_.bytes, dst, &d_first, &d_last);
  byte_addresses(src_.bytes, src, &s_first, &s_last);
  return d_first <= s_last && s_first <= d_last;
}

void CopyPlan::copy_through_operator(void* dst, const void* src, bool non_blocking) const {
  // Tensors over the caller's memory, owning none of it: copy_ finds out
  // how they share it, as it does for st_copy.
  Tensor d = wrap_foreign(dst, dst_.sizes, &dst_.strides, dst_.dtype, dst_.device, false, "dst_data");
  Tensor s = wrap_foreign(const_cast<void*>(src), src_.sizes, &src_.strides, src_.dtype, src_.device, true,
                          "src_data");
  if (ss_) {
    copy_scaled_(d, s, *ss_, non_blocking);
  } else {
    copy_(d, s, non_blocking);
  }
}

void CopyPlan::run(void* dst, const void* src, bool non_blocking) const {
  if (empty_) return;
  if (prepared_ && !may_share_memory(dst, src) &&
      prepared_->run(static_cast<char*>(dst), static_cast<const char*>(src), non_blocking)) {
    return;
  }
  copy_through_operator(dst, src, non_blocking);
}

void CopyPlan::execute(void* dst, const void* src, bool non_blocking) const {
  // Inside a trace callback the thread excludes Tracing: the process-wide
  // flag alone would report (and recurse into) the callback.
  if (ST_LIKELY(!dispatch::tracing_this_call())) return run(dst, src, non_blocking);
  // One report for the whole execute: the copy_ it may call is not traced.
  dispatch::TraceScope scope("copy_plan_execute");
  dispatch::ExcludeDispatchKeyGuard untraced(dispatch::DispatchKey::Tracing);
  run(dst, src, non_blocking);
}

}  // namespace ops
}  // namespace st
