#include "cpu/copy_transpose.h"

#include <cstdint>

#include "core/runtime/thread_count.h"
#include "cpu/kernel_parallel.h"
#include "cpu/stream_tuning.h"
#include "iter/strided_walk.h"

namespace st {
namespace cpu {
namespace {

// A task transposes a stripe of columns (whole blocks of block_src_bytes
// where it can, so the block walk inside a task is the one a single thread
// would do) of one or more batch items, of about this many bytes.
constexpr int64_t kTaskBytes = 1 << 20;

bool aligned64(int64_t v) { return (v & 63) == 0; }

}  // namespace

int find_src_unit_dim(const Geometry& g, int64_t itemsize) {
  for (int d = 1; d < g.ndim(); ++d) {
    if (g.strides[1][d] == itemsize || g.strides[1][d] == -itemsize) return d;
  }
  return -1;
}

namespace {

void transpose_pass(const Geometry& g, int k, int64_t itemsize, bool stream, const CopyKernelTable& kernels) {
  // Read the src rows forwards: a reversed dim k is walked from its other end.
  const bool flip = g.strides[1][k] < 0;
  char* const dst = flip ? g.data[0] + (g.shape[k] - 1) * g.strides[0][k] : g.data[0];
  const char* const src = flip ? g.data[1] + (g.shape[k] - 1) * g.strides[1][k] : g.data[1];
  Transpose2d base{};
  base.rows = g.shape[0];
  base.cols = g.shape[k];
  base.src_row = g.strides[1][0];
  base.dst_col = flip ? -g.strides[0][k] : g.strides[0][k];
  base.batch = 1;
  base.itemsize = itemsize;
  bool nt = stream && base.rows * itemsize >= 64 && aligned64(static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst)));
  StridedWalk<2> outer;
  bool have_batch = false;
  for (int d = 1; d < g.ndim(); ++d) {
    if (d == k) continue;
    nt = nt && aligned64(g.strides[0][d]);
    if (!have_batch) {
      base.batch = g.shape[d];
      base.dst_batch = g.strides[0][d];
      base.src_batch = g.strides[1][d];
      have_batch = true;
    } else {
      outer.add_dim(g, d);
    }
  }
  base.nt = nt && aligned64(base.dst_col);

  const StreamTuning tuning = stream_tuning();
  base.streamed = stream;
  base.block_src_bytes = tuning.transpose_src_bytes;
  base.prefetch_bytes = stream ? tuning.transpose_prefetch_bytes : 0;

