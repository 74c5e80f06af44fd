// The block-scaled kernels: for each format, direction and element dtype
// (float32, float16, bfloat16, float64), one thread per block of elements
// (cuda/kernels/block_loops.h).
#include "core/error.h"
#include "cuda/kernels/block_launch.h"
#include "cuda/kernels/kernel_launch.h"

namespace st {
namespace cuda {
namespace {

template <BlockFormat F, typename S>
__global__ void __launch_bounds__(kBlockThreads) quantize_blocks_kernel(BlockKernelArgs args) {
  quantize_blocks_thread<F, S>(args, blockIdx.x, threadIdx.x, gridDim.x);
}

template <BlockFormat F, typename D>
__global__ void __launch_bounds__(kBlockThreads) dequantize_blocks_kernel(BlockKernelArgs args) {
  dequantize_blocks_thread<F, D>(args, blockIdx.x, threadIdx.x, gridDim.x);
}

template <BlockFormat F, typename T>
void launch_typed(bool quantize, const BlockKernelArgs& args, cudaStream_t stream) {
  if (quantize) {
    launch_kernel(quantize_blocks_kernel<F, T>, block_kernel_shape(args), kBlockThreads, "quantize_blocks_kernel",
                  args, stream);
  } else {
    launch_kernel(dequantize_blocks_kernel<F, T>, block_kernel_shape(args), kBlockThreads,
                  "dequantize_blocks_kernel", args, stream);
  }
}

template <BlockFormat F>
void launch_format(bool quantize, ScalarType elements, const BlockKernelArgs& args, cudaStream_t stream) {
  switch (elements) {
    case ScalarType::Float32: return launch_typed<F, float>(quantize, args, stream);
    case ScalarType::Float16: return launch_typed<F, Half>(quantize, args, stream);
    case ScalarType::BFloat16: return launch_typed<F, BFloat16>(quantize, args, stream);
    case ScalarType::Float64: return launch_typed<F, double>(quantize, args, stream);
    default: break;
  }
  fail(ST_ERROR_INTERNAL, "block kernel: dtype %s reached it unchecked", dtype_name(static_cast<int32_t>(elements)));
}

}  // namespace

void launch_block_kernel(bool quantize, BlockFormat format, ScalarType elements, const BlockKernelArgs& args,
                         cudaStream_t stream) {
  switch (format) {
    case BlockFormat::MxFp8E4M3: return launch_format<BlockFormat::MxFp8E4M3>(quantize, elements, args, stream);
    case BlockFormat::MxFp8E5M2: return launch_format<BlockFormat::MxFp8E5M2>(quantize, elements, args, stream);
    case BlockFormat::MxFp6E2M3: return launch_format<BlockFormat::MxFp6E2M3>(quantize, elements, args, stream);
    case BlockFormat::MxFp6E3M2: return launch_format<BlockFormat::MxFp6E3M2>(quantize, elements, args, stream);
    case BlockFormat::MxFp4E2M1: return launch_format<BlockFormat::MxFp4E2M1>(quantize, elements, args, stream);
    case BlockFormat::MxInt8: return launch_format<BlockFormat::MxInt8>(quantize, elements, args, stream);
    case BlockFormat::NvFp4: return launch_format<BlockFormat::NvFp4>(quantize, elements, args, stream);
  }
  fail(ST_ERROR_INTERNAL, "block kernel: format %d reached it unchecked", static_cast<int>(format));
}

}  // namespace cuda
}  // namespace st
