// The CUDA kernel of copy_. copy_ dispatches on the union of dst's and
// src's keys, so this runs whenever either is in CUDA device memory
// (pinned host memory is CPU memory to the dispatcher): that decides host
// versus device, and nothing here decides it again. The preconditions are
// the CPU kernel's (core/copy_preconditions.h), checked once, in the same
// order, then: within one device the device kernels (cuda/device_copy.h),
// else the staged transfer (cuda/cross_device_copy.h).
//
// Unless `non_blocking`, the copy has finished when the call returns (the
// header's promise), so the stream it ran on is synchronized; PyTorch
// leaves copies within device memory asynchronous either way, and a caller
// who wants that here passes non_blocking. On a stream that is capturing a
// CUDA graph nothing is waited for (Note [Copies during stream capture]).
#include "core/copy_preconditions.h"
#include "core/error.h"
#include "cuda/cross_device_copy.h"
#include "cuda/device_copy.h"
#include "cuda/runtime/device_status.h"
#include "cuda/runtime/empty.h"
#include "cuda/runtime/stream.h"
#include "cuda/runtime/stream_capture.h"
#include "dispatch/registration.h"

namespace st {
namespace cuda {
namespace {

// dst and src share no memory; one of them is in device memory.
void copy_without_overlap(const Tensor& dst, const Tensor& src, bool non_blocking) {
  if (dst.device() == src.device()) {
    copy_on_device(dst, src);
  } else {
    copy_across_devices(dst, src, non_blocking);
  }
}

void copy_cuda(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& src, bool non_blocking) {
  const CopyAction action = check_copy(dst, src);
  if (action == CopyAction::Nothing) return;
  if (dst.device().type != DeviceType::CPU) check_device(dst.device());
  if (src.device().type != DeviceType::CPU) check_device(src.device());
  if (action == CopyAction::ViaTemporary) {
    // src and dst share memory, so they are on one device: src is read in
    // full into a temporary of its own shape there, then copied into dst
    // (stream order keeps the two copies in sequence).
    const Tensor staged = empty_contiguous_on(src.sizes(), src.dtype(), src.device());
    copy_without_overlap(staged, src, non_blocking);
    copy_without_overlap(dst, staged, non_blocking);
  } else {
    copy_without_overlap(dst, src, non_blocking);
  }
  // The last step of every copy runs on dst's device when dst is device
  // memory (between GPUs dst's stream waits for the transfer), else on src's.
  if (!non_blocking) synchronize_unless_capturing((dst.device().is_cuda() ? dst : src).device().index);
}
ST_REGISTER_KERNEL("copy_", CUDA, copy_cuda);

}  // namespace
}  // namespace cuda
}  // namespace st
