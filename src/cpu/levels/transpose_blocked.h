// The cache-blocked traversal of the transposes, over a level's Tile
// (copy_kernels.inl). In an unnamed namespace like the kernels, so every
// instantiation (and the code built with a level's flags) stays inside
// that level's file.
//
// Note [Transpose blocking]
// A transpose reads src in runs along its contiguous dim (j) and writes dst
// in runs along i; for DRAM to stream, both runs must be long and few may
// be open at once. A block spans block_dst_bytes of each dst row (Bi
// elements of i) by block_src_bytes of each src row (Bj elements of j);
// blocks walk down i first (consecutive blocks extend the same dst rows),
// then along j, then the batch. Within a block, tile columns go down i, so
// each dst row gets Bi elements before the next rows are started; tile
// columns narrower than a line go side by side (an AVX2 float32 tile is
// half a line wide), so each src line is read once.
// - Streaming (NT) stores need whole lines of each dst row written back to
//   back: streamed, the tiles of a block go in pairs along i, and each dst
//   row gets its two pieces one after the other (128 contiguous bytes with
//   64-byte tile rows), not one line of each row in turn.
// - Reads are limited by how many misses the core keeps in flight: the
//   hardware prefetchers follow long sequential runs, not the short row
//   pieces of a block, so the next blocks are prefetched by software (to
//   L2), spread over the tiles of the current one, at least prefetch_bytes
//   of src ahead and on into the piece the caller transposes next. On some
//   CPUs the L2 streamer, which follows a few dozen streams but none across
//   a page, does better alone with blocks a whole page long.
// - How many dst rows a block keeps open matters too: on some CPUs streamed
//   stores to 256 rows at 128 bytes each run at a third of the rate of 32
//   rows, or of 256 rows at 512 bytes.
// Which blocks suit a CPU is measured, not assumed (cpu/transpose_tuning.h,
// Note [Tuning from the machine]); the figures are in docs/tuning.md
// ("Why").
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
  const int64_t Bi = t.block_dst_bytes / E > Ti ? t.block_dst_bytes / E / Ti * Ti : Ti;
  const int64_t Bj = t.block_src_bytes / E > Tj ? t.block_src_bytes / E / Tj * Tj : Tj;
  // Tile columns a whole src line wide go side by side along j, so each
  // src line is read once (an AVX2 float32 tile is half a line wide).
  constexpr int64_t Jw = Tj * E < 64 ? 64 / E / Tj * Tj : Tj;
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
        for (int64_t jw = j0; jw < j1; jw += Jw) {
          const int64_t jw1 = jw + Jw < j1 ? jw + Jw : j1;
          for (int64_t i = i0; i < i1; i += Ti) {
            const int64_t ri = i1 - i < Ti ? i1 - i : Ti;
            const bool pair = t.nt && ri == Ti && i1 - i >= 2 * Ti;
            for (int64_t j = jw; j < jw1; j += Tj) {
              const int64_t cj = jw1 - j < Tj ? jw1 - j : Tj;
              if (cur.valid) prefetch_lines(pair ? 2 * per_tile : per_tile);
              const char* s = src + i * t.src_row + j * E;
              char* d = dst + j * t.dst_col + i * E;
              if (ri == Ti && cj == Tj) {
                if (pair) {
                  Tile::run_pair_streamed(s, t.src_row, d, t.dst_col);
                } else if (t.nt) {
                  Tile::template run<true, true>(s, t.src_row, d, t.dst_col, ri, cj);
                } else {
                  Tile::template run<true, false>(s, t.src_row, d, t.dst_col, ri, cj);
                }
              } else if (pair) {
                Tile::template run<false, false>(s, t.src_row, d, t.dst_col, Ti, cj);
                Tile::template run<false, false>(s + Ti * t.src_row, t.src_row, d + Ti * E, t.dst_col, Ti, cj);
              } else {
                Tile::template run<false, false>(s, t.src_row, d, t.dst_col, ri, cj);
              }
            }
            if (pair) i += Ti;
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