  // Tasks: (column stripe, batch chunk, outer index), the stripe fastest.
  // A stripe is whole units of block_src_bytes of columns; a task is about
  // kTaskBytes: several units, or when all columns of one batch item are
  // less, several batch items. Tasks shrink while there are fewer than two
  // per thread: down to one unit of one item, then the unit itself down to
  // kCachedBlockSrcBytes (the blocks tuned on AMD), so that a transpose one
  // block wide still splits.
  int64_t unit = base.block_src_bytes / itemsize;
  int64_t units = (base.cols + unit - 1) / unit;
  const int64_t unit_bytes = (unit < base.cols ? unit : base.cols) * base.rows * itemsize;
  const int64_t item_bytes = base.cols * base.rows * itemsize;
  int64_t stripe_units = kTaskBytes / unit_bytes > 1 ? kTaskBytes / unit_bytes : 1;
  if (stripe_units > units) stripe_units = units;
  int64_t chunk = 1;
  if (stripe_units == units) {
    chunk = kTaskBytes / item_bytes > 1 ? kTaskBytes / item_bytes : 1;
    if (chunk > base.batch) chunk = base.batch;
  }
  const int64_t min_unit = kCachedBlockSrcBytes / itemsize;
  const int64_t want_tasks = 2 * static_cast<int64_t>(num_threads());
  for (;;) {
    const int64_t tasks = outer.count() * ((units + stripe_units - 1) / stripe_units) * ((base.batch + chunk - 1) / chunk);
    if (tasks >= want_tasks) break;
    if (chunk > 1) {
      chunk = (chunk + 1) / 2;
    } else if (stripe_units > 1) {
      stripe_units = (stripe_units + 1) / 2;
    } else if (unit / 2 >= min_unit) {
      unit /= 2;
      units = (base.cols + unit - 1) / unit;
    } else {
      break;
    }
  }
  const int64_t stripe = stripe_units * unit < base.cols ? stripe_units * unit : base.cols;
  const int64_t stripes = (base.cols + stripe - 1) / stripe, chunks = (base.batch + chunk - 1) / chunk;
  const int64_t per_outer = stripes * chunks;
  run_tasks(outer.count() * per_outer, grain_for_bytes(stripe * base.rows * chunk * itemsize), [&](int64_t begin, int64_t end) {
    StridedWalk<2> walk = outer;
    walk.seek(begin / per_outer);
    int64_t within = begin % per_outer;
    // Each piece also gets the next one's src, for the prefetcher to run on
    // into it; pieces of another shape (the last stripe or chunk) stop it.
    auto piece_at = [&](int64_t w) {
      const int64_t col0 = (w % stripes) * stripe, b0 = (w / stripes) * chunk;
      Transpose2d piece = base;
      piece.cols = base.cols - col0 < stripe ? base.cols - col0 : stripe;
      piece.batch = base.batch - b0 < chunk ? base.batch - b0 : chunk;
      piece.dst = dst + walk.offset(0) + col0 * base.dst_col + b0 * base.dst_batch;
      piece.src = src + walk.offset(1) + col0 * itemsize + b0 * base.src_batch;
      return piece;
    };
    Transpose2d piece = piece_at(within);
    piece.prefetch_head = true;
    for (int64_t t = begin; t < end; ++t) {
      if (++within == per_outer) {
        within = 0;
        walk.next();
      }
      Transpose2d next{};
      if (t + 1 < end) {
        next = piece_at(within);
        if (next.cols == piece.cols && next.batch == piece.batch) piece.next_src = next.src;
      }
      kernels.transpose(piece);
      next.prefetch_head = piece.next_src == nullptr;
      piece = next;
    }
  });
}

}  // namespace

void copy_transposed(const Geometry& g, int k, int64_t itemsize, bool stream, const CopyKernelTable& kernels) {
  // Streaming stores need every tile's dst lines 64-byte aligned. When only
  // the base is off (a 16-byte aligned allocation, every other dst stride a
  // multiple of 64), the first `head` elements of each dst row go in a pass
  // of their own with ordinary stores, and the rest start on a line.
  // Measured on the 2-core AVX-512 machines into a destination 16 bytes past
  // a line, one thread: an 8192x8192 float32 transpose 13 -> 37 GB/s (as
  // fast as aligned), NCHW -> NHWC (32,256,56,56) 25 -> 33, (256,256,256)
  // permute(2,1,0) 13 -> 19 (there each 1 KB dst row has a partial line at
  // both ends, written with ordinary stores).
  const int64_t misaligned = static_cast<int64_t>(reinterpret_cast<uintptr_t>(g.data[0]) & 63);
  if (stream && misaligned != 0 && misaligned % itemsize == 0) {
    const int64_t head = (64 - misaligned) / itemsize;
    bool strides_aligned = true;
    for (int d = 1; d < g.ndim(); ++d) strides_aligned = strides_aligned && aligned64(g.strides[0][d]);
    if (strides_aligned && (g.shape[0] - head) * itemsize >= 64) {
      Geometry part = g;
      part.shape[0] = head;
      transpose_pass(part, k, itemsize, stream, kernels);
      part.shape[0] = g.shape[0] - head;
      part.data[0] = g.data[0] + head * itemsize;
      part.data[1] = g.data[1] + head * g.strides[1][0];
      transpose_pass(part, k, itemsize, stream, kernels);
      return;
    }
  }
  transpose_pass(g, k, itemsize, stream, kernels);
}

}  // namespace cpu
}  // namespace st
