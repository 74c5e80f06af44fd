// The kernels whose machine code tests/cuda/check_kernel_code.py inspects,
// compiled on their own to PTX (nvcc 13 compresses the library's PTX): the
// vectorized conversions of a narrowing, a widening and a same-width pair,
// the 16-byte raw copy and fill, and a strided and a transpose kernel; and
// the unrolled kernels whose loads must precede their stores (Note [Loads
// before stores]): a 4-byte raw copy, a byte-wise strided copy and a scaled one;
// and the block-scaled warp kernels (Note [Warps over whole blocks]), whose
// 16-byte loads (quantize) and stores (dequantize) are checked, and whose
// pieces are all loaded before any is stored.
#include "cuda/kernels/block_kernels.cuh"
#include "cuda/kernels/copy_kernels.cuh"

using st::Half;
using st::cuda::Bytes;
using st::cuda::Word;

template __global__ void st::cuda::convert_vectorized_kernel<Half, float>(st::cuda::VectorCopyArgs);
template __global__ void st::cuda::convert_vectorized_kernel<float, uint8_t>(st::cuda::VectorCopyArgs);
template __global__ void st::cuda::convert_vectorized_kernel<double, int64_t>(st::cuda::VectorCopyArgs);
template __global__ void st::cuda::convert_vectorized_kernel<st::complex<float>, bool>(st::cuda::VectorCopyArgs);
template __global__ void st::cuda::copy_bytes_kernel<16>(st::cuda::BytesCopyArgs);
template __global__ void st::cuda::copy_bytes_kernel<4>(st::cuda::BytesCopyArgs);
template __global__ void st::cuda::fill_contiguous_kernel<4>(st::cuda::FillContiguousArgs);
template __global__ void st::cuda::copy_strided_kernel<float, Half>(st::cuda::StridedCopyArgs);
template __global__ void st::cuda::copy_strided_kernel<Bytes<4>, Bytes<4>>(st::cuda::StridedCopyArgs);
template __global__ void st::cuda::copy_scaled_kernel<float, uint8_t>(st::cuda::ScaledCopyArgs);
template __global__ void st::cuda::copy_transpose_kernel<Word<4>, Word<4>>(st::cuda::TransposeCopyArgs);

using st::BFloat16;
using st::BlockFormat;
using st::cuda::BlockKernelArgs;

template __global__ void st::cuda::quantize_warps_kernel<BlockFormat::MxFp8E4M3, float>(BlockKernelArgs);
template __global__ void st::cuda::quantize_warps_kernel<BlockFormat::NvFp4, BFloat16>(BlockKernelArgs);
template __global__ void st::cuda::dequantize_warps_kernel<BlockFormat::MxFp4E2M1, float>(BlockKernelArgs);
template __global__ void st::cuda::dequantize_warps_kernel<BlockFormat::NvFp4, BFloat16>(BlockKernelArgs);
