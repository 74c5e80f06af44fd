// Host values written into device memory by a kernel that carries them in
// its arguments. Unlike cudaMemcpyAsync from host memory, this needs no
// host buffer that must outlive the transfer and no wait: it is ordered on
// the stream like a copy, and a CUDA graph that captures it keeps the
// values in its kernel nodes (a node holds its own copy of the arguments),
// so it replays them. Meant for a few KiB: a scaled copy's scales and
// shifts (cuda/scale_shift_values.h).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace st {
namespace cuda {

// 4-byte words per launch: the arguments (a count and the words) stay
// within the 4 KiB that every supported device accepts.
constexpr uint32_t kUploadWords = 1000;

struct UploadArgs {
  uint32_t* dst;
  uint32_t count;  // 1 to kUploadWords
  uint32_t words[kUploadWords];
};
static_assert(sizeof(UploadArgs) <= 4096, "kernel arguments within 4 KiB");

// Queues on `stream` (of the current device) the writes of the `nbytes`
// bytes at `src` to `dst`: nbytes a multiple of 4, dst aligned to 4, one
// launch per kUploadWords words. Work queued on `stream` after it sees the
// bytes; `src` may be reused when this returns. Throws
// ST_ERROR_DEVICE_FAILURE when a launch fails.
void upload_words(void* dst, const void* src, size_t nbytes, cudaStream_t stream);

}  // namespace cuda
}  // namespace st
