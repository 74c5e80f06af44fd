#include "cpu/copy_transpose.h"

#include <cstdint>

#include "cpu/kernel_parallel.h"
#include "cpu/outer_walk.h"

namespace st {
namespace cpu {
namespace {

// A task transposes a stripe of columns (whole blocks of
// kBlockColBytes, so the block walk inside a task is the one a single
// thread would do) of at least this many bytes.
constexpr int64_t kTaskBytes = 1 << 20;

bool aligned64(int64_t v) { return (v & 63) == 0; }

}  // namespace

int find_src_unit_dim(const CopyGeometry& g, int64_t itemsize) {
  for (int d = 1; d < g.ndim; ++d) {
    if (g.src_strides[d] == itemsize || g.src_strides[d] == -itemsize) return d;
  }
  return -1;
}

void copy_transposed(const CopyGeometry& geometry, int k, int64_t itemsize, bool stream, const CopyKernelTable& kernels) {
  CopyGeometry g = geometry;
  if (g.src_strides[k] < 0) {
    // Read the src rows forwards: walk dim k from its other end.
    g.dst += (g.sizes[k] - 1) * g.dst_strides[k];
    g.src += (g.sizes[k] - 1) * g.src_strides[k];
    g.dst_strides[k] = -g.dst_strides[k];
    g.src_strides[k] = -g.src_strides[k];
  }
  Transpose2d base{};
  base.rows = g.sizes[0];
  base.cols = g.sizes[k];
  base.src_row = g.src_strides[0];
  base.dst_col = g.dst_strides[k];
  base.batch = 1;
  base.itemsize = itemsize;
  bool nt = stream && base.rows * itemsize >= 64 && aligned64(static_cast<int64_t>(reinterpret_cast<uintptr_t>(g.dst)));
  OuterWalk outer;
  bool have_batch = false;
  for (int d = 1; d < g.ndim; ++d) {
    if (d == k) continue;
    nt = nt && aligned64(g.dst_strides[d]);
    if (!have_batch) {
      base.batch = g.sizes[d];
      base.dst_batch = g.dst_strides[d];
      base.src_batch = g.src_strides[d];
      have_batch = true;
    } else {
      outer.add_dim(g.sizes[d], g.dst_strides[d], g.src_strides[d]);
    }
  }
  base.nt = nt && aligned64(base.dst_col);

  base.prefetch = stream;

  // Tasks: (outer index, column stripe).
  const int64_t unit = kBlockColBytes / itemsize;
  const int64_t unit_bytes = unit * base.rows * base.batch * itemsize;
  int64_t stripe = unit * (kTaskBytes / unit_bytes > 1 ? kTaskBytes / unit_bytes : 1);
  if (stripe > base.cols) stripe = base.cols;
  const int64_t stripes = (base.cols + stripe - 1) / stripe;
  const int64_t tasks = outer.count() * stripes;
  run_tasks(tasks, grain_for_bytes(stripe * base.rows * base.batch * itemsize), [&](int64_t begin, int64_t end) {
    OuterWalk walk = outer;
    walk.seek(begin / stripes);
    int64_t s = begin % stripes;
    for (int64_t t = begin; t < end; ++t) {
      Transpose2d piece = base;
      const int64_t col0 = s * stripe;
      piece.cols = base.cols - col0 < stripe ? base.cols - col0 : stripe;
      piece.dst = g.dst + walk.dst_offset() + col0 * base.dst_col;
      piece.src = g.src + walk.src_offset() + col0 * itemsize;
      kernels.transpose(piece);
      if (++s == stripes) {
        s = 0;
        walk.next();
      }
    }
  });
}

}  // namespace cpu
}  // namespace st
