#include "cpu/copy_transpose.h"

#include <cstdint>

#include "cpu/kernel_parallel.h"
#include "cpu/outer_walk.h"

namespace st {
namespace cpu {
namespace {

// A task transposes a stripe of rows (a multiple of 64 rows, so every
// stripe starts where a tile does and keeps the 64-byte alignment of the
// dst lines) of about this many bytes.
constexpr int64_t kTaskBytes = 512 * 1024;
constexpr int64_t kStripeUnit = 64;

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

  const int64_t plane_bytes = base.cols * base.batch * itemsize;
  int64_t stripe = kStripeUnit * (kTaskBytes / (kStripeUnit * plane_bytes));
  if (stripe < kStripeUnit) stripe = kStripeUnit;
  if (stripe > base.rows) stripe = base.rows;
  const int64_t stripes = (base.rows + stripe - 1) / stripe;
  const int64_t tasks = outer.count() * stripes;
  run_tasks(tasks, grain_for_bytes(stripe * plane_bytes), [&](int64_t begin, int64_t end) {
    OuterWalk walk = outer;
    walk.seek(begin / stripes);
    int64_t s = begin % stripes;
    for (int64_t t = begin; t < end; ++t) {
      Transpose2d piece = base;
      const int64_t row0 = s * stripe;
      piece.rows = base.rows - row0 < stripe ? base.rows - row0 : stripe;
      piece.dst = g.dst + walk.dst_offset() + row0 * itemsize;
      piece.src = g.src + walk.src_offset() + row0 * base.src_row;
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
