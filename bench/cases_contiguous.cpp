// Case A: a copy between two contiguous tensors, the
// layout where the library's copy should be memcpy itself.
#include "copy_case.h"
#include "labels.h"

BENCH_CASE(A_clone, "clone of a contiguous float32 tensor") {
  bench::CopyCase c;
  c.base_sizes = {options.quick ? 70001 : int64_t{64} << 20};
  c.label = "A clone " + bench::count_text(c.base_sizes[0]);
  c.view = bench::same_tensor();
  c.alloc_op = bench::AllocOp::Clone;
  bench::run_copy_case(table, options, c);
}
