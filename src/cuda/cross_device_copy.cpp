#include "cuda/cross_device_copy.h"

#include <cuda_runtime_api.h>

#include "core/error.h"
#include "cuda/cross_device_plan.h"
#include "cuda/device_copy.h"
#include "cuda/runtime/cuda_error.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/empty.h"
#include "cuda/runtime/host_keepalive.h"
#include "cuda/runtime/peer_access.h"
#include "cuda/runtime/stream.h"
#include "cuda/runtime/stream_capture.h"
#include "dispatch/dispatch_key_extractor.h"
#include "dispatch/dispatcher.h"

namespace st {
namespace cuda {
namespace {

// An event of the current device, for ordering streams only.
class Event {
 public:
  Event() { ST_CUDA_CHECK(cudaEventCreateWithFlags(&event_, cudaEventDisableTiming)); }
  // Destroying an event whose work is still queued is allowed: the runtime
  // releases it once the work completes.
  ~Event() {
    if (cudaEventDestroy(event_) != cudaSuccess) (void)cudaGetLastError();
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

// A buffer with the plan's layout on `device` (device, pinned or pageable
// memory, as the operand on that side).
Tensor buffer_on(Device device, const CrossDevicePlan& plan) {
  return empty_strided_on(plan.sizes, plan.strides, plan.dtype, device);
}

// A staging step between two tensors in host memory (CPU or pinned): the
// copy_ operator for the keys of its own operands, which has its own checks
// and staging. A redispatch, below tracing, so that it is part of the one
// copy_ call being traced.
void copy_in_host_memory(const Tensor& dst, const Tensor& src) {
  static const auto op = dispatch::find_operator("copy_").typed<void(const Tensor&, const Tensor&, bool)>();
  op.redispatch(dispatch::keys_of_arguments(dst, src), dst, src, false);
}

// A copy on one side of the transfer: the device's kernels or the host's.
void copy_on_side(const Tensor& dst, const Tensor& src) {
  if (dst.device().is_cuda()) {
    copy_on_device(dst, src);
  } else {
    copy_in_host_memory(dst, src);
  }
}

void copy_between_host_and_gpu(const Tensor& dst, const Tensor& src, const CrossDevicePlan& plan, bool non_blocking) {
  const bool to_gpu = dst.device().is_cuda();
  const Tensor& host = to_gpu ? src : dst;
  const int gpu = (to_gpu ? dst : src).device().index;
  DeviceGuard guard(gpu);
  const cudaStream_t stream = current_stream(gpu);
  ST_CHECK(!is_capturing(stream), ST_ERROR_INVALID_ARGUMENT,
           "the current stream of cuda:%d is capturing a CUDA graph, and a copy between host and device memory "
           "cannot be captured: its host steps would run now, and its host memory would have to outlive the graph",
           gpu);
  Tensor from = src;
  if (plan.stage_src) {
    from = buffer_on(src.device(), plan);
    copy_on_side(from, src);
  }
  const Tensor to = plan.stage_dst ? buffer_on(dst.device(), plan) : dst;
  ST_CUDA_CHECK(cudaMemcpyAsync(to.data(), from.data(), static_cast<size_t>(plan.nbytes),
                                to_gpu ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream));
  const bool last_step_on_host = plan.stage_dst && !to_gpu;
  if (last_step_on_host) {
    ST_CUDA_CHECK(cudaStreamSynchronize(stream));  // the host reads the buffer next
    copy_in_host_memory(dst, to);
    return;
  }
  if (plan.stage_dst) copy_on_device(dst, to);
  if (non_blocking && host.device().type == DeviceType::CUDAHost) {
    // Queued only: the pinned memory the transfer reads or writes must
    // outlive it, whoever releases it first.
    keep_until_done(host.storage(), gpu, stream);
    const Tensor& host_buffer = to_gpu ? from : to;
    if (!host_buffer.is_same(host)) keep_until_done(host_buffer.storage(), gpu, stream);
    return;
  }
  ST_CUDA_CHECK(cudaStreamSynchronize(stream));
}

// Note [Copies during stream capture]: neither stream may be capturing.
void refuse_capture_between_gpus(int gpu, cudaStream_t stream, int other) {
  DeviceGuard guard(gpu);
  ST_CHECK(!is_capturing(stream), ST_ERROR_INVALID_ARGUMENT,
           "the current stream of cuda:%d is capturing a CUDA graph, and a copy between cuda:%d and cuda:%d cannot "
           "be captured: its two streams would be joined into one capture and not rejoined",
           gpu, gpu, other);
}

void copy_between_gpus(const Tensor& dst, const Tensor& src, const CrossDevicePlan& plan) {
  const int src_gpu = src.device().index, dst_gpu = dst.device().index;
  const cudaStream_t src_stream = current_stream(src_gpu), dst_stream = current_stream(dst_gpu);
  refuse_capture_between_gpus(src_gpu, src_stream, dst_gpu);
  refuse_capture_between_gpus(dst_gpu, dst_stream, src_gpu);
  Tensor from = src;
  if (plan.stage_src) {
    from = buffer_on(src.device(), plan);
    copy_on_device(from, src);  // on src_stream
  }
  const Tensor to = plan.stage_dst ? buffer_on(dst.device(), plan) : dst;  // allocated on dst_stream
  {
    // src's stream waits for everything dst's stream queued before: uses of
    // dst, and the allocation of the buffer.
    DeviceGuard guard(dst_gpu);
    Event dst_ready;
    ST_CUDA_CHECK(cudaEventRecord(dst_ready.get(), dst_stream));
    DeviceGuard on_src(src_gpu);
    ST_CUDA_CHECK(cudaStreamWaitEvent(src_stream, dst_ready.get(), 0));
  }
  // Direct over NVLink or PCIe when the devices allow it, else through the host.
  peer_access().enable(src_gpu, dst_gpu);
  {
    DeviceGuard guard(src_gpu);
    ST_CUDA_CHECK(cudaMemcpyPeerAsync(to.data(), dst_gpu, from.data(), src_gpu, static_cast<size_t>(plan.nbytes),
                                      src_stream));
    // dst's stream waits for the transfer before anything else touches dst.
    Event copied;
    ST_CUDA_CHECK(cudaEventRecord(copied.get(), src_stream));
    DeviceGuard on_dst(dst_gpu);
    ST_CUDA_CHECK(cudaStreamWaitEvent(dst_stream, copied.get(), 0));
  }
  if (plan.stage_dst) copy_on_device(dst, to);  // on dst_stream
  // `from` is freed in src_stream's order, after the transfer; `to` in
  // dst_stream's, after the copy into dst.
}

}  // namespace

void copy_across_devices(const Tensor& dst, const Tensor& src, bool non_blocking) {
  release_completed_keepalives();
  const bool src_on_gpu = src.device().is_cuda(), dst_on_gpu = dst.device().is_cuda();
  ST_CHECK((src_on_gpu || dst_on_gpu) && dst.device() != src.device(), ST_ERROR_INTERNAL,
           "copy_across_devices: dst on %s:%d, src on %s:%d", device_type_name(static_cast<int32_t>(dst.device().type)),
           dst.device().index, device_type_name(static_cast<int32_t>(src.device().type)), src.device().index);
  const CrossDevicePlan plan = plan_cross_device_copy(dst, src, src_on_gpu);
  if (src_on_gpu && dst_on_gpu) {
    copy_between_gpus(dst, src, plan);
  } else {
    copy_between_host_and_gpu(dst, src, plan, non_blocking);
  }
}

}  // namespace cuda
}  // namespace st
