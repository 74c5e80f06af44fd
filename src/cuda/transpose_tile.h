// Which thread moves which element in the tiled shared-memory transpose
// kernel, as in Harris, "An Efficient Matrix Transpose in CUDA C/C++"
// (NVIDIA, 2013). The kernel copies a rows × cols matrix whose source is
// fastest along cols and whose destination is fastest along rows: read
// straight, both sides would not be coalesced at once. One block moves one
// kTile × kTile tile in two phases, through shared memory:
//
//   load:  a warp reads one tile row (consecutive cols: coalesced in src)
//          into the shared tile;
//   store: after __syncthreads, a warp writes one tile column (consecutive
//          rows: coalesced in dst) out of the shared tile.
//
// Note [Transpose tile padding]
// Element (r, c) of the tile lives in shared slot r * kPitch + c in both
// phases. In the store phase a warp reads slots kPitch apart; with
// kPitch = kTile they would all sit in one of the 32 four-byte banks (a
// 32-way conflict). Padding each row by one bank word (one element when
// elements are 4 bytes or wider) spreads a column over all banks, so both
// phases take the fewest shared-memory wavefronts their bytes need
// (tests/cpp/test_transpose_tile.cpp counts them for every element size).
//
// The mapping is host/device code so that the tests can run every
// (tile, thread, step) on the host and check that each element is copied
// exactly once, to the right place.
#pragma once

#include "core/macros.h"

namespace st {
namespace cuda {

template <int kItemSize>
struct TransposeTile {
  static_assert(kItemSize == 1 || kItemSize == 2 || kItemSize == 4 || kItemSize == 8 || kItemSize == 16,
                "element sizes of stride's dtypes");
  static constexpr int kTile = 32;                   // a block moves kTile × kTile elements
  static constexpr int kBlockRows = 8;               // a block is kTile × kBlockRows threads
  static constexpr int kSteps = kTile / kBlockRows;  // elements per thread in each phase
  static constexpr int kPad = kItemSize < 4 ? 4 / kItemSize : 1;  // Note [Transpose tile padding]
  static constexpr int kPitch = kTile + kPad;
  static constexpr int kSharedElements = kTile * kPitch;
};

// One element a thread moves in one step of one phase.
template <typename IndexType>
struct TileElement {
  IndexType row;  // in the matrix
  IndexType col;
  int shared;     // slot in the shared tile
  bool inside;    // row < rows and col < cols; threads outside the matrix skip the step
};

// Tiles along an extent of n elements.
template <int kItemSize, typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE IndexType transpose_tiles(IndexType n) {
  constexpr int kTile = TransposeTile<kItemSize>::kTile;
  return n / kTile + (n % kTile != 0 ? 1 : 0);
}

// Load phase, step `step` in [0, kSteps) of thread (tx, ty) in tile
// (tile_row, tile_col): reads src(row, col) into `shared`. rows and cols
// stay below the index type's maximum minus kTile (32-bit indexing keeps
// them under 2^31).
template <int kItemSize, typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE TileElement<IndexType> transpose_load(IndexType tile_row, IndexType tile_col, int tx,
                                                                     int ty, int step, IndexType rows, IndexType cols) {
  using Tile = TransposeTile<kItemSize>;
  const int r = ty + step * Tile::kBlockRows;
  const int c = tx;
  TileElement<IndexType> e;
  e.row = tile_row * Tile::kTile + static_cast<IndexType>(r);
  e.col = tile_col * Tile::kTile + static_cast<IndexType>(c);
  e.shared = r * Tile::kPitch + c;
  e.inside = e.row < rows && e.col < cols;
  return e;
}

// Store phase: writes dst(row, col) from `shared`.
template <int kItemSize, typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE TileElement<IndexType> transpose_store(IndexType tile_row, IndexType tile_col, int tx,
                                                                      int ty, int step, IndexType rows, IndexType cols) {
  using Tile = TransposeTile<kItemSize>;
  const int r = tx;
  const int c = ty + step * Tile::kBlockRows;
  TileElement<IndexType> e;
  e.row = tile_row * Tile::kTile + static_cast<IndexType>(r);
  e.col = tile_col * Tile::kTile + static_cast<IndexType>(c);
  e.shared = r * Tile::kPitch + c;
  e.inside = e.row < rows && e.col < cols;
  return e;
}

}  // namespace cuda
}  // namespace st
