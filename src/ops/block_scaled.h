// The block-scaled operators quantize_blocks and dequantize_blocks
// (include/stride.h, st_quantize_blocks, st_dequantize_blocks): every check
// of core/block_preconditions.h first, then the kernel of the operands'
// backend (src/cpu/block_kernel.cpp, src/cuda/block_kernel.cpp).
#pragma once

#include "core/block_preconditions.h"
#include "core/tensor.h"

namespace st {
namespace ops {

// values, scales <- src by `spec` (make_block_spec for src).
void quantize_blocks(const Tensor& values, const Tensor& scales, const Tensor& src, const BlockSpec& spec);
// dst <- values, scales by `spec` (make_block_spec for dst).
void dequantize_blocks(const Tensor& dst, const Tensor& values, const Tensor& scales, const BlockSpec& spec);

}  // namespace ops
}  // namespace st
