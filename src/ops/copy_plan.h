// Copy plans (include/stride.h, st_copy_plan_create): a copy of one layout and
// dtype pair, plain or scaled, prepared once and run on new memory each time,
// with st_copy's (st_copy_scaled's) results. What a plan is lives here; its
// handle lives in api/plan_table.h.
#pragma once

#include <memory>

#include "core/extent.h"
#include "core/prepared_copy.h"
#include "core/scale_shift.h"
#include "core/tensor.h"

namespace st {
namespace ops {

// One operand of a plan: what execute compares, and which bytes it touches.
struct PlanOperand {
  DimVector sizes;
  DimVector strides;
  ScalarType dtype;
  Device device;
  // The bytes its elements touch, relative to element (0, …, 0)
  // (core/extent.h's byte_extent); extent_known false when they overflow
  // int64 (then any other operand is taken to share them).
  Extent bytes;
  bool extent_known = false;
};

class CopyPlan {
 public:
  // Checks what st_copy checks of the operands' metadata (writable dst,
  // broadcastable shapes, dst free of self-overlap) and prepares the copy:
  // st_copy's, or st_copy_scaled's with `ss` (prepared by the caller; the
  // plan keeps a copy). With PlanEffort::Measure, dst holds the copy's
  // result afterwards. The plan keeps neither tensor.
  CopyPlan(const Tensor& dst, const Tensor& src, const ScaleShift* ss, PlanEffort effort);
  ~CopyPlan();
  CopyPlan(const CopyPlan&) = delete;
  CopyPlan& operator=(const CopyPlan&) = delete;

  // Throws ST_ERROR_INVALID_ARGUMENT naming the first of dst's and then
  // src's sizes, strides, dtype and device that differs from the plan's,
  // and ST_ERROR_READ_ONLY for a read-only dst.
  void check_operands(const Tensor& dst, const Tensor& src) const;

  // For addresses given without a tensor (st_copy_plan_execute_raw): throws
  // ST_ERROR_INVALID_ARGUMENT, naming dst_data or src_data, when the bytes
  // an operand on a CUDA device spans from there are not memory of that
  // device (a kernel would fault on them and poison the context).
  void check_addresses(const void* dst, const void* src) const {
    if (on_cuda_) check_device_addresses(dst, src);
  }

  // dst ← src with element (0, …, 0) of each at these addresses: st_copy's
  // result, overlap included. Reported to a trace callback as one call of
  // "copy_plan_execute". Callable from several threads at once.
  void execute(void* dst, const void* src, bool non_blocking) const;

 private:
  void run(void* dst, const void* src, bool non_blocking) const;
  void check_device_addresses(const void* dst, const void* src) const;
  bool may_share_memory(const void* dst, const void* src) const;
  void copy_through_operator(void* dst, const void* src, bool non_blocking) const;

  PlanOperand dst_;
  PlanOperand src_;
  bool empty_ = false;
  bool on_cuda_ = false;  // an operand on a CUDA device, and elements to copy
  std::unique_ptr<const ScaleShift> ss_;  // null: a plain copy; before prepared_, which points into it
  // The backend's prepared copy: for host operands, and for operands on one
  // CUDA device. Null for other pairs (host and device, two devices), which
  // go through the copy_ operator every time.
  std::unique_ptr<PreparedCopy> prepared_;
};

}  // namespace ops
}  // namespace st
