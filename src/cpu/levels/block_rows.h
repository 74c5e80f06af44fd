// The row kernels of the block-scaled formats (include/stride.h,
// st_quantize_blocks, st_dequantize_blocks): one per format, direction and
// source (or destination) dtype, in one table per instruction-set level
// (block_rows.inl, compiled once per level). Every level runs the rule of
// core/numeric/block_scaling.h on each block, but for the blocks its
// vector steps take (cpu/levels/block_vector.h), bit for bit the same.
#pragma once

#include <cstdint>

#include "core/numeric/block_format.h"
#include "core/numeric/block_scaling.h"

namespace st {
namespace cpu {

// One operand of a call's lines: element (or value, or scale) i of line r
// at ptr + r · row + i · step, in bytes. A packed format's values step by
// their bytes, each holding two values.
struct RowOperand {
  char* ptr;
  int64_t row;
  int64_t step;
};

// `rows` lines of n elements each, from block first_block (inclusive) to
// block last_block (exclusive) of every line: the elements (the source of
// a quantize, the destination of a dequantize), their values and their
// scales, each operand placed at block 0 of line 0 (the kernel moves to
// first_block itself). The final block of a line may be partial.
struct BlockRows {
  RowOperand elements;
  RowOperand values;
  RowOperand scales;
  int64_t rows;
  int64_t n;
  int64_t first_block;
  int64_t last_block;
  blocks::BlockParams params;
};

using BlockRowsFn = void (*)(const BlockRows& rows);

// The element dtypes of the calls, in this order in the tables.
constexpr int kNumBlockElementTypes = 4;
constexpr ScalarType kBlockElementTypes[kNumBlockElementTypes] = {ScalarType::Float32, ScalarType::Float16,
                                                                  ScalarType::BFloat16, ScalarType::Float64};

// A level's kernels, by format, then element dtype.
struct BlockRowsTable {
  const char* name;
  BlockRowsFn quantize[kNumBlockFormats][kNumBlockElementTypes];
  BlockRowsFn dequantize[kNumBlockFormats][kNumBlockElementTypes];
};

const BlockRowsTable& scalar_block_rows();
const BlockRowsTable& avx2_block_rows();    // call only at CpuIsa::Avx2 or above
const BlockRowsTable& avx512_block_rows();  // call only at CpuIsa::Avx512
// The same with bfloat16 results rounded by AVX512_BF16's instruction:
// call only where cpu_has_avx512_bf16().
const BlockRowsTable& avx512_bf16_block_rows();
const BlockRowsTable& neon_block_rows();    // call only at CpuIsa::Neon

// The table for cpu_isa() now.
const BlockRowsTable& active_block_rows();

// The index of `t` in kBlockElementTypes; -1 for another dtype.
constexpr int block_element_index(ScalarType t) {
  for (int i = 0; i < kNumBlockElementTypes; ++i)
    if (kBlockElementTypes[i] == t) return i;
  return -1;
}

}  // namespace cpu
}  // namespace st
