// The operators quantize_blocks and dequantize_blocks. They dispatch on the
// union of their tensors' keys, as copy_ does, once the operands passed
// every check, so a backend's kernel receives only work it may write.
#include "ops/block_scaled.h"

#include "dispatch/registration.h"

namespace st {
namespace ops {
namespace {

ST_DEFINE_OPERATOR(QuantizeBlocks, "quantize_blocks",
                   "quantize_blocks(Tensor(a!) values, Tensor(b!) scales, Tensor src, BlockSpec spec) -> ()",
                   void(const Tensor&, const Tensor&, const Tensor&, const BlockSpec&));
ST_DEFINE_OPERATOR(DequantizeBlocks, "dequantize_blocks",
                   "dequantize_blocks(Tensor(a!) dst, Tensor values, Tensor scales, BlockSpec spec) -> ()",
                   void(const Tensor&, const Tensor&, const Tensor&, const BlockSpec&));

}  // namespace

void quantize_blocks(const Tensor& values, const Tensor& scales, const Tensor& src, const BlockSpec& spec) {
  check_block_operands(src, values, scales, spec, true);
  QuantizeBlocks::call(values, scales, src, spec);
}

void dequantize_blocks(const Tensor& dst, const Tensor& values, const Tensor& scales, const BlockSpec& spec) {
  check_block_operands(dst, values, scales, spec, false);
  DequantizeBlocks::call(dst, values, scales, spec);
}

}  // namespace ops
}  // namespace st
