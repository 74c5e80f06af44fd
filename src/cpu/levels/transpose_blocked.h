// The cache-blocked traversal of the transposes, over a level's Tile
// (copy_kernels.inl). In an unnamed namespace like the kernels, so every
// instantiation (and the code built with a level's flags) stays inside
// that level's file.
//
// Note [Transpose blocking]
// A transpose reads src in runs along its contiguous dim (j) and writes dst
// in runs along i; both runs must be long for DRAM to stream. Measured on
// the 2-core AVX-512 EPYC machines, for an 8192x8192 float32 transpose:
// - Streaming (NT) stores reach full write bandwidth once each dst row gets
//   >= 128-256 contiguous bytes at a time; 64-byte pieces scattered over
//   rows reach a third of it.
// - Reads are limited by how many cache misses one core keeps in flight:
//   the hardware prefetchers follow long sequential streams, not the short
//   row pieces of a block, so the next block is prefetched by software
//   (to L2: prefetcht2 was best), spread over the tiles of the current one.
// - Prefetching only the next block is too late when blocks are small (a
//   16x16 tile of a 6-d permutation): the prefetches run at least
//   prefetch_bytes of src ahead, and on into the piece the caller
//   transposes next.
// On the Xeon (family 6 model 207, one thread, the same transpose against
// glibc's memcpy of its bytes) the software prefetch costs instead: 0.70
// of memcpy with it, 0.90 without, once each block spans a whole 4 KiB
// page of each src row (1 KiB: 0.76, 2 KiB: 0.81, 4 KiB and 8 KiB: 0.89-
// 0.92; 64 dst bytes a row instead of 128: 0.80). There the L2 streamer,
// which follows up to 32 streams but none across a page, keeps more reads
// in flight than the software prefetches it competes with, and a page-long
// run of each of the block's 32 src rows is what it follows best. Which of
// the two the CPU gets is StreamTuning's (Note [Streaming on each vendor]).
// Streamed, the tiles of a block go in pairs along i, and each dst row gets
// its two pieces one after the other (128 contiguous bytes with 64-byte
// tile rows), not one line of each row in turn. On the Xeon, one thread,
// 64 MiB written with streaming stores as 16 KiB items of 16 rows of 1 KiB
// (the dst of a 256x16 float32 transpose): a line of each row in turn took
// 3.6-4.6 ms, two lines of each row in turn 2.7-3.0, as fast as writing in
// order; a 16^6 float32 .permute(0,1,2,5,3,4), which is such transposes,
// went from 0.69-0.70 to 0.91-0.95 of a streaming copy of its bytes.
// Blocks are kBlockRowBytes of each dst row by block_src_bytes of each src
// row; blocks walk down i first (consecutive blocks extend the same dst
// rows), then along j, then the batch.
#pragma once

#include <cstdint>

#include "core/macros.h"
#include "cpu/levels/copy_kernel_table.h"

