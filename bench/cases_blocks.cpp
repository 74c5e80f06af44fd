// Cases Q1-Q8: the block-scaled formats (st_quantize_blocks,
// st_dequantize_blocks) over (8192, 8192) matrices, each against its
// roofline (block_case.h): blocks along the last dim, along dim 0 (a
// block's 32 elements are 32 rows) and from a transposed view.
#include "block_case.h"
#include "copy_case.h"
#include "labels.h"

namespace {

std::vector<int64_t> matrix(const bench::Options& options) {
  return options.quick ? std::vector<int64_t>{96, 160} : std::vector<int64_t>{8192, 8192};
}

void run(bench::Table& table, const bench::Options& options, const char* title, st_dtype float_dtype, bool quantize,
         st_block_format format, int32_t dim, st_scale_rule rule = ST_SCALE_FLOOR, bool transposed = false) {
  bench::BlockCase c;
  c.base_sizes = matrix(options);
  c.float_dtype = float_dtype;
  c.label = std::string(title) + " " + bench::dims_text(c.base_sizes) + (transposed ? ".t()" : "");
  c.view = transposed ? bench::permuted({1, 0}) : bench::same_tensor();
  c.quantize = quantize;
  c.format = format;
  c.dim = dim;
  c.rule = rule;
  bench::run_block_case(table, options, c);
}

}  // namespace

BENCH_CASE(Q1_f32_to_mxfp8_floor, "float32 -> MXFP8 E4M3 along the last dim, FLOOR scales") {
  run(table, options, "Q1 f32->mxfp8 floor", ST_FLOAT32, true, ST_BLOCK_MXFP8_E4M3, -1);
}

BENCH_CASE(Q2_f32_to_mxfp4_rceil, "float32 -> MXFP4 along the last dim, RCEIL scales") {
  run(table, options, "Q2 f32->mxfp4 rceil", ST_FLOAT32, true, ST_BLOCK_MXFP4_E2M1, -1, ST_SCALE_RCEIL);
}

BENCH_CASE(Q3_f32_to_nvfp4, "float32 -> NVFP4 along the last dim") {
  run(table, options, "Q3 f32->nvfp4", ST_FLOAT32, true, ST_BLOCK_NVFP4, -1);
}

BENCH_CASE(Q4_bf16_to_mxfp8_dim0, "bfloat16 -> MXFP8 E4M3 along dim 0 (a block's elements are 32 rows)") {
  run(table, options, "Q4 bf16->mxfp8 dim0", ST_BFLOAT16, true, ST_BLOCK_MXFP8_E4M3, 0);
}

BENCH_CASE(Q5_f32_t_to_mxfp4, "a transposed float32 view -> MXFP4 along its last dim (a weight stored the other way)") {
  run(table, options, "Q5 f32.t->mxfp4", ST_FLOAT32, true, ST_BLOCK_MXFP4_E2M1, -1, ST_SCALE_FLOOR, true);
}

BENCH_CASE(Q6_mxfp4_to_f32, "MXFP4 -> float32 along the last dim") {
  run(table, options, "Q6 mxfp4->f32", ST_FLOAT32, false, ST_BLOCK_MXFP4_E2M1, -1);
}

BENCH_CASE(Q7_nvfp4_to_bf16, "NVFP4 -> bfloat16 along the last dim") {
  run(table, options, "Q7 nvfp4->bf16", ST_BFLOAT16, false, ST_BLOCK_NVFP4, -1);
}

BENCH_CASE(Q8_mxfp8_to_f16_dim0, "MXFP8 E4M3 -> float16 along dim 0") {
  run(table, options, "Q8 mxfp8->f16 dim0", ST_FLOAT16, false, ST_BLOCK_MXFP8_E4M3, 0);
}
