// Copies that keep the dtype: raw bytes by element size (5 sizes, and the
// byte-wise variants for unaligned memory), never interpreting the bits.
#include "core/error.h"
#include "cuda/kernels/copy_kernels.cuh"
#include "cuda/kernels/copy_launch.h"

namespace st {
namespace cuda {

void launch_copy_bytes(const BytesCopyArgs& args, cudaStream_t stream) {
  switch (args.plan.word) {
    case 1: return launch_bytes<1>(args, stream);
    case 2: return launch_bytes<2>(args, stream);
    case 4: return launch_bytes<4>(args, stream);
    case 8: return launch_bytes<8>(args, stream);
    case 16: return launch_bytes<16>(args, stream);
  }
  fail(ST_ERROR_INTERNAL, "copy: no %d-byte word", args.plan.word);
}

void launch_copy_strided_same(int item_size, bool aligned, const StridedCopyArgs& args, cudaStream_t stream) {
  if (aligned || item_size == 1) {
    switch (item_size) {
      case 1: return launch_strided<Word<1>, Word<1>>(args, stream);
      case 2: return launch_strided<Word<2>, Word<2>>(args, stream);
      case 4: return launch_strided<Word<4>, Word<4>>(args, stream);
      case 8: return launch_strided<Word<8>, Word<8>>(args, stream);
      case 16: return launch_strided<Word<16>, Word<16>>(args, stream);
    }
  } else {
    switch (item_size) {
      case 2: return launch_strided<Bytes<2>, Bytes<2>>(args, stream);
      case 4: return launch_strided<Bytes<4>, Bytes<4>>(args, stream);
      case 8: return launch_strided<Bytes<8>, Bytes<8>>(args, stream);
      case 16: return launch_strided<Bytes<16>, Bytes<16>>(args, stream);
    }
  }
  fail(ST_ERROR_INTERNAL, "copy: no strided kernel for %d-byte elements", item_size);
}

void launch_copy_transpose_same(int item_size, const TransposeCopyArgs& args, cudaStream_t stream) {
  switch (item_size) {
    case 1: return launch_transpose<Word<1>, Word<1>>(args, stream);
    case 2: return launch_transpose<Word<2>, Word<2>>(args, stream);
    case 4: return launch_transpose<Word<4>, Word<4>>(args, stream);
    case 8: return launch_transpose<Word<8>, Word<8>>(args, stream);
    case 16: return launch_transpose<Word<16>, Word<16>>(args, stream);
  }
  fail(ST_ERROR_INTERNAL, "copy: no transpose kernel for %d-byte elements", item_size);
}

}  // namespace cuda
}  // namespace st
