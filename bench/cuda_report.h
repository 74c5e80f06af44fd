// What stride-bench --device cuda prints and writes: the list of its cases
// (--list), the definitions, the table, the closing lines naming the cases
// below kGpuGoal of their baseline, and the CSV. Host code only, so that
// it can be checked without a GPU (bench/tests/test_cuda_cases.cpp). Every
// line fits in kColumns columns (report.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_cases.h"

namespace bench {

// A device case below this fraction of cudaMemcpy device to device of the
// same bytes (x memcpy) is named under the table.
constexpr double kGpuGoal = 0.90;

// One case's result: medians, in milliseconds, of the same rounds.
struct CudaRow {
  std::string name;
  CudaKind kind = CudaKind::Device;
  int64_t bytes_moved = 0;     // bytes_moved(case)
  int64_t baseline_bytes = 0;  // baseline_bytes(case)
  double ms = 0;               // one copy of the case
  double baseline_ms = 0;      // one copy of the baseline
  int reps = 0;                // timed rounds
};

// "D2D", "pinned H2D" or "pinned D2H": the cudaMemcpy a row is compared with.
const char* baseline_name(CudaKind kind);

// Baseline time / case time: 1.00 = as fast as the baseline.
double x_memcpy(const CudaRow& r);

// "D1 (0.71)" for each row of `kind` (Device, or the link kinds when
// Device is not given) whose x memcpy is below kGpuGoal (or is not a
// number), in the rows' order. The figure is cut, not rounded, to two
// decimals, so that a row below the goal never reads 0.90.
std::vector<std::string> below_goal(const std::vector<CudaRow>& rows, bool device);

// One line per case: its name, the view's sizes and strides, the dtypes,
// bytes moved and the device memory it holds.
void print_cuda_case_list(const std::vector<CudaCase>& cases, std::FILE* out);

void print_cuda_definitions(std::FILE* out);

// The table; its header line starts "case" then "MB moved"
// (tools/gpu-check.sh copies the table from that line on).
void print_cuda_table(const std::vector<CudaRow>& rows, std::FILE* out);

// The closing lines: the device cases below kGpuGoal of cudaMemcpy device
// to device, then the link cases below it of pinned cudaMemcpy; "none"
// when there are none.
void print_cuda_below_goal(const std::vector<CudaRow>& rows, std::FILE* out);

// Writes the rows as CSV to `path`; stops the program when it cannot.
void write_cuda_csv(const std::string& path, const std::vector<CudaRow>& rows);

}  // namespace bench
