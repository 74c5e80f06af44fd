// The block-scaled formats as the bench cases use them (include/stride.h,
// "Block-scaled formats"): each format's block length, its values' and
// scales' dtypes and shapes, and the spec of a call; shared by the CPU's Q
// cases (block_case.cpp) and the GPU's (cuda_cases.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "stride.h"

namespace bench {

int block_length(st_block_format f);
// The format's name as the tables print it ("MXFP8 E4M3", "MXFP4", "NVFP4").
const char* block_format_name(st_block_format f);
// Whether the values hold two elements a byte (the FP4 formats).
bool packed(st_block_format f);
// The values' and scales' dtypes of the formats the cases use (MXFP8 E4M3,
// MXFP4, NVFP4); stops the program for any other.
st_dtype value_dtype(st_block_format f);
st_dtype scale_dtype(st_block_format f);

// The values' and scales' shapes for a float operand of `sizes`, blocks
// along dim d (0 <= d < sizes.size()).
std::vector<int64_t> values_sizes(std::vector<int64_t> sizes, int d, st_block_format f);
std::vector<int64_t> scales_sizes(std::vector<int64_t> sizes, int d, st_block_format f);

// A spec of `format` along `dim` with `rule` and no global scale.
st_block_spec block_spec(st_block_format format, int32_t dim, st_scale_rule rule);

}  // namespace bench
