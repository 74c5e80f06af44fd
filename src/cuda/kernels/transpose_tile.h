// Which thread moves which element in the tiled shared-memory transpose
// kernel, as in Harris, "An Efficient Matrix Transpose in CUDA C/C++"
// (NVIDIA, 2013), with tiles shaped to the matrices. The kernel copies a
// batch of rows × cols matrices whose source is fastest along cols and
// whose destination is fastest along rows: read straight, both sides would
// not be coalesced at once. One block of kTransposeThreads threads moves
// one tile in two phases, through shared memory:
//
//   load:  consecutive threads read consecutive cols of a tile row
//          (coalesced in src) into the shared tile;
//   store: after __syncthreads, consecutive threads write consecutive rows
//          of a tile column (coalesced in dst) out of the shared tile.
//
// Note [Transpose tiles for small extents]
// A tile is TB matrices of TR × TC elements, each a power of two, with
// TB × TR × TC = kTileElements (1024). Thread t's element in step s is
// l = t + kTransposeThreads × s, split by shifts and masks into (b, r, c):
// c fastest in the load phase, r fastest in the store phase. Matrices
// large both ways get Harris's 32 × 32, for which this split is his
// mapping (a warp loads one tile row and stores one tile column). A short
// side takes its extent rounded up to a power of two, and the other side
// grows to fill the tile: NCHW to NHWC with 3 channels takes 4 × 256 tiles
// (rows are the channels), where a warp loads 32 consecutive pixels of one
// channel and stores 8 pixels' 3 channels, 24 consecutive elements of dst.
// When whole matrices fit in less than a tile (16 × 16), the tile holds
// several (TB = 4). Rounding up leaves at most half of a side idle; threads
// outside the matrices skip their step, and a warp's other threads still
// touch consecutive addresses. A fixed 32 × 32 tile would leave 29 of 32
// rows empty for 3 channels, and three quarters of it for 16 × 16.
// (cuda/kernels/transpose_plan.h chooses the shape; tests/cpp/test_transpose_tile.cpp
// runs every thread of every shape on the host.)
//
// Note [Transpose tile padding]
// Element (b, r, c) of the tile lives in shared slot (b × TR + r) × pitch
// + c in both phases, pitch = TC + pad. In the store phase of the 32 × 32
// tile a warp reads slots pitch apart; with pitch = 32 they would all sit
// in one of the 32 four-byte banks (a 32-way conflict). Padding each row
// by one bank word (kPad: one element when elements are 4 bytes or wider)
// spreads a column over all banks. A narrower tile's store phase reads
// TR rows of 32 / TR consecutive elements; when a tile row spans all banks
// (TC × itemsize >= 128 bytes), a pad of 32 / TR elements puts those runs
// side by side in the banks instead (capped at TC / 2, so that a tile fits
// kSharedElements). Both phases of the 32 × 32 tile then take the fewest
// shared-memory wavefronts their bytes need, and every other shape at most
// twice as many (tests/cpp/test_transpose_tile.cpp counts them for every
// shape and element size).
//
// The mapping is host/device code so that the tests can run every
// (tile, thread, step) on the host and check that each element is copied
// exactly once, to the right place.
#pragma once

#include <cstdint>

#include "core/macros.h"

