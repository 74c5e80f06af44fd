// The layout of a block-scaled operation (include/stride.h,
// st_quantize_blocks, st_dequantize_blocks): three operands - the
// elements (the source, or the destination), the values and the scales -
// whose shapes agree except along the dim the blocks run along. That dim
// becomes each operand's line step; the other dims are the lines, laid out
// as every elementwise geometry is (Note [The canonical geometry]: sorted
// fastest first, flipped, coalesced), by the TensorIterator's own steps.
// Host code; the CUDA kernels index the same geometry.
#pragma once

#include <cstdint>

#include "core/tensor.h"
#include "iter/geometry.h"

namespace st {

// Operand numbers in BlockLines.
constexpr int kBlockElements = 0, kBlockValues = 1, kBlockScales = 2;

struct BlockLines {
  // The lines: one position per line, operand k's line start at
  // data[k] + Σ i_d × strides[k][d] (bytes).
  Geometry lines;
  // Operand k's byte step along the line (0 where the line has 1 element,
  // 1 value or 1 block).
  int64_t step[3] = {};
  // Elements per line: the elements operand's size along the dim.
  int64_t n = 0;

  int64_t count() const { return lines.numel(); }
};

// The lines of (elements, values, scales) along `dim` (0 <= dim < ndim,
// the shapes checked by the caller). Dims of size 1 are left out, so a
// stride of any size works; each other stride is that of a tensor whose
// elements exist, so its bytes fit int64.
BlockLines block_lines(const Tensor& elements, const Tensor& values, const Tensor& scales, int dim);

}  // namespace st
