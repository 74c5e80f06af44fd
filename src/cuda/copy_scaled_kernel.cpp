// The CUDA kernel of copy_scaled_ (include/stride.h, st_copy_scaled):
// copy_cuda's checks and its staging, then one kernel on the device that
// holds dst (or, for a host dst, on src's device into a temporary that is
// then copied back). Each element follows core/numeric/scaled_convert.h, as on the CPU.
#include "core/copy_preconditions.h"
#include "core/error.h"
#include "cuda/cross_device_copy.h"
#include "cuda/device_copy.h"
#include "cuda/kernels/copy_launch.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/kernels/scaled_copy_iter.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/empty.h"
#include "cuda/runtime/stream.h"
#include "cuda/scale_shift_values.h"
#include "dispatch/registration.h"

namespace st {
namespace cuda {
namespace {

// dst and src on one device, no harmful overlap, dst not empty.
void scaled_copy_on_device(const Tensor& dst, const Tensor& src, const ScaleShift& ss) {
  const Device device = dst.device();
  // The kernel loads and stores typed elements, which the device wants
  // aligned: memory wrapped at an odd address goes through a temporary.
  if (!element_aligned(src)) {
    const Tensor aligned = empty_contiguous_on(src.sizes(), src.dtype(), device);
    copy_on_device(aligned, src);
    return scaled_copy_on_device(dst, aligned, ss);
  }
  if (!element_aligned(dst)) {
    const Tensor aligned = empty_contiguous_on(dst.sizes(), dst.dtype(), device);
    scaled_copy_on_device(aligned, src, ss);
    return copy_on_device(dst, aligned);
  }
  DeviceGuard guard(device.index);
  // The prepared values travel to the device once per call (a plan's once).
  const Tensor values = scale_shift_values(ss, device);
  const cudaStream_t stream = current_stream(device.index);
  const TensorIterator iter = TensorIterator::scaled_copy(dst, src, ss, values.data());
  if (iter.numel() == 0) return;
  iter.with_32bit_indexing([&](const TensorIterator& part) {
    launch_copy_scaled(dst.dtype(), src.dtype(), scaled_copy_args(part, ss.saturate), stream);
  });
}

void copy_scaled_cuda(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src, const ScaleShift& ss,
                      bool non_blocking) {
  const CopyAction action = check_copy(dst, src, true);
  if (action == CopyAction::Nothing) return;
  if (dst.device().type != DeviceType::CPU) check_device(dst.device());
  if (src.device().type != DeviceType::CPU) check_device(src.device());
  if (dst.device().is_cuda()) {
    // src is brought to dst's device (in full, so overlap is harmless) unless it is there already.
    if (src.device() == dst.device() && action == CopyAction::Direct) {
      scaled_copy_on_device(dst, src, ss);
    } else {
      const Tensor staged = empty_contiguous_on(src.sizes(), src.dtype(), dst.device());
      if (src.device() == dst.device()) {
        copy_on_device(staged, src);
      } else {
        copy_across_devices(staged, src, non_blocking);
      }
      scaled_copy_on_device(dst, staged, ss);
    }
  } else {
    // A host dst: the scaled values are computed on src's device, then cross.
    const Tensor result = empty_contiguous_on(dst.sizes(), dst.dtype(), src.device());
    scaled_copy_on_device(result, src, ss);
    copy_across_devices(dst, result, non_blocking);
  }
  if (!non_blocking) synchronize_unless_capturing((dst.device().is_cuda() ? dst : src).device().index);
}
ST_REGISTER_KERNEL("copy_scaled_", CUDA, copy_scaled_cuda);

}  // namespace
}  // namespace cuda
}  // namespace st
