#include "cpu/row_tasks.h"

#include "iter/strided_walk.h"

namespace st {
namespace cpu {
namespace {

// A row longer than this many bytes moved is cut into pieces of about it.
constexpr int64_t kPieceBytes = 256 * 1024;

// run_tasks, or run_tasks_with_scratch when the rows need working memory.
void run_ranges(int64_t num_tasks, int64_t grain, int64_t scratch_bytes, ScratchTaskRange fn) {
  if (scratch_bytes > 0) return run_tasks_with_scratch(num_tasks, grain, scratch_bytes, fn);
  run_tasks(num_tasks, grain, [&](int64_t begin, int64_t end) { fn(begin, end, nullptr); });
}

}  // namespace

void run_row_tasks(const Geometry& g, int64_t element_bytes, int64_t scratch_bytes, ScratchRowsFn fn) {
  const int64_t n = g.ndim() > 0 ? g.shape[0] : 1;
  const int64_t m = g.ndim() > 1 ? g.shape[1] : 1;
  const int64_t dst_step = g.ndim() > 1 ? g.strides[0][1] : 0;
  const int64_t src_step = g.ndim() > 1 ? g.strides[1][1] : 0;
  StridedWalk<2> outer;
  for (int d = 2; d < g.ndim(); ++d) outer.add_dim(g, d);
  const int64_t rows = m * outer.count();

  if (n * element_bytes > 2 * kPieceBytes) {
    const int64_t piece = (kPieceBytes / element_bytes + 63) / 64 * 64;
    const int64_t pieces = (n + piece - 1) / piece;
    const int64_t ds = g.ndim() > 0 ? g.strides[0][0] : 0, ss = g.ndim() > 0 ? g.strides[1][0] : 0;
    run_ranges(rows * pieces, grain_for_bytes(piece * element_bytes), scratch_bytes,
               [&](int64_t begin, int64_t end, char* scratch) {
                 StridedWalk<2> walk = outer;
                 walk.seek(begin / pieces / m);
                 int64_t r = begin / pieces % m, p = begin % pieces;
                 for (int64_t t = begin; t < end; ++t) {
                   const int64_t i0 = p * piece, len = n - i0 < piece ? n - i0 : piece;
                   fn(g.data[0] + walk.offset(0) + r * dst_step + i0 * ds,
                      g.data[1] + walk.offset(1) + r * src_step + i0 * ss, len, 1, scratch);
                   if (++p == pieces) {
                     p = 0;
                     if (++r == m) {
                       r = 0;
                       walk.next();
                     }
                   }
                 }
               });
    return;
  }

  run_ranges(rows, grain_for_bytes(n * element_bytes), scratch_bytes, [&](int64_t begin, int64_t end, char* scratch) {
    StridedWalk<2> walk = outer;
    walk.seek(begin / m);
    int64_t r = begin % m;
    for (int64_t cur = begin; cur < end;) {
      const int64_t cnt = m - r < end - cur ? m - r : end - cur;
      fn(g.data[0] + walk.offset(0) + r * dst_step, g.data[1] + walk.offset(1) + r * src_step, n, cnt, scratch);
      cur += cnt;
      r = 0;
      walk.next();
    }
  });
}

void run_row_tasks(const Geometry& g, int64_t element_bytes, RowsFn fn) {
  run_row_tasks(g, element_bytes, 0,
                [&](char* dst, const char* src, int64_t n, int64_t m, char*) { fn(dst, src, n, m); });
}

}  // namespace cpu
}  // namespace st
