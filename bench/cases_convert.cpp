// Cases I and J: copies that convert the dtype, from a
// contiguous source (I) and from a uint8 NHWC image batch into float32
// NCHW, layout and dtype changed in one copy (J).
#include "copy_case.h"
#include "labels.h"

namespace {

void run_convert_case(bench::Table& table, const bench::Options& options, const char* title, st_dtype from,
                      st_dtype to) {
  bench::CopyCase c;
  c.base_sizes = {options.quick ? 70001 : int64_t{64} << 20};
  c.src_dtype = from;
  c.dst_dtype = to;
  c.label = std::string(title) + " " + bench::count_text(c.base_sizes[0]);
  c.view = bench::same_tensor();
  c.alloc_op = bench::AllocOp::To;
  bench::run_copy_case(table, options, c);
}

}  // namespace

BENCH_CASE(I1_f32_to_f16, "float32 -> float16, 64M elements") {
  run_convert_case(table, options, "I1 f32->f16", ST_FLOAT32, ST_FLOAT16);
}

BENCH_CASE(I2_f32_to_bf16, "float32 -> bfloat16, 64M elements") {
  run_convert_case(table, options, "I2 f32->bf16", ST_FLOAT32, ST_BFLOAT16);
}

BENCH_CASE(I3_i64_to_f64, "int64 -> float64, 64M elements") {
  run_convert_case(table, options, "I3 i64->f64", ST_INT64, ST_FLOAT64);
}

BENCH_CASE(I4_u8_to_f32, "uint8 -> float32, 64M elements") {
  run_convert_case(table, options, "I4 u8->f32", ST_UINT8, ST_FLOAT32);
}

BENCH_CASE(J_u8_nhwc_to_f32_nchw, "uint8 (64,224,224,3) NHWC -> float32 (64,3,224,224) NCHW in one copy") {
  bench::CopyCase c;
  c.base_sizes = options.quick ? std::vector<int64_t>{2, 20, 24, 3} : std::vector<int64_t>{64, 224, 224, 3};
  c.src_dtype = ST_UINT8;
  c.dst_dtype = ST_FLOAT32;
  c.label = "J u8 NHWC->f32 NCHW " + bench::dims_text(c.base_sizes);
  c.view = bench::permuted({0, 3, 1, 2});
  c.alloc_op = bench::AllocOp::To;
  bench::run_copy_case(table, options, c);
}
