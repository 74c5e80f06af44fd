// Copies between devices: host (CPU or pinned) and a CUDA device, or two
// CUDA devices. Note [Staging a copy between devices] (cuda/cross_device_plan.h)
// says which bytes cross and which side copies; this carries the plan out.
//
// Streams: work on a CUDA device goes to this thread's current stream there.
// Between the host and a GPU the call returns when the copy is complete
// (the stream is synchronized), except with `non_blocking` and a pinned
// host operand: then it returns once the copy is queued, and the pinned
// storages stay alive until it has run (cuda/runtime/host_keepalive.h). A
// non_blocking copy whose last step runs on the host (a host dst that is
// not dense) waits for the transfer before that step, so it is complete on
// return as well. Pageable memory makes every copy synchronous.
// Between two GPUs the copy runs on src's current stream, behind a two-way
// barrier with dst's current stream (as PyTorch's copy between devices):
// dst's stream waits for the transfer, so synchronizing it (the caller
// does, unless non_blocking) waits for the whole copy.
#pragma once

#include "core/tensor.h"

namespace st {
namespace cuda {

// At least one of dst and src is in CUDA device memory, and they are not on
// the same device; check_copy passed (dst is not empty, no overlap).
void copy_across_devices(const Tensor& dst, const Tensor& src, bool non_blocking);

}  // namespace cuda
}  // namespace st
