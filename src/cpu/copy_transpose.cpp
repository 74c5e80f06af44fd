#include "cpu/copy_transpose.h"

#include <cstdint>

#include "core/runtime/thread_count.h"
#include "cpu/calibration.h"
#include "cpu/kernel_parallel.h"
#include "cpu/transpose_tuning.h"
#include "iter/strided_walk.h"

namespace st {
namespace cpu {
namespace {

// A task transposes a stripe of columns (whole blocks of block_src_bytes
// where it can, so the block walk inside a task is the one a single thread
// would do) of one or more batch items, of about this many bytes.
constexpr int64_t kTaskBytes = 1 << 20;

bool aligned64(int64_t v) { return (v & 63) == 0; }

// A streamed transpose calibrates its blocking (Note [Tuning from the
// machine]) when it moves at least this much.
constexpr int64_t kCalibrateMinBytes = int64_t{64} << 20;
constexpr int kCalibrationRounds = 2;
constexpr int kCalibrationBands = 1 + kCalibrationRounds * kTransposeCandidates;

}  // namespace

int find_src_unit_dim(const Geometry& g, int64_t itemsize) {
  for (int d = 1; d < g.ndim(); ++d) {
    if (g.strides[1][d] == itemsize || g.strides[1][d] == -itemsize) return d;
  }
  return -1;
}

namespace {

// Transposes items [first, first + count) of `outer` (each one `base`),
// blocked by `tuning`, in tasks spread over the threads.
void run_transpose(Transpose2d base, const StridedWalk<2>& outer, int64_t first, int64_t count,
                   const TransposeTuning& tuning, const CopyKernelTable& kernels) {
  const int64_t itemsize = base.itemsize;
  char* const dst = base.dst;
  const char* const src = base.src;
  base.block_dst_bytes = tuning.dst_bytes;
  base.block_src_bytes = tuning.src_bytes;
  base.prefetch_bytes = base.streamed ? tuning.prefetch_bytes : 0;

  // Tasks: (column stripe, batch chunk, outer index), the stripe fastest.
  // A stripe is whole units of block_src_bytes of columns; a task is about
  // kTaskBytes: several units, or when all columns of one batch item are
  // less, several batch items. Tasks shrink while there are fewer than two
  // per thread: down to one unit of one item, then the unit itself down to
  // kCachedBlockSrcBytes, so that a transpose one block wide still splits.
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
    const int64_t tasks = count * ((units + stripe_units - 1) / stripe_units) * ((base.batch + chunk - 1) / chunk);
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
  run_tasks(count * per_outer, grain_for_bytes(stripe * base.rows * chunk * itemsize), [&](int64_t begin, int64_t end) {
    StridedWalk<2> walk = outer;
    walk.seek(first + begin / per_outer);
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

// The first streamed transpose of a shape runs in kCalibrationBands bands
// of its outer items (or of rows, or of batch items, the first long
// enough: outer items are whole blocks of memory), each with one candidate's blocks after a first band that warms
// up (Note [Tuning from the machine]): bands a seventh of a large copy long
// show what the whole copy will do, their tasks spread over the threads as
// the copy's are, and together they are the copy. Returns the fastest
// candidate, or -1 (nothing written) when no dim is long enough to band.
int calibrate_in_bands(const Transpose2d& base, const StridedWalk<2>& outer, const CopyKernelTable& kernels) {
  const int64_t E = base.itemsize, n = kCalibrationBands;
  // Row bands start on whole lines of each dst row, so streamed tiles stay
  // on lines.
  const int64_t row_step = 64 * (base.rows / (64 * n));
  const int dim = outer.count() >= n ? 2 : row_step > 0 ? 0 : base.batch >= n ? 1 : -1;
  if (dim < 0) return -1;
  const int64_t extent = dim == 0 ? base.rows : dim == 1 ? base.batch : outer.count();
  return calibrate(kTransposeCandidates, kCalibrationRounds, [&](int sample, int candidate) -> int64_t {
    const int64_t step = dim == 0 ? row_step : extent / n;
    const int64_t begin = sample * step, end = sample == n - 1 ? extent : begin + step;
    Transpose2d band = base;
    int64_t first = 0, count = outer.count();
    if (dim == 0) {
      band.rows = end - begin;
      band.dst += begin * E;
      band.src += begin * base.src_row;
    } else if (dim == 1) {
      band.batch = end - begin;
      band.dst += begin * base.dst_batch;
      band.src += begin * base.src_batch;
    } else {
      first = begin;
      count = end - begin;
    }
    run_transpose(band, outer, first, count, kTransposeCandidate[candidate], kernels);
    return 2 * E * band.rows * band.cols * band.batch * count;
  });
}

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

  base.streamed = stream;
  base.dst = dst;
  base.src = src;
  if (!stream) return run_transpose(base, outer, 0, outer.count(), cached_transpose_tuning(), kernels);
  const TransposeShape shape{itemsize, base.rows, base.cols, base.batch, base.src_row, base.dst_col, outer.count()};
  bool calibrate = false;
  const TransposeTuning tuning = streamed_transpose_tuning(shape, &calibrate);
  const int64_t moved = 2 * itemsize * base.rows * base.cols * base.batch * outer.count();
  if (calibrate && may_calibrate() && moved >= kCalibrateMinBytes) {
    const int winner = calibrate_in_bands(base, outer, kernels);
    if (winner >= 0) {
      record_transpose_winner(shape, winner);
      return;
    }
  }
  run_transpose(base, outer, 0, outer.count(), tuning, kernels);
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
