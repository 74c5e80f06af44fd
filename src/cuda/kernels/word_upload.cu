#include "cuda/kernels/word_upload.h"

#include <algorithm>
#include <cstring>

#include "core/error.h"
#include "cuda/kernels/kernel_launch.h"

namespace st {
namespace cuda {
namespace {

constexpr int kUploadThreads = 256;

// __grid_constant__: the words are read from the argument space where they
// are, never copied to local memory for the indexed reads.
__global__ void __launch_bounds__(kUploadThreads) upload_words_kernel(const __grid_constant__ UploadArgs args) {
  for (uint32_t i = threadIdx.x; i < args.count; i += kUploadThreads) args.dst[i] = args.words[i];
}

}  // namespace

void upload_words(void* dst, const void* src, size_t nbytes, cudaStream_t stream) {
  ST_CHECK(nbytes % 4 == 0 && reinterpret_cast<uintptr_t>(dst) % 4 == 0, ST_ERROR_INTERNAL,
           "upload_words: %zu bytes to %p, not whole aligned words", nbytes, dst);
  const size_t words = nbytes / 4;
  for (size_t done = 0; done < words; done += kUploadWords) {
    UploadArgs args;
    args.dst = static_cast<uint32_t*>(dst) + done;
    args.count = static_cast<uint32_t>(std::min<size_t>(kUploadWords, words - done));
    std::memcpy(args.words, static_cast<const char*>(src) + 4 * done, 4 * size_t{args.count});
    launch_kernel(upload_words_kernel, LaunchShape{{1, 1, 1}, {kUploadThreads, 1, 1}}, kUploadThreads,
                  "upload_words_kernel", args, stream);
  }
}

}  // namespace cuda
}  // namespace st