namespace st {
namespace cuda {

constexpr int kTransposeThreads = 256;  // a block (one dimension)
constexpr int kTileLogElements = 10;
constexpr int kTileElements = 1 << kTileLogElements;
constexpr int kTransposeSteps = kTileElements / kTransposeThreads;  // elements per thread in each phase
constexpr int kTileLogLarge = 5;  // 32 × 32 for matrices large both ways
constexpr int kTileMinSide = 2;   // the narrowest side a tile has (extents of 1 are no transpose)

// The tile of one copy, as log2 of its sides (Note [Transpose tiles for
// small extents]): log_batches + log_rows + log_cols == kTileLogElements.
struct TransposeTileShape {
  uint32_t log_batches;
  uint32_t log_rows;
  uint32_t log_cols;
};

template <int kItemSize>
struct TransposeTile {
  static_assert(kItemSize == 1 || kItemSize == 2 || kItemSize == 4 || kItemSize == 8 || kItemSize == 16,
                "element sizes of stride's dtypes");
  static constexpr int kPad = kItemSize < 4 ? 4 / kItemSize : 1;  // Note [Transpose tile padding]
  // The most padding a tile has: kPad on each of its most rows (TB × TR,
  // when TC is kTileMinSide), or at most TC / 2 on each of 1024 / TC rows.
  static constexpr int kSharedElements = kTileElements + kTileElements / kTileMinSide * kPad;
  static_assert(kTileElements / kTileMinSide * kPad >= kTileElements / 2, "the wide tiles' padding fits");
};

// Shared slots from one tile row to the next (Note [Transpose tile padding]).
template <int kItemSize>
ST_HOST_DEVICE ST_FORCE_INLINE int tile_pitch(const TransposeTileShape& s) {
  constexpr int kPad = TransposeTile<kItemSize>::kPad;
  const int rows = 1 << s.log_rows, cols = 1 << s.log_cols;
  if (cols * kItemSize < 128) return cols + kPad;
  const int side_by_side = 32 / (rows < 32 ? rows : 32);
  const int pad = side_by_side < cols / 2 ? side_by_side : cols / 2;
  return cols + (pad > kPad ? pad : kPad);
}

// One element a thread moves in one step of one phase.
template <typename IndexType>
struct TileElement {
  IndexType batch;  // which matrix
  IndexType row;    // in the matrix
  IndexType col;
  int shared;       // slot in the shared tile
  bool inside;      // batch < batches, row < rows and col < cols; threads outside skip the step
};

// Which tile of the batch of matrices, and the matrices' extents.
template <typename IndexType>
struct TileAt {
  TransposeTileShape shape;
  IndexType batch_tile;
  IndexType row_tile;
  IndexType col_tile;
  IndexType batches;
  IndexType rows;
  IndexType cols;
};

// Tiles along an extent of n elements, 2^log_side per tile.
template <typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE IndexType tiles_along(IndexType n, uint32_t log_side) {
  return (n >> log_side) + ((n & ((IndexType{1} << log_side) - 1)) != 0 ? 1 : 0);
}

// Element (b, r, c) of tile `at`. rows, cols and batches stay below the
// index type's maximum minus a tile side (32-bit indexing keeps them under 2^31).
template <int kItemSize, typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE TileElement<IndexType> tile_element(const TileAt<IndexType>& at, int b, int r, int c) {
  const TransposeTileShape& s = at.shape;
  TileElement<IndexType> e;
  e.batch = (at.batch_tile << s.log_batches) + static_cast<IndexType>(b);
  e.row = (at.row_tile << s.log_rows) + static_cast<IndexType>(r);
  e.col = (at.col_tile << s.log_cols) + static_cast<IndexType>(c);
  e.shared = ((b << s.log_rows) + r) * tile_pitch<kItemSize>(s) + c;
  e.inside = e.batch < at.batches && e.row < at.rows && e.col < at.cols;
  return e;
}

// Load phase, step `step` in [0, kTransposeSteps) of thread `thread` in
// [0, kTransposeThreads): reads src(batch, row, col) into `shared`.
template <int kItemSize, typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE TileElement<IndexType> transpose_load(const TileAt<IndexType>& at, int thread,
                                                                     int step) {
  const TransposeTileShape& s = at.shape;
  const int l = thread + step * kTransposeThreads;
  const int c = l & ((1 << s.log_cols) - 1);
  const int r = (l >> s.log_cols) & ((1 << s.log_rows) - 1);
  return tile_element<kItemSize>(at, l >> (s.log_cols + s.log_rows), r, c);
}

// Store phase: writes dst(batch, row, col) from `shared`.
template <int kItemSize, typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE TileElement<IndexType> transpose_store(const TileAt<IndexType>& at, int thread,
                                                                      int step) {
  const TransposeTileShape& s = at.shape;
  const int l = thread + step * kTransposeThreads;
  const int r = l & ((1 << s.log_rows) - 1);
  const int c = (l >> s.log_rows) & ((1 << s.log_cols) - 1);
  return tile_element<kItemSize>(at, l >> (s.log_cols + s.log_rows), r, c);
}

// The matrix of thread `thread`'s element in step `step`, the same in both
// phases: b is the top bits of l.
template <typename IndexType>
ST_HOST_DEVICE ST_FORCE_INLINE IndexType transpose_batch(const TransposeTileShape& s, IndexType batch_tile, int thread,
                                                        int step) {
  const int l = thread + step * kTransposeThreads;
  return (batch_tile << s.log_batches) + static_cast<IndexType>(l >> (s.log_cols + s.log_rows));
}

}  // namespace cuda
}  // namespace st
