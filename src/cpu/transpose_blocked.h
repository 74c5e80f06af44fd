// The cache-blocked traversal the transposes of every instruction-set level
// share. Included only by the copy_kernels_* files, each with its own Tile
// type from its unnamed namespace, so every instantiation (and the code
// built with that file's flags) stays inside that file.
//
// Note [Transpose blocking]
// A transpose reads src in runs along its contiguous dim (j) and writes dst
// in runs along i; both runs must be long for DRAM to stream. Measured on
// the 2-core AVX-512 machines, for an 8192x8192 float32 transpose:
// - Streaming (NT) stores reach full write bandwidth once each dst row gets
//   >= 128-256 contiguous bytes at a time; 64-byte pieces scattered over
//   rows reach a third of it.
// - Reads are limited by how many cache misses one core keeps in flight:
//   the hardware prefetchers follow long sequential streams, not the short
//   row pieces of a block, so the next block is prefetched by software
//   (to L2: prefetcht2 was best), spread over the tiles of the current one.
// Blocks are kBlockRowBytes of each dst row by kBlockColBytes of each src
// row; blocks walk down i first (consecutive blocks extend the same dst
// rows), then along j, then the batch.
#pragma once

#include <cstdint>

#include "cpu/copy_kernel_table.h"

namespace st {
namespace cpu {
namespace {

template <typename Tile>
void transpose_blocked(const Transpose2d& t) {
  constexpr int64_t E = Tile::E, Ti = Tile::Ti, Tj = Tile::Tj;
  constexpr int64_t Bi = kBlockRowBytes / E > Ti ? kBlockRowBytes / E : Ti;
  constexpr int64_t Bj = kBlockColBytes / E > Tj ? kBlockColBytes / E : Tj;
  for (int64_t b = 0; b < t.batch; ++b) {
    const char* src = t.src + b * t.src_batch;
    char* dst = t.dst + b * t.dst_batch;
    for (int64_t j0 = 0; j0 < t.cols; j0 += Bj) {
      const int64_t j1 = j0 + Bj < t.cols ? j0 + Bj : t.cols;
      for (int64_t i0 = 0; i0 < t.rows; i0 += Bi) {
        const int64_t i1 = i0 + Bi < t.rows ? i0 + Bi : t.rows;
        // The next block in this order, whose src rows are prefetched a few
        // lines per tile: pf_rows rows of pf_lines lines from pf_base.
        const char* pf_base = nullptr;
        int64_t pf_rows = 0, pf_lines = 0, pf_per_tile = 0;
        if (t.prefetch) {
          int64_t nb = b, ni0 = i1, nj0 = j0;
          if (ni0 >= t.rows) {
            ni0 = 0;
            nj0 = j0 + Bj;
            if (nj0 >= t.cols) {
              nj0 = 0;
              ++nb;
            }
          }
          if (nb < t.batch) {
            pf_rows = ni0 + Bi < t.rows ? Bi : t.rows - ni0;
            pf_lines = ((nj0 + Bj < t.cols ? Bj : t.cols - nj0) * E + 63) / 64;
            pf_base = t.src + nb * t.src_batch + ni0 * t.src_row + nj0 * E;
            const int64_t tiles = ((i1 - i0 + Ti - 1) / Ti) * ((j1 - j0 + Tj - 1) / Tj);
            pf_per_tile = (pf_rows * pf_lines + tiles - 1) / tiles;
          }
        }
        int64_t pf_row = 0, pf_line = 0;
        for (int64_t j = j0; j < j1; j += Tj) {
          const int64_t cj = j1 - j < Tj ? j1 - j : Tj;
          for (int64_t i = i0; i < i1; i += Ti) {
            const int64_t ri = i1 - i < Ti ? i1 - i : Ti;
            for (int64_t q = 0; q < pf_per_tile && pf_row < pf_rows; ++q) {
              __builtin_prefetch(pf_base + pf_row * t.src_row + pf_line * 64, 0, 1);
              if (++pf_line == pf_lines) {
                pf_line = 0;
                ++pf_row;
              }
            }
            const char* s = src + i * t.src_row + j * E;
            char* d = dst + j * t.dst_col + i * E;
            if (ri == Ti && cj == Tj) {
              if (t.nt) {
                Tile::template run<true, true>(s, t.src_row, d, t.dst_col, ri, cj);
              } else {
                Tile::template run<true, false>(s, t.src_row, d, t.dst_col, ri, cj);
              }
            } else {
              Tile::template run<false, false>(s, t.src_row, d, t.dst_col, ri, cj);
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace cpu
}  // namespace st
