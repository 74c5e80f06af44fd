// Cases B–F: a permuted float32 view copied to a
// contiguous tensor, where source and destination disagree on which dim
// moves fastest (the transposes).
#include "copy_case.h"
#include "labels.h"

namespace {

void run_permute_case(bench::Table& table, const bench::Options& options, const char* title,
                      std::vector<int64_t> full_sizes, std::vector<int64_t> quick_sizes, std::vector<int32_t> dims) {
  bench::CopyCase c;
  c.base_sizes = options.quick ? quick_sizes : full_sizes;
  c.label = std::string(title) + " " + bench::dims_text(c.base_sizes);
  c.view = bench::permuted(dims);
  bench::run_copy_case(table, options, c);
}

}  // namespace

BENCH_CASE(B_nchw_to_nhwc, "a float32 NCHW batch .permute(0,2,3,1) -> contiguous") {
  run_permute_case(table, options, "B NCHW->NHWC", {32, 256, 56, 56}, {2, 32, 28, 28}, {0, 2, 3, 1});
}

BENCH_CASE(C_nhwc_to_nchw, "a float32 NHWC batch .permute(0,3,1,2) -> contiguous") {
  run_permute_case(table, options, "C NHWC->NCHW", {32, 56, 56, 256}, {2, 28, 28, 32}, {0, 3, 1, 2});
}

BENCH_CASE(D_transpose_2d, "a float32 matrix .transpose(0,1) -> contiguous") {
  run_permute_case(table, options, "D transpose", {8192, 8192}, {256, 200}, {1, 0});
}

BENCH_CASE(E_reverse_3d, "a float32 3-d tensor .permute(2,1,0) -> contiguous") {
  run_permute_case(table, options, "E permute(2,1,0)", {256, 256, 256}, {40, 36, 32}, {2, 1, 0});
}

BENCH_CASE(F_permute_6d, "a float32 6-d tensor .permute(0,3,1,5,2,4) -> contiguous") {
  run_permute_case(table, options, "F permute(0,3,1,5,2,4)", {16, 16, 16, 16, 16, 16}, {6, 5, 4, 6, 5, 4},
                   {0, 3, 1, 5, 2, 4});
}
