#include "cpu/row_tasks.h"

#include "cpu/outer_walk.h"

namespace st {
namespace cpu {

void run_row_tasks(const CopyGeometry& g, int64_t row_bytes, RowsFn fn) {
  const int64_t m = g.ndim > 1 ? g.sizes[1] : 1;
  const int64_t dst_step = g.ndim > 1 ? g.dst_strides[1] : 0;
  const int64_t src_step = g.ndim > 1 ? g.src_strides[1] : 0;
  OuterWalk outer;
  for (int d = 2; d < g.ndim; ++d) outer.add_dim(g.sizes[d], g.dst_strides[d], g.src_strides[d]);
  run_tasks(m * outer.count(), grain_for_bytes(row_bytes), [&](int64_t begin, int64_t end) {
    OuterWalk walk = outer;
    walk.seek(begin / m);
    int64_t r = begin % m;
    for (int64_t cur = begin; cur < end;) {
      const int64_t cnt = m - r < end - cur ? m - r : end - cur;
      fn(g.dst + walk.dst_offset() + r * dst_step, g.src + walk.src_offset() + r * src_step, cnt);
      cur += cnt;
      r = 0;
      walk.next();
    }
  });
}

}  // namespace cpu
}  // namespace st
