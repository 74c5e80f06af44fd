// The CUDA kernels of quantize_blocks and dequantize_blocks (include/stride.h,
// st_quantize_blocks, st_dequantize_blocks): the three operands are on one
// CUDA device (the operator checked everything, core/block_preconditions.h);
// one kernel walks their lines (iter/block_lines.h) on the thread's current
// stream, and the call waits for it, as st_copy does.
#include "core/block_preconditions.h"
#include "cuda/device_copy.h"
#include "cuda/kernels/block_launch.h"
#include "cuda/kernels/block_warp_loops.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/empty.h"
#include "cuda/runtime/stream.h"
#include "dispatch/registration.h"
#include "iter/block_lines.h"

namespace st {
namespace cuda {
namespace {

// elements not empty. The kernels load and store typed elements, which the
// device wants aligned: elements wrapped at an odd address go through an
// aligned temporary (values and scales are bytes).
void blocks_on_device(const Tensor& elements, const Tensor& values, const Tensor& scales, const BlockSpec& spec,
                      bool quantize) {
  const Device device = elements.device();
  if (!element_aligned(elements)) {
    const Tensor aligned = empty_contiguous_on(elements.sizes(), elements.dtype(), device);
    if (quantize) {
      copy_on_device(aligned, elements);
      blocks_on_device(aligned, values, scales, spec, true);
    } else {
      blocks_on_device(aligned, values, scales, spec, false);
      copy_on_device(elements, aligned);
    }
    return;
  }
  DeviceGuard guard(device.index);
  const BlockLines lines = block_lines(elements, values, scales, spec.dim);
  const bool warps = warp_blocks_fit(lines, static_cast<int>(elements.itemsize()), spec.info());
  launch_block_kernel(quantize, warps, spec.format, elements.dtype(),
                      block_kernel_args(lines, spec.info().block, spec.params()), current_stream(device.index));
}

void run_blocks(const Tensor& elements, const Tensor& values, const Tensor& scales, const BlockSpec& spec,
                bool quantize) {
  check_device(elements.device());
  if (elements.numel() == 0) return;
  blocks_on_device(elements, values, scales, spec, quantize);
  synchronize_unless_capturing(elements.device().index);
}

void quantize_blocks_cuda(dispatch::DispatchKeySet, const Tensor& values, const Tensor& scales, const Tensor& src,
                          const BlockSpec& spec) {
  run_blocks(src, values, scales, spec, true);
}
ST_REGISTER_KERNEL("quantize_blocks", CUDA, quantize_blocks_cuda);

void dequantize_blocks_cuda(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& values, const Tensor& scales,
                            const BlockSpec& spec) {
  run_blocks(dst, values, scales, spec, false);
}
ST_REGISTER_KERNEL("dequantize_blocks", CUDA, dequantize_blocks_cuda);

}  // namespace
}  // namespace cuda
}  // namespace st
