// What st_quantize_blocks and st_dequantize_blocks demand of their
// operands (include/stride.h, "Block-scaled formats"), checked for every
// backend before the operator dispatches, so that nothing is written when
// a check fails and CPU and CUDA answer alike.
#pragma once

#include <cstdint>

#include "core/numeric/block_format.h"
#include "core/numeric/block_scaling.h"
#include "core/tensor.h"

namespace st {

// A call's spec once read and checked against its tensors.
struct BlockSpec {
  BlockFormat format = BlockFormat::MxFp8E4M3;
  ScaleRule rule = ScaleRule::Floor;
  int dim = 0;       // wrapped into [0, ndim)
  double g = 1.0;    // NVFP4's global scale, 1 for 0

  const BlockFormatInfo& info() const { return block_format_info(format); }
  blocks::BlockParams params() const { return blocks::BlockParams{rule, g}; }
};

// The spec of a call whose elements (the source of a quantize, the
// destination of a dequantize, named `elements_name`) are `elements`:
// `format` and `rule` are valid enum values already. Throws
// ST_ERROR_INVALID_ARGUMENT for a dim out of range (a 0-d tensor has
// none), an NVFP4 global scale that is negative, NaN or infinite, and an
// odd size along the dim for the FP4 formats.
BlockSpec make_block_spec(BlockFormat format, ScaleRule rule, int32_t dim, float global_scale, const Tensor& elements,
                          const char* elements_name);

// The checks on the three operands, in this order: one device (pinned host
// memory counts as the host; else ST_ERROR_INVALID_ARGUMENT), dtypes
// (ST_ERROR_UNSUPPORTED_DTYPE), shapes (ST_ERROR_SHAPE_MISMATCH), the
// written operands writable (ST_ERROR_READ_ONLY), free of self-overlap and
// of any other operand's bytes (ST_ERROR_OVERLAP). `quantize`: values and
// scales are written and `elements` read; else the reverse.
void check_block_operands(const Tensor& elements, const Tensor& values, const Tensor& scales, const BlockSpec& spec,
                          bool quantize);

// The shape values and scales must have for `elements` quantized by `spec`.
DimVector block_values_shape(const DimVector& elements, const BlockSpec& spec);
DimVector block_scales_shape(const DimVector& elements, const BlockSpec& spec);

}  // namespace st
