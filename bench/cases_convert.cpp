// Cases I and J: copies that convert the dtype, from a
// contiguous source (I: I1-I4 the first pairs, I5-I22 those of the float8
// and unsigned dtypes, I23-I30 the signed integer and float32 <-> float64
// / uint8 ones) and from a uint8 NHWC image batch into float32
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

BENCH_CASE(I1_f32_to_f16, "float32 -> float16") {
  run_convert_case(table, options, "I1 f32->f16", ST_FLOAT32, ST_FLOAT16);
}

BENCH_CASE(I2_f32_to_bf16, "float32 -> bfloat16") {
  run_convert_case(table, options, "I2 f32->bf16", ST_FLOAT32, ST_BFLOAT16);
}

BENCH_CASE(I3_i64_to_f64, "int64 -> float64") {
  run_convert_case(table, options, "I3 i64->f64", ST_INT64, ST_FLOAT64);
}

BENCH_CASE(I4_u8_to_f32, "uint8 -> float32") {
  run_convert_case(table, options, "I4 u8->f32", ST_UINT8, ST_FLOAT32);
}

BENCH_CASE(I5_f32_to_e4m3, "float32 -> float8_e4m3fn") {
  run_convert_case(table, options, "I5 f32->e4m3", ST_FLOAT32, ST_FLOAT8_E4M3FN);
}

BENCH_CASE(I6_e4m3_to_f32, "float8_e4m3fn -> float32") {
  run_convert_case(table, options, "I6 e4m3->f32", ST_FLOAT8_E4M3FN, ST_FLOAT32);
}

BENCH_CASE(I7_bf16_to_e5m2, "bfloat16 -> float8_e5m2") {
  run_convert_case(table, options, "I7 bf16->e5m2", ST_BFLOAT16, ST_FLOAT8_E5M2);
}

BENCH_CASE(I8_u16_to_f32, "uint16 -> float32") {
  run_convert_case(table, options, "I8 u16->f32", ST_UINT16, ST_FLOAT32);
}

BENCH_CASE(I9_u64_to_f64, "uint64 -> float64") {
  run_convert_case(table, options, "I9 u64->f64", ST_UINT64, ST_FLOAT64);
}

BENCH_CASE(I10_f32_to_e5m2, "float32 -> float8_e5m2") {
  run_convert_case(table, options, "I10 f32->e5m2", ST_FLOAT32, ST_FLOAT8_E5M2);
}

BENCH_CASE(I11_e5m2_to_f32, "float8_e5m2 -> float32") {
  run_convert_case(table, options, "I11 e5m2->f32", ST_FLOAT8_E5M2, ST_FLOAT32);
}

BENCH_CASE(I12_f16_to_e4m3, "float16 -> float8_e4m3fn") {
  run_convert_case(table, options, "I12 f16->e4m3", ST_FLOAT16, ST_FLOAT8_E4M3FN);
}

BENCH_CASE(I13_f16_to_e5m2, "float16 -> float8_e5m2") {
  run_convert_case(table, options, "I13 f16->e5m2", ST_FLOAT16, ST_FLOAT8_E5M2);
}

BENCH_CASE(I14_bf16_to_e4m3, "bfloat16 -> float8_e4m3fn") {
  run_convert_case(table, options, "I14 bf16->e4m3", ST_BFLOAT16, ST_FLOAT8_E4M3FN);
}

BENCH_CASE(I15_e4m3_to_f16, "float8_e4m3fn -> float16") {
  run_convert_case(table, options, "I15 e4m3->f16", ST_FLOAT8_E4M3FN, ST_FLOAT16);
}

BENCH_CASE(I16_e5m2_to_f16, "float8_e5m2 -> float16") {
  run_convert_case(table, options, "I16 e5m2->f16", ST_FLOAT8_E5M2, ST_FLOAT16);
}

BENCH_CASE(I17_e4m3_to_bf16, "float8_e4m3fn -> bfloat16") {
  run_convert_case(table, options, "I17 e4m3->bf16", ST_FLOAT8_E4M3FN, ST_BFLOAT16);
}

BENCH_CASE(I18_e5m2_to_bf16, "float8_e5m2 -> bfloat16") {
  run_convert_case(table, options, "I18 e5m2->bf16", ST_FLOAT8_E5M2, ST_BFLOAT16);
}

BENCH_CASE(I19_u32_to_f32, "uint32 -> float32") {
  run_convert_case(table, options, "I19 u32->f32", ST_UINT32, ST_FLOAT32);
}

BENCH_CASE(I20_u64_to_f32, "uint64 -> float32") {
  run_convert_case(table, options, "I20 u64->f32", ST_UINT64, ST_FLOAT32);
}

BENCH_CASE(I21_u16_to_f64, "uint16 -> float64") {
  run_convert_case(table, options, "I21 u16->f64", ST_UINT16, ST_FLOAT64);
}

BENCH_CASE(I22_u32_to_f64, "uint32 -> float64") {
  run_convert_case(table, options, "I22 u32->f64", ST_UINT32, ST_FLOAT64);
}

BENCH_CASE(I23_i8_to_f32, "int8 -> float32") {
  run_convert_case(table, options, "I23 i8->f32", ST_INT8, ST_FLOAT32);
}

BENCH_CASE(I24_i32_to_f32, "int32 -> float32") {
  run_convert_case(table, options, "I24 i32->f32", ST_INT32, ST_FLOAT32);
}

BENCH_CASE(I25_f32_to_i32, "float32 -> int32") {
  run_convert_case(table, options, "I25 f32->i32", ST_FLOAT32, ST_INT32);
}

BENCH_CASE(I26_f32_to_f64, "float32 -> float64") {
  run_convert_case(table, options, "I26 f32->f64", ST_FLOAT32, ST_FLOAT64);
}

BENCH_CASE(I27_f64_to_f32, "float64 -> float32") {
  run_convert_case(table, options, "I27 f64->f32", ST_FLOAT64, ST_FLOAT32);
}

BENCH_CASE(I28_f32_to_u8, "float32 -> uint8") {
  run_convert_case(table, options, "I28 f32->u8", ST_FLOAT32, ST_UINT8);
}

BENCH_CASE(I29_i32_to_i64, "int32 -> int64") {
  run_convert_case(table, options, "I29 i32->i64", ST_INT32, ST_INT64);
}

BENCH_CASE(I30_i64_to_i32, "int64 -> int32") {
  run_convert_case(table, options, "I30 i64->i32", ST_INT64, ST_INT32);
}

BENCH_CASE(J_u8_nhwc_to_f32_nchw, "a uint8 NHWC image batch -> float32 NCHW in one copy") {
  bench::CopyCase c;
  c.base_sizes = options.quick ? std::vector<int64_t>{2, 20, 24, 3} : std::vector<int64_t>{64, 224, 224, 3};
  c.src_dtype = ST_UINT8;
  c.dst_dtype = ST_FLOAT32;
  c.label = "J u8 NHWC->f32 NCHW " + bench::dims_text(c.base_sizes);
  c.view = bench::permuted({0, 3, 1, 2});
  c.alloc_op = bench::AllocOp::To;
  bench::run_copy_case(table, options, c);
}
