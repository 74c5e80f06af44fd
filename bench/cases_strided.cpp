// Cases G and H: a source that is not a permutation of
// dense memory — every other column (half the bytes skipped) and one row
// broadcast to a matrix (stride 0) — copied to a contiguous tensor.
#include "copy_case.h"
#include "labels.h"

BENCH_CASE(G_strided_slice, "every other column of a float32 matrix, [:, ::2] -> contiguous") {
  bench::CopyCase c;
  c.base_sizes = options.quick ? std::vector<int64_t>{256, 200} : std::vector<int64_t>{8192, 8192};
  c.label = "G [:, ::2] of " + bench::dims_text(c.base_sizes);
  c.view = bench::sliced(1, 2);
  bench::run_copy_case(table, options, c);
}

BENCH_CASE(H_row_broadcast, "a float32 row broadcast into a matrix -> contiguous") {
  const int64_t rows = options.quick ? 256 : 8192, cols = options.quick ? 200 : 8192;
  bench::CopyCase c;
  c.base_sizes = {1, cols};
  c.label = "H broadcast " + bench::dims_text(c.base_sizes) + "->" + bench::dims_text({rows, cols});
  c.view = bench::expanded({rows, cols});
  bench::run_copy_case(table, options, c);
}
