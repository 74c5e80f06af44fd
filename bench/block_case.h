// The block-scaled cases (Q): st_quantize_blocks and st_dequantize_blocks
// (include/stride.h, "Block-scaled formats") timed as the copies of
// copy_case.h are, against the fastest copies of the same bytes.
//
// Bytes moved = the float tensor's bytes + the values' + the scales': what
// the call reads plus what it writes. The roofline (Note [The roofline] in
// bench.h) is the slowest of the best copy of those bytes, reading the
// call's inputs alone (the source, or the values and the scales) and
// writing its outputs alone (the values and the scales, or the
// destination), each operand in its own memory order. Rows: prealloc (the
// call into operands written before), read and write; a call has no plan
// and no allocating form, so there is no plan or alloc row.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench.h"
#include "stride.h"

namespace bench {

struct BlockCase {
  std::string label;                // the row's name in the table
  std::vector<int64_t> base_sizes;  // the contiguous float tensor the view is made of
  st_dtype float_dtype = ST_FLOAT32;  // the source of a quantize, the destination of a dequantize
  // Makes the float operand's view of the base (a new reference); a
  // dequantize writes through it.
  std::function<st_tensor(st_tensor base)> view;
  bool quantize = true;
  st_block_format format = ST_BLOCK_MXFP8_E4M3;
  int32_t dim = -1;
  st_scale_rule rule = ST_SCALE_FLOOR;
};

// Runs the case with every page kind (the outputs' pages) and at every
// thread count of `options`, and adds its rows to `table`. The first call
// at each thread count is checked against the scalar level's rule at 257
// sampled blocks before anything is timed.
void run_block_case(Table& table, const Options& options, const BlockCase& c);

}  // namespace bench
