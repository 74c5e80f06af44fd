// The CPU kernels of quantize_blocks and dequantize_blocks (include/stride.h,
// st_quantize_blocks, st_dequantize_blocks) for host memory, pinned or not:
// the operands' lines (iter/block_lines.h), cut into tasks of whole blocks
// spread over threads (cpu/kernel_parallel.h), each run of blocks handed
// to the level's row kernel (cpu/levels/block_rows.h). The operator has
// checked everything (core/block_preconditions.h).
#include "core/block_preconditions.h"
#include "core/error.h"
#include "core/numeric/float_env.h"
#include "cpu/kernel_parallel.h"
#include "cpu/levels/block_rows.h"
#include "dispatch/registration.h"
#include "iter/block_lines.h"
#include "iter/strided_walk.h"

namespace st {
namespace cpu {
namespace {

// Runs `fn` over every block of the lines: tasks are (line, block) pairs,
// line after line, so a long line is shared between threads as well as
// many short ones; a task range becomes calls of consecutive lines along
// the fastest dim of the lines, each over a run of blocks.
void run_block_rows(const BlockLines& b, const BlockSpec& spec, BlockRowsFn fn, int64_t element_bytes) {
  const Geometry& g = b.lines;
  const int64_t block = spec.info().block;
  const int64_t blocks_per_line = (b.n + block - 1) / block;
  const int64_t m0 = g.ndim() > 0 ? g.shape[0] : 1;
  StridedWalk<3> outer;
  for (int d = 1; d < g.ndim(); ++d) outer.add_dim(g, d);
  const int64_t tasks = m0 * outer.count() * blocks_per_line;
  if (tasks == 0) return;
  const int64_t row0[3] = {g.ndim() > 0 ? g.strides[0][0] : 0, g.ndim() > 0 ? g.strides[1][0] : 0,
                           g.ndim() > 0 ? g.strides[2][0] : 0};
  const blocks::BlockParams params = spec.params();
  run_tasks(tasks, grain_for_bytes(block * element_bytes), [&](int64_t begin, int64_t end) {
    StridedWalk<3> walk = outer;
    const int64_t first_line = begin / blocks_per_line;
    walk.seek(first_line / m0);
    int64_t j = first_line % m0;
    int64_t blk = begin % blocks_per_line;
    for (int64_t t = begin; t < end;) {
      BlockRows r;
      r.elements = {g.data[kBlockElements] + walk.offset(kBlockElements) + j * row0[kBlockElements],
                    row0[kBlockElements], b.step[kBlockElements]};
      r.values = {g.data[kBlockValues] + walk.offset(kBlockValues) + j * row0[kBlockValues], row0[kBlockValues],
                  b.step[kBlockValues]};
      r.scales = {g.data[kBlockScales] + walk.offset(kBlockScales) + j * row0[kBlockScales], row0[kBlockScales],
                  b.step[kBlockScales]};
      r.n = b.n;
      r.params = params;
      if (blk != 0 || end - t < blocks_per_line) {
        // Part of one line.
        r.rows = 1;
        r.first_block = blk;
        r.last_block = blk + (end - t) < blocks_per_line ? blk + (end - t) : blocks_per_line;
        fn(r);
        t += r.last_block - blk;
        blk = r.last_block;
        if (blk < blocks_per_line) continue;  // the range ends inside the line
        blk = 0;
      } else {
        // Whole lines along the fastest dim of the lines.
        const int64_t whole = (end - t) / blocks_per_line;
        r.rows = m0 - j < whole ? m0 - j : whole;
        r.first_block = 0;
        r.last_block = blocks_per_line;
        fn(r);
        t += r.rows * blocks_per_line;
      }
      j += r.rows;
      if (j == m0) {
        j = 0;
        walk.next();
      }
    }
  });
}

BlockRowsFn row_kernel(bool quantize, const BlockSpec& spec, ScalarType elements) {
  const int e = block_element_index(elements);
  ST_CHECK(e >= 0, ST_ERROR_INTERNAL, "block kernel: dtype %s reached it unchecked",
           dtype_name(static_cast<int32_t>(elements)));
  const BlockRowsTable& t = active_block_rows();
  const int f = static_cast<int>(spec.format);
  return quantize ? t.quantize[f][e] : t.dequantize[f][e];
}

void run_blocks(const Tensor& elements, const Tensor& values, const Tensor& scales, const BlockSpec& spec,
                bool quantize) {
  if (elements.numel() == 0) return;
  const DefaultFloatEnvironment float_env;  // Note [The caller's floating-point environment]
  run_block_rows(block_lines(elements, values, scales, spec.dim), spec, row_kernel(quantize, spec, elements.dtype()),
                 static_cast<int64_t>(elements.itemsize()) + 1);
}

void quantize_blocks_cpu(dispatch::DispatchKeySet, const Tensor& values, const Tensor& scales, const Tensor& src,
                         const BlockSpec& spec) {
  run_blocks(src, values, scales, spec, true);
}
ST_REGISTER_KERNEL("quantize_blocks", CPU, quantize_blocks_cpu);

void dequantize_blocks_cpu(dispatch::DispatchKeySet, const Tensor& dst, const Tensor& values, const Tensor& scales,
                           const BlockSpec& spec) {
  run_blocks(dst, values, scales, spec, false);
}
ST_REGISTER_KERNEL("dequantize_blocks", CPU, dequantize_blocks_cpu);

}  // namespace
}  // namespace cpu
}  // namespace st
