// The block-scaled kernels: for each format, direction and element dtype
// (float32, float16, bfloat16, float64), lanes of a warp over whole blocks
// where the layout allows (Note [Warps over whole blocks] in
// cuda/kernels/block_warp_loops.h), else one thread per block of elements
// (cuda/kernels/block_loops.h).
#include "core/error.h"
#include "cuda/kernels/block_kernels.cuh"
#include "cuda/kernels/block_launch.h"
#include "cuda/kernels/kernel_launch.h"

namespace st {
namespace cuda {
namespace {

template <BlockFormat F, typename T>
void launch_typed(bool quantize, bool warps, const BlockKernelArgs& args, cudaStream_t stream) {
  if (warps) {
    const LaunchShape shape = warp_kernel_shape(WarpBlocks<F, T>::slots(args));
    if (quantize) {
      launch_kernel(quantize_warps_kernel<F, T>, shape, kBlockThreads, "quantize_warps_kernel", args, stream);
    } else {
      launch_kernel(dequantize_warps_kernel<F, T>, shape, kBlockThreads, "dequantize_warps_kernel", args, stream);
    }
  } else if (quantize) {
    launch_kernel(quantize_blocks_kernel<F, T>, block_kernel_shape(args), kBlockThreads, "quantize_blocks_kernel",
                  args, stream);
  } else {
    launch_kernel(dequantize_blocks_kernel<F, T>, block_kernel_shape(args), kBlockThreads,
                  "dequantize_blocks_kernel", args, stream);
  }
}

template <BlockFormat F>
void launch_format(bool quantize, bool warps, ScalarType elements, const BlockKernelArgs& args,
                   cudaStream_t stream) {
  switch (elements) {
    case ScalarType::Float32: return launch_typed<F, float>(quantize, warps, args, stream);
    case ScalarType::Float16: return launch_typed<F, Half>(quantize, warps, args, stream);
    case ScalarType::BFloat16: return launch_typed<F, BFloat16>(quantize, warps, args, stream);
    case ScalarType::Float64: return launch_typed<F, double>(quantize, warps, args, stream);
    default: break;
  }
  fail(ST_ERROR_INTERNAL, "block kernel: dtype %s reached it unchecked", dtype_name(static_cast<int32_t>(elements)));
}

}  // namespace

void launch_block_kernel(bool quantize, bool warps, BlockFormat format, ScalarType elements,
                         const BlockKernelArgs& args, cudaStream_t stream) {
  switch (format) {
    case BlockFormat::MxFp8E4M3: return launch_format<BlockFormat::MxFp8E4M3>(quantize, warps, elements, args, stream);
    case BlockFormat::MxFp8E5M2: return launch_format<BlockFormat::MxFp8E5M2>(quantize, warps, elements, args, stream);
    case BlockFormat::MxFp6E2M3: return launch_format<BlockFormat::MxFp6E2M3>(quantize, warps, elements, args, stream);
    case BlockFormat::MxFp6E3M2: return launch_format<BlockFormat::MxFp6E3M2>(quantize, warps, elements, args, stream);
    case BlockFormat::MxFp4E2M1: return launch_format<BlockFormat::MxFp4E2M1>(quantize, warps, elements, args, stream);
    case BlockFormat::MxInt8: return launch_format<BlockFormat::MxInt8>(quantize, warps, elements, args, stream);
    case BlockFormat::NvFp4: return launch_format<BlockFormat::NvFp4>(quantize, warps, elements, args, stream);
  }
  fail(ST_ERROR_INTERNAL, "block kernel: format %d reached it unchecked", static_cast<int>(format));
}

}  // namespace cuda
}  // namespace st
