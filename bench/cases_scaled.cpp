// Cases S1-S4: scaled copies (st_copy_scaled) that normalize, quantize and
// dequantize in the copy's single pass, timed as cases I and J against the
// fastest copies of the same bytes.
#include "copy_case.h"
#include "labels.h"

namespace {

std::vector<double> ramp(int64_t n, double first, double step) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = first + step * static_cast<double>(i);
  return v;
}

}  // namespace

BENCH_CASE(S1_normalize_u8_nhwc_to_f32_nchw,
           "a uint8 NHWC image batch -> float32 NCHW, normalized per channel (ToTensor + Normalize)") {
  bench::CopyCase c;
  c.base_sizes = options.quick ? std::vector<int64_t>{2, 20, 24, 3} : std::vector<int64_t>{64, 224, 224, 3};
  c.src_dtype = ST_UINT8;
  c.dst_dtype = ST_FLOAT32;
  c.label = "S1 u8 NHWC->f32 NCHW norm " + bench::dims_text(c.base_sizes);
  c.view = bench::permuted({0, 3, 1, 2});
  c.scaled = true;
  const double mean[3] = {0.485, 0.456, 0.406}, std_[3] = {0.229, 0.224, 0.225};
  for (int i = 0; i < 3; ++i) {
    c.scale.push_back(1.0 / (255.0 * std_[i]));
    c.shift.push_back(-mean[i] / std_[i]);
  }
  c.dim = 1;
  bench::run_copy_case(table, options, c);
}

BENCH_CASE(S2_quantize_f32_to_i8_per_row, "a float32 matrix -> int8, per-row scale and zero point") {
  bench::CopyCase c;
  const int64_t rows = options.quick ? 37 : 4096, cols = options.quick ? 101 : 4096;
  c.base_sizes = {rows, cols};
  c.src_dtype = ST_FLOAT32;
  c.dst_dtype = ST_INT8;
  c.label = "S2 f32->i8 per row " + bench::dims_text(c.base_sizes);
  c.view = bench::same_tensor();
  c.scaled = true;
  c.scale = ramp(rows, 10.0, 0.01);
  c.shift = ramp(rows, -3.0, 0.0);
  c.dim = 0;
  bench::run_copy_case(table, options, c);
}

BENCH_CASE(S3_f32_to_f8e4m3_saturating, "float32 -> float8_e4m3fn, one scale, saturating") {
  bench::CopyCase c;
  c.base_sizes = {options.quick ? 70001 : int64_t{64} << 20};
  c.src_dtype = ST_FLOAT32;
  c.dst_dtype = ST_FLOAT8_E4M3FN;
  c.label = "S3 f32->f8e4m3 sat " + bench::count_text(c.base_sizes[0]);
  c.view = bench::same_tensor();
  c.scaled = true;
  c.scale = {0.0625};
  c.shift = {0.0};
  c.saturate = 1;
  bench::run_copy_case(table, options, c);
}

BENCH_CASE(S4_dequantize_i8_to_f32_per_channel, "an int8 matrix -> float32, per-channel (column) dequantize") {
  bench::CopyCase c;
  const int64_t rows = options.quick ? 37 : 4096, cols = options.quick ? 101 : 4096;
  c.base_sizes = {rows, cols};
  c.src_dtype = ST_INT8;
  c.dst_dtype = ST_FLOAT32;
  c.label = "S4 i8->f32 per channel " + bench::dims_text(c.base_sizes);
  c.view = bench::same_tensor();
  c.scaled = true;
  c.scale = ramp(cols, 0.01, 1e-5);
  c.shift = ramp(cols, -0.5, 1e-4);
  c.dim = 1;
  bench::run_copy_case(table, options, c);
}
