#include "cpu/copy_convert.h"

#include <cstring>

#include "core/runtime/thread_count.h"
#include "cpu/copy_same_dtype.h"
#include "cpu/copy_transpose.h"
#include "cpu/kernel_parallel.h"
#include "cpu/levels/convert_kernel_table.h"
#include "cpu/levels/copy_kernel_table.h"
#include "cpu/row_tasks.h"
#include "cpu/stream_tuning.h"
#include "iter/strided_walk.h"

namespace st {
namespace cpu {
namespace {

struct PairEntry {
  ScalarType src, dst;
  ConvertPair pair;
};

using S = ScalarType;
using P = ConvertPair;
constexpr PairEntry kPairs[] = {
    {S::Float32, S::Float16, P::Float32ToFloat16},
    {S::Float32, S::BFloat16, P::Float32ToBFloat16},
    {S::Int64, S::Float64, P::Int64ToFloat64},
    {S::UInt8, S::Float32, P::UInt8ToFloat32},
    {S::Float16, S::Float32, P::Float16ToFloat32},
    {S::BFloat16, S::Float32, P::BFloat16ToFloat32},
    {S::Float32, S::Float8_e4m3fn, P::Float32ToFloat8E4M3FN},
    {S::Float32, S::Float8_e5m2, P::Float32ToFloat8E5M2},
    {S::Float8_e4m3fn, S::Float32, P::Float8E4M3FNToFloat32},
    {S::Float8_e5m2, S::Float32, P::Float8E5M2ToFloat32},
    {S::Float16, S::Float8_e4m3fn, P::Float16ToFloat8E4M3FN},
    {S::Float16, S::Float8_e5m2, P::Float16ToFloat8E5M2},
    {S::BFloat16, S::Float8_e4m3fn, P::BFloat16ToFloat8E4M3FN},
    {S::BFloat16, S::Float8_e5m2, P::BFloat16ToFloat8E5M2},
    {S::Float8_e4m3fn, S::Float16, P::Float8E4M3FNToFloat16},
    {S::Float8_e5m2, S::Float16, P::Float8E5M2ToFloat16},
    {S::Float8_e4m3fn, S::BFloat16, P::Float8E4M3FNToBFloat16},
    {S::Float8_e5m2, S::BFloat16, P::Float8E5M2ToBFloat16},
    {S::UInt16, S::Float32, P::UInt16ToFloat32},
    {S::UInt32, S::Float32, P::UInt32ToFloat32},
    {S::UInt64, S::Float32, P::UInt64ToFloat32},
    {S::UInt16, S::Float64, P::UInt16ToFloat64},
    {S::UInt32, S::Float64, P::UInt32ToFloat64},
    {S::UInt64, S::Float64, P::UInt64ToFloat64},
    {S::Int8, S::Float32, P::Int8ToFloat32},
    {S::Int16, S::Float32, P::Int16ToFloat32},
    {S::Int32, S::Float32, P::Int32ToFloat32},
    {S::Int32, S::Float64, P::Int32ToFloat64},
    {S::Float32, S::Int32, P::Float32ToInt32},
    {S::Float32, S::UInt8, P::Float32ToUInt8},
    {S::Float32, S::Float64, P::Float32ToFloat64},
    {S::Float64, S::Float32, P::Float64ToFloat32},
    {S::Int32, S::Int64, P::Int32ToInt64},
    {S::Int64, S::Int32, P::Int64ToInt32},
};
static_assert(sizeof(kPairs) / sizeof(kPairs[0]) == kNumConvertPairs, "every pair has its dtypes");

// kPairs by (dst, src), made at compile time: every converting copy looks
// its pair up, a tiny one included.
struct PairLookup {
  int8_t index[kNumScalarTypes][kNumScalarTypes];
};
constexpr PairLookup make_pair_lookup() {
  PairLookup t{};
  for (auto& row : t.index)
    for (int8_t& i : row) i = -1;
  for (const PairEntry& e : kPairs) t.index[static_cast<int>(e.dst)][static_cast<int>(e.src)] = static_cast<int8_t>(e.pair);
  return t;
}
constexpr PairLookup kPairLookup = make_pair_lookup();

// The pair's ConvertPair value, or -1 without a kernel.
int pair_index(ScalarType dst, ScalarType src) {
  return kPairLookup.index[static_cast<int>(dst)][static_cast<int>(src)];
}

constexpr int64_t kScratchBytes = 32 * 1024;
constexpr int64_t kChunk = 512;  // elements per gather-convert-scatter step

// The fused deinterleave (NHWC pixels to planes) needs no scratch, so its
// blocks are sized by output instead: each block ends with a store fence,
// which waits for every write-combining buffer to drain, and a fence per
// 32 KB of streamed output cost about a tenth of a uint8 NHWC -> float32
// NCHW copy (docs/tuning.md, "Why").
constexpr int64_t kFusedBlockBytes = 1 << 20;

// n elements of `itemsize` bytes, dst and src stepping by their strides.
void move_elements(char* dst, int64_t dstep, const char* src, int64_t sstep, int64_t n, int64_t itemsize) {
  strided_rows(Rows2d{dst, src, n, 1, dstep, sstep, 0, 0, itemsize, false});
}

// Any layout: each row in chunks gathered into scratch, converted there,
// scattered out.
void convert_strided(const Geometry& g, int64_t de, int64_t se, ConvertRowFn row) {
  const int64_t ds = g.strides[0][0], ss = g.strides[1][0];
  // Each task range's scratch: kChunk source elements, then kChunk converted.
  const int64_t in_bytes = (kChunk * se + 63) / 64 * 64;
  run_row_tasks(g, de + se, in_bytes + kChunk * de, [&](char* dst, const char* src, int64_t n, int64_t m, char* scratch) {
    char* const in = scratch;
    char* const out = scratch + in_bytes;
    const int64_t dstep = g.ndim() > 1 ? g.strides[0][1] : 0, sstep = g.ndim() > 1 ? g.strides[1][1] : 0;
    for (int64_t r = 0; r < m; ++r) {
      for (int64_t i0 = 0; i0 < n; i0 += kChunk) {
        const int64_t cnt = n - i0 < kChunk ? n - i0 : kChunk;
        const char* s = src + r * sstep + i0 * ss;
        char* d = dst + r * dstep + i0 * ds;
        move_elements(in, se, s, ss, cnt, se);
        row(out, in, cnt, false);
        move_elements(d, ds, out, de, cnt, de);
      }
    }
  });
}

// dst contiguous along dim 0, src along dim k: blocks of src rows are
// converted into scratch (one call when the block is contiguous in src),
// then transposed out by the same-dtype transpose of the dst dtype; a
// tiny contiguous src dim (NHWC pixels) goes through the level's fused
// deinterleave when it has one.
void convert_transposed(const Geometry& geometry, int k, int64_t de, int64_t se, bool stream, ConvertPair pair) {
  const ConvertKernelTable& converters = active_convert_kernels();
  const ConvertRowFn row = converters.row[static_cast<int>(pair)];
  Geometry g = geometry;
  if (g.strides[1][k] < 0) {
    g.data[0] += (g.shape[k] - 1) * g.strides[0][k];
    g.data[1] += (g.shape[k] - 1) * g.strides[1][k];
    g.strides[0][k] = -g.strides[0][k];
    g.strides[1][k] = -g.strides[1][k];
  }
  const int64_t rows = g.shape[0], cols = g.shape[k];
  const int64_t src_row = g.strides[1][0], dst_col = g.strides[0][k];
  const int64_t bj = cols < 256 ? cols : 256;
  // Rows per block: a multiple of 64 (whole dst lines of any itemsize).
  int64_t bi = (kScratchBytes / (bj * de)) / 64 * 64;
  if (bi < 64) bi = 64;
  StridedWalk<2> outer;
  bool aligned = (reinterpret_cast<uintptr_t>(g.data[0]) & 63) == 0 && (dst_col & 63) == 0;
  for (int d = 1; d < g.ndim(); ++d) {
    if (d == k) continue;
    outer.add_dim(g, d);
    aligned = aligned && (g.strides[0][d] & 63) == 0;
  }
  // A tiny contiguous src dim may go through the fused deinterleave: then
  // a block is bi_task rows (a multiple of bi), and only when the level has
  // no kernel for the pair is it converted bi rows at a time via scratch.
  const bool fusable = converters.deinterleave != nullptr && cols <= 4 && src_row == cols * se;
  int64_t bi_task = bi;
  if (fusable) {
    bi_task = kFusedBlockBytes / (cols * de) / bi * bi;
    if (bi_task < bi) bi_task = bi;
    // Smaller blocks while there are fewer than two per thread.
    const int64_t want_tasks = 2 * static_cast<int64_t>(num_threads());
    while (bi_task > bi && outer.count() * ((rows + bi_task - 1) / bi_task) < want_tasks) {
      bi_task = (bi_task / bi + 1) / 2 * bi;
    }
  }
  const int64_t row_blocks = (rows + bi_task - 1) / bi_task, col_blocks = (cols + bj - 1) / bj;
  const int64_t per_outer = row_blocks * col_blocks;
  const CopyKernelTable& kernels = active_copy_kernels();
  // Each task range's scratch: bi x bj converted elements (the fused
  // deinterleave needs none, but a level may refuse a pair and fall back).
  run_tasks_with_scratch(outer.count() * per_outer, grain_for_bytes(bi_task * bj * (de + se)), bi * bj * de,
                         [&](int64_t begin, int64_t end, char* scratch) {
    StridedWalk<2> walk = outer;
    walk.seek(begin / per_outer);
    int64_t blk = begin % per_outer;
    for (int64_t t = begin; t < end; ++t) {
      const int64_t i0 = (blk % row_blocks) * bi_task, j0 = (blk / row_blocks) * bj;
      const int64_t ni_task = rows - i0 < bi_task ? rows - i0 : bi_task, nj = cols - j0 < bj ? cols - j0 : bj;
      const char* src_task = g.data[1] + walk.offset(1) + i0 * src_row + j0 * se;
      char* dst_task = g.data[0] + walk.offset(0) + i0 * de + j0 * dst_col;
      const bool fused = fusable && converters.deinterleave(pair, dst_task, dst_col, src_task, ni_task, nj,
                                                            stream && aligned && ni_task * de >= 64);
      for (int64_t i1 = 0; !fused && i1 < ni_task; i1 += bi) {
        const int64_t ni = ni_task - i1 < bi ? ni_task - i1 : bi;
        const char* src = src_task + i1 * src_row;
        char* dst = dst_task + i1 * de;
        const bool nt = stream && aligned && ni * de >= 64;
        if (src_row == nj * se) {
          row(scratch, src, ni * nj, false);
        } else {
          for (int64_t i = 0; i < ni; ++i) row(scratch + i * nj * de, src + i * src_row, nj, false);
        }
        Transpose2d tr{};
        tr.dst = dst;
        tr.src = scratch;
        tr.rows = ni;
        tr.cols = nj;
        tr.batch = 1;
        tr.src_row = nj * de;
        tr.dst_col = dst_col;
        tr.itemsize = de;
        tr.nt = nt;
        tr.block_src_bytes = kCachedBlockSrcBytes;  // no prefetch: the scratch is in cache
        tr.block_dst_bytes = kCachedBlockDstBytes;
        kernels.transpose(tr);
      }
      if (++blk == per_outer) {
        blk = 0;
        walk.next();
      }
    }
  });
}

}  // namespace

bool has_fast_convert(ScalarType dst, ScalarType src) { return pair_index(dst, src) >= 0; }

bool copy_convert(const Geometry& g, ScalarType dst_type, ScalarType src_type) {
  const int pair = pair_index(dst_type, src_type);
  if (pair < 0) return false;
  const int64_t de = static_cast<int64_t>(itemsize(dst_type)), se = static_cast<int64_t>(itemsize(src_type));
  const int64_t numel = g.numel();
  if (numel == 0) return true;
  const ConvertRowFn row = active_convert_kernels().row[pair];
  const bool stream = numel * de >= stream_threshold_bytes();
  if (g.ndim() == 0) {
    row(g.data[0], g.data[1], 1, false);
    return true;
  }
  if (g.strides[0][0] == de && g.strides[1][0] == se) {
    run_row_tasks(g, de + se, [&](char* dst, const char* src, int64_t n, int64_t m) {
      const int64_t dstep = g.ndim() > 1 ? g.strides[0][1] : 0, sstep = g.ndim() > 1 ? g.strides[1][1] : 0;
      for (int64_t r = 0; r < m; ++r) row(dst + r * dstep, src + r * sstep, n, stream);
    });
    return true;
  }
  const int k = g.strides[0][0] == de ? find_src_unit_dim(g, se) : -1;
  if (k > 0 && g.strides[1][0] != 0) {
    convert_transposed(g, k, de, se, stream, static_cast<ConvertPair>(pair));
  } else {
    convert_strided(g, de, se, row);
  }
  return true;
}

}  // namespace cpu
}  // namespace st
