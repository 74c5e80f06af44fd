// The launch of the block-scaled kernels (kernels/block_scaled.cu), one
// per format, direction and element dtype, on a stream of the current
// device; it checks its own launch's status (Note [A launch reports its own
// error] in cuda/kernels/kernel_launch.h).
#pragma once

#include <cuda_runtime_api.h>

#include "core/numeric/block_format.h"
#include "cuda/kernels/block_loops.h"

namespace st {
namespace cuda {

// `quantize`: values and scales from the elements (of dtype `elements`),
// else the elements from them. Every operand aligned to its element size.
// `warps`: the lines have the layout of Note [Warps over whole blocks]
// (warp_blocks_fit of cuda/kernels/block_warp_loops.h).
void launch_block_kernel(bool quantize, bool warps, BlockFormat format, ScalarType elements,
                         const BlockKernelArgs& args, cudaStream_t stream);

}  // namespace cuda
}  // namespace st
