// stride-bench --device cuda: the cases of cuda_cases.h on device memory,
// each against cudaMemcpy device to device of the same bytes in the same
// rounds (Note [The GPU baseline] in cuda_cases.h), and the copies between
// host and device against cudaMemcpy of pinned memory; the table and the
// closing lines of cuda_report.h (cuda_bench.cpp says how it times).
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace bench {

// Runs the CUDA cases whose names contain one of `filters` (all when
// empty), prints their table, and writes their CSV to `csv_path` (no CSV
// when empty); with `list`, names them, with their views, dtypes and
// bytes, and stops (with or without a GPU). Returns the exit status: 0; 1
// when a copy differs from the CPU's; 77 without a CUDA device or CUDA
// support (printed).
int run_cuda(const Options& options, const std::vector<std::string>& filters, const std::string& csv_path,
             bool list);

}  // namespace bench
