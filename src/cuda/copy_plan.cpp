// The CUDA kernel of the copy_plan operator (ops/copy_plan.h). For dst and
// src on one device it works out what copy_on_device (scaled_copy_on_device)
// works out on every call, once: the copy's iteration and its 32-bit parts,
// kept relative to the operands' element (0, …, 0) (cuda/kernels/copy_part.h), and
// for a scaled copy its values in device memory. Running it places the parts
// on the given memory and launches them through the very code st_copy
// (st_copy_scaled) launches its parts with, on the current stream, so a plan
// gives that call's bits and allocates nothing: an execute can be captured
// in a CUDA graph. Other pairs (host and device, two devices) get no
// prepared copy: the plan copies through the copy_ operator, as st_copy.
#include <memory>
#include <vector>

#include "core/prepared_copy.h"
#include "cuda/device_copy.h"
#include "cuda/kernels/copy_launch.h"
#include "cuda/kernels/copy_part.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/kernels/scaled_copy_iter.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/stream.h"
#include "cuda/runtime/stream_capture.h"
#include "cuda/scale_shift_values.h"
#include "dispatch/registration.h"

namespace st {
namespace cuda {
namespace {

class CudaPreparedCopy final : public PreparedCopy {
 public:
  // dst and src on one checked CUDA device, dst not empty.
  CudaPreparedCopy(const Tensor& dst, const Tensor& src, const ScaleShift* ss)
      : device_(dst.device().index),
        dst_type_(dst.dtype()),
        src_type_(src.dtype()),
        scaled_(ss != nullptr),
        saturate_(ss != nullptr && ss->saturate) {
    DeviceGuard guard(device_);
    if (ss) upload_values(*ss, dst.device());
    const TensorIterator iter =
        ss ? TensorIterator::scaled_copy(dst, src, *ss, values_.data()) : TensorIterator::copy(dst, src);
    parts_ = relative_parts(iter, dst.data(), src.data());
  }

  bool run(char* dst, const char* src, bool non_blocking) const override {
    if (!kernels_take(dst_type_, src_type_, scaled_, dst, src)) return false;
    DeviceGuard guard(device_);
    const cudaStream_t stream = current_stream(device_);
    for (const RelativePart& relative : parts_) {
      const CopyPart part = relative.at(dst, src);
      if (scaled_) {
        launch_copy_scaled(dst_type_, src_type_, scaled_copy_args(part, saturate_), stream);
      } else {
        launch_copy_part(part, stream);
      }
    }
    if (!non_blocking) synchronize_unless_capturing(device_);
    return true;
  }

 private:
  // The plan outlives any graph being captured now, and its executes may
  // run on other streams: the values are written outside a capture and
  // waited for.
  void upload_values(const ScaleShift& ss, Device device) {
    const cudaStream_t stream = current_stream(device_);
    ST_CHECK(!is_capturing(stream), ST_ERROR_INVALID_ARGUMENT,
             "the current stream of cuda:%d is capturing a CUDA graph, and a scaled plan's values would be written "
             "by the graph only: make the plan before the capture",
             device_);
    values_ = scale_shift_values(ss, device);
    ST_CUDA_CHECK(cudaStreamSynchronize(stream));
  }

  int device_;
  ScalarType dst_type_, src_type_;
  bool scaled_;
  bool saturate_;
  // A scaled copy's scales and shifts, which operands 2 and 3 of its parts
  // point into: device memory of the plan's own, allocated on the stream
  // current at creation and freed on it at release (as a tensor's).
  Tensor values_;
  std::vector<RelativePart> parts_;
};

// ESTIMATE and MEASURE alike: st_copy's own choice of kernel (the caller
// copies to leave a measured plan's dst holding the result).
std::unique_ptr<PreparedCopy> copy_plan_cuda(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src,
                                             const ScaleShift* ss, PlanEffort) {
  if (!dst.device().is_cuda() || src.device() != dst.device()) return nullptr;
  check_device(dst.device());
  return std::make_unique<CudaPreparedCopy>(dst, src, ss);
}
ST_REGISTER_KERNEL("copy_plan", CUDA, copy_plan_cuda);

}  // namespace
}  // namespace cuda
}  // namespace st
