// stride-bench --device cuda: the permutation and conversion cases on
// device memory, each against cudaMemcpy device-to-device of the same bytes
// in the same run, and the copies between host and device against
// cudaMemcpy of pinned memory (cuda_bench.cpp says how it times).
#pragma once

#include <string>
#include <vector>

#include "bench.h"

namespace bench {

// Runs the CUDA cases whose names contain one of `filters` (all when
// empty), prints their table, and writes their CSV to `csv_path` (no CSV
// when empty). Returns the exit status: 0, or 77 without a CUDA device or CUDA support (printed).
int run_cuda(const Options& options, const std::vector<std::string>& filters, const std::string& csv_path,
             bool list);

}  // namespace bench
