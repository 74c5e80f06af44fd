// Fill kernels by element size: the value was converted to the dtype on the
// host, so the device only stores its bytes.
#include "core/error.h"
#include "cuda/kernels/copy_kernels.cuh"
#include "cuda/kernels/copy_launch.h"

namespace st {
namespace cuda {
namespace {

template <int N>
void launch_contiguous(const FillContiguousArgs& args, cudaStream_t stream) {
  launch_kernel(fill_contiguous_kernel<N>, fill_contiguous_shape(args), kCopyThreads, "fill_contiguous_kernel", args,
                stream);
}

template <typename T>
void launch_strided(char* dst, const OffsetCalculator<1>& offsets, uint32_t numel, const Word16& value,
                    cudaStream_t stream) {
  FillStridedArgs<T> args{dst, offsets, numel, load_as<T>(reinterpret_cast<const char*>(&value))};
  launch_kernel(fill_strided_kernel<T>, strided_shape(numel), kCopyThreads, "fill_strided_kernel", args, stream);
}

}  // namespace

void launch_fill_contiguous(int item_size, const FillContiguousArgs& args, cudaStream_t stream) {
  switch (item_size) {
    case 1: return launch_contiguous<1>(args, stream);
    case 2: return launch_contiguous<2>(args, stream);
    case 4: return launch_contiguous<4>(args, stream);
    case 8: return launch_contiguous<8>(args, stream);
    case 16: return launch_contiguous<16>(args, stream);
  }
  fail(ST_ERROR_INTERNAL, "fill: no kernel for %d-byte elements", item_size);
}

void launch_fill_strided(int item_size, bool aligned, char* dst, const OffsetCalculator<1>& offsets, uint32_t numel,
                         const Word16& value, cudaStream_t stream) {
  if (aligned || item_size == 1) {
    switch (item_size) {
      case 1: return launch_strided<Word<1>>(dst, offsets, numel, value, stream);
      case 2: return launch_strided<Word<2>>(dst, offsets, numel, value, stream);
      case 4: return launch_strided<Word<4>>(dst, offsets, numel, value, stream);
      case 8: return launch_strided<Word<8>>(dst, offsets, numel, value, stream);
      case 16: return launch_strided<Word<16>>(dst, offsets, numel, value, stream);
    }
  } else {
    switch (item_size) {
      case 2: return launch_strided<Bytes<2>>(dst, offsets, numel, value, stream);
      case 4: return launch_strided<Bytes<4>>(dst, offsets, numel, value, stream);
      case 8: return launch_strided<Bytes<8>>(dst, offsets, numel, value, stream);
      case 16: return launch_strided<Bytes<16>>(dst, offsets, numel, value, stream);
    }
  }
  fail(ST_ERROR_INTERNAL, "fill: no strided kernel for %d-byte elements", item_size);
}

}  // namespace cuda
}  // namespace st