namespace st {
namespace cpu {
namespace {

// Walks the blocks of a piece (and on into the next piece) ahead of the
// transposing loop, prefetching their src lines row by row.
struct PrefetchCursor {
  const char* base;   // the piece the cursor is in
  const char* next;   // the piece after it, or null
  int64_t b, jb, ib;  // the block
  bool valid;
  // Within the block: the first line of the current row, the row and line
  // to prefetch next, and the block's shape in lines.
  const char* row_ptr;
  int64_t row, line, rows, lines;
};

template <typename Tile>
void transpose_blocked(const Transpose2d& t) {
  constexpr int64_t E = Tile::E, Ti = Tile::Ti, Tj = Tile::Tj;
  constexpr int64_t Bi = kBlockRowBytes / E > Ti ? kBlockRowBytes / E : Ti;
  const int64_t Bj = t.block_src_bytes / E > Tj ? t.block_src_bytes / E / Tj * Tj : Tj;
  const int64_t nbi = (t.rows + Bi - 1) / Bi, nbj = (t.cols + Bj - 1) / Bj;
  const int64_t block_rows = Bi < t.rows ? Bi : t.rows, block_cols = Bj < t.cols ? Bj : t.cols;
  const int64_t block_lines = block_rows * ((block_cols * E + 63) / 64);
  const int64_t tiles_per_block = ((block_rows + Ti - 1) / Ti) * ((block_cols + Tj - 1) / Tj);

  PrefetchCursor cur{t.src, t.next_src, 0, 0, 0, t.prefetch_bytes > 0, nullptr, 0, 0, 0, 0};
  auto enter_block = [&] {
    const int64_t i0 = cur.ib * Bi, j0 = cur.jb * Bj;
    cur.rows = t.rows - i0 < Bi ? t.rows - i0 : Bi;
    cur.lines = ((t.cols - j0 < Bj ? t.cols - j0 : Bj) * E + 63) / 64;
    cur.row_ptr = cur.base + cur.b * t.src_batch + i0 * t.src_row + j0 * E;
    cur.row = cur.line = 0;
  };
  auto advance = [&] {
    if (++cur.ib == nbi) {
      cur.ib = 0;
      if (++cur.jb == nbj) {
        cur.jb = 0;
        if (++cur.b == t.batch) {
          cur.b = 0;
          cur.base = cur.next;
          cur.next = nullptr;
          cur.valid = cur.base != nullptr;
          if (!cur.valid) return;
        }
      }
    }
    enter_block();
  };
  // Up to `count` more lines of the cursor's block (prefetcht2: into L2).
  auto prefetch_lines = [&](int64_t count) {
    for (; count > 0 && cur.row < cur.rows; --count) {
      ST_PREFETCH_TO_L2(cur.row_ptr + cur.line * 64);
      if (++cur.line == cur.lines) {
        cur.line = 0;
        ++cur.row;
        cur.row_ptr += t.src_row;
      }
    }
  };
  // The cursor runs `ahead` blocks in front; unless the caller's previous
  // piece already did, the blocks it skips are prefetched now.
  const int64_t ahead = t.prefetch_bytes / (block_lines * 64) > 1 ? t.prefetch_bytes / (block_lines * 64) : 1;
  if (cur.valid) {
    enter_block();
    for (int64_t k = 0; k < ahead && cur.valid; ++k) {
      if (t.prefetch_head) prefetch_lines(block_lines);
      advance();
    }
  }
  const int64_t per_tile = (block_lines + tiles_per_block - 1) / tiles_per_block;

  for (int64_t b = 0; b < t.batch; ++b) {
    const char* src = t.src + b * t.src_batch;
    char* dst = t.dst + b * t.dst_batch;
    for (int64_t j0 = 0; j0 < t.cols; j0 += Bj) {
      const int64_t j1 = j0 + Bj < t.cols ? j0 + Bj : t.cols;
      for (int64_t i0 = 0; i0 < t.rows; i0 += Bi) {
        const int64_t i1 = i0 + Bi < t.rows ? i0 + Bi : t.rows;
        for (int64_t j = j0; j < j1; j += Tj) {
          const int64_t cj = j1 - j < Tj ? j1 - j : Tj;
          for (int64_t i = i0; i < i1; i += Ti) {
            const int64_t ri = i1 - i < Ti ? i1 - i : Ti;
            if (cur.valid) prefetch_lines(per_tile);
            const char* s = src + i * t.src_row + j * E;
            char* d = dst + j * t.dst_col + i * E;
            if (ri == Ti && cj == Tj) {
              if (t.nt && i1 - i >= 2 * Ti) {
                Tile::run_pair_streamed(s, t.src_row, d, t.dst_col);
                i += Ti;
                if (cur.valid) prefetch_lines(per_tile);
              } else if (t.nt) {
                Tile::template run<true, true>(s, t.src_row, d, t.dst_col, ri, cj);
              } else {
                Tile::template run<true, false>(s, t.src_row, d, t.dst_col, ri, cj);
              }
            } else {
              Tile::template run<false, false>(s, t.src_row, d, t.dst_col, ri, cj);
            }
          }
        }
        if (cur.valid) {
          prefetch_lines(block_lines);  // whatever the tiles left
          advance();
        }
      }
    }
  }
}

}  // namespace
}  // namespace cpu
}  // namespace st
