// The tile mapping of the shared-memory transpose kernel, run on the host:
// every (tile, thread, step) of both phases, as a GPU would run them.
// Every element must be copied exactly once, to its place, through a shared
// slot loaded in the same tile; warps must touch consecutive addresses; and
// shared memory must take the fewest wavefronts (Note [Transpose tile padding]).
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "cuda/transpose_tile.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::cuda::transpose_load;
using st::cuda::transpose_store;
using st::cuda::transpose_tiles;
using st::cuda::TransposeTile;

namespace {

constexpr int kWarp = 32;

// Copies a rows × cols matrix from src (row-major, leading dim cols + 3) to
// dst (column-major, leading dim rows + 1) with the kernel's mapping.
template <int kItemSize>
bool copy_covers_every_element(uint32_t rows, uint32_t cols) {
  using Tile = TransposeTile<kItemSize>;
  const uint64_t ld_src = cols + 3, ld_dst = rows + 1;
  std::vector<int64_t> src(rows * ld_src, -1), dst(cols * ld_dst, -1);
  std::vector<int> writes(static_cast<size_t>(rows) * cols, 0);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < cols; ++c) src[r * ld_src + c] = static_cast<int64_t>(r * cols + c);

  const uint32_t tile_rows = transpose_tiles<kItemSize>(rows), tile_cols = transpose_tiles<kItemSize>(cols);
  for (uint32_t tr = 0; tr < tile_rows; ++tr) {
    for (uint32_t tc = 0; tc < tile_cols; ++tc) {
      std::vector<int64_t> shared(Tile::kSharedElements, -1);
      for (int ty = 0; ty < Tile::kBlockRows; ++ty)
        for (int tx = 0; tx < Tile::kTile; ++tx)
          for (int step = 0; step < Tile::kSteps; ++step) {
            const auto e = transpose_load<kItemSize>(tr, tc, tx, ty, step, rows, cols);
            if (!e.inside) continue;
            if (e.shared < 0 || e.shared >= Tile::kSharedElements || shared[e.shared] != -1) {
              print_error("%ux%u, %d-byte: load of (%u, %u) into slot %d, outside or loaded twice\n", rows, cols,
                          kItemSize, e.row, e.col, e.shared);
              return false;
            }
            shared[e.shared] = src[e.row * ld_src + e.col];
          }
      // __syncthreads()
      for (int ty = 0; ty < Tile::kBlockRows; ++ty)
        for (int tx = 0; tx < Tile::kTile; ++tx)
          for (int step = 0; step < Tile::kSteps; ++step) {
            const auto e = transpose_store<kItemSize>(tr, tc, tx, ty, step, rows, cols);
            if (!e.inside) continue;
            if (e.shared < 0 || e.shared >= Tile::kSharedElements || shared[e.shared] == -1) {
              print_error("%ux%u, %d-byte: store of (%u, %u) from slot %d, which this tile never loaded\n", rows,
                          cols, kItemSize, e.row, e.col, e.shared);
              return false;
            }
            dst[e.col * ld_dst + e.row] = shared[e.shared];
            ++writes[static_cast<size_t>(e.row) * cols + e.col];
          }
    }
  }
  for (uint64_t r = 0; r < rows; ++r) {
    for (uint64_t c = 0; c < cols; ++c) {
      const int64_t want = static_cast<int64_t>(r * cols + c);
      if (writes[r * cols + c] != 1 || dst[c * ld_dst + r] != want) {
        print_error("%ux%u, %d-byte: element (%llu, %llu) written %d times, holds %lld, expected %lld\n", rows, cols,
                    kItemSize, static_cast<unsigned long long>(r), static_cast<unsigned long long>(c),
                    writes[r * cols + c], static_cast<long long>(dst[c * ld_dst + r]), static_cast<long long>(want));
        return false;
      }
    }
  }
  return true;
}

template <int kItemSize>
bool copy_covers_all_shapes(const std::vector<std::pair<uint32_t, uint32_t>>& shapes) {
  for (const auto& s : shapes)
    if (!copy_covers_every_element<kItemSize>(s.first, s.second)) return false;
  return true;
}

void every_element_copied_once(void**) {
  std::vector<std::pair<uint32_t, uint32_t>> shapes = {
      {1, 1}, {1, 100}, {100, 1}, {31, 33}, {32, 32}, {33, 31}, {64, 64}, {65, 97}, {97, 65}, {128, 3}, {3, 128}};
  std::mt19937_64 rng(test_seed("every_element_copied_once"));
  for (int i = 0; i < 20; ++i) shapes.push_back({1 + static_cast<uint32_t>(rng() % 300), 1 + static_cast<uint32_t>(rng() % 300)});
  assert_true(copy_covers_all_shapes<1>(shapes));
  assert_true(copy_covers_all_shapes<2>(shapes));
  assert_true(copy_covers_all_shapes<4>(shapes));
  assert_true(copy_covers_all_shapes<8>(shapes));
  assert_true(copy_covers_all_shapes<16>(shapes));
}

// Shared-memory wavefronts one warp access takes: the most distinct 4-byte
// words any of the 32 banks must serve (threads reading one word share it).
template <int kItemSize>
int wavefronts(const std::vector<int>& slots) {
  std::vector<std::set<int64_t>> banks(32);
  for (int slot : slots) {
    const int64_t first = int64_t{slot} * kItemSize / 4, last = (int64_t{slot} * kItemSize + kItemSize - 1) / 4;
    for (int64_t w = first; w <= last; ++w) banks[static_cast<size_t>(w % 32)].insert(w);
  }
  size_t most = 0;
  for (const auto& b : banks) most = std::max(most, b.size());
  return static_cast<int>(most);
}

// In a full tile, each warp (32 threads of one ty) reads 32 consecutive
// src elements, writes 32 consecutive dst elements, and both of its shared
// accesses take the fewest wavefronts their 32 × itemsize bytes need.
template <int kItemSize>
bool warps_are_coalesced_and_conflict_free() {
  using Tile = TransposeTile<kItemSize>;
  const int fewest = (kWarp * kItemSize + 127) / 128;
  const uint32_t rows = 96, cols = 64, tr = 1, tc = 1;
  for (int ty = 0; ty < Tile::kBlockRows; ++ty) {
    for (int step = 0; step < Tile::kSteps; ++step) {
      for (int phase = 0; phase < 2; ++phase) {
        std::vector<int> slots;
        for (int tx = 0; tx < kWarp; ++tx) {
          const auto e = phase == 0 ? transpose_load<kItemSize>(tr, tc, tx, ty, step, rows, cols)
                                    : transpose_store<kItemSize>(tr, tc, tx, ty, step, rows, cols);
          const auto e0 = phase == 0 ? transpose_load<kItemSize>(tr, tc, 0, ty, step, rows, cols)
                                     : transpose_store<kItemSize>(tr, tc, 0, ty, step, rows, cols);
          // load: one src row, consecutive cols; store: one dst column, consecutive rows
          const bool consecutive = phase == 0 ? (e.row == e0.row && e.col == e0.col + static_cast<uint32_t>(tx))
                                              : (e.col == e0.col && e.row == e0.row + static_cast<uint32_t>(tx));
          if (!e.inside || !consecutive) {
            print_error("%d-byte, %s, ty %d step %d: thread %d at (%u, %u) breaks the warp's run\n", kItemSize,
                        phase == 0 ? "load" : "store", ty, step, tx, e.row, e.col);
            return false;
          }
          slots.push_back(e.shared);
        }
        const int w = wavefronts<kItemSize>(slots);
        if (w != fewest) {
          print_error("%d-byte, %s, ty %d step %d: %d shared-memory wavefronts, %d would do\n", kItemSize,
                      phase == 0 ? "load" : "store", ty, step, w, fewest);
          return false;
        }
      }
    }
  }
  return true;
}

void warps_coalesce_without_bank_conflicts(void**) {
  assert_true(warps_are_coalesced_and_conflict_free<1>());
  assert_true(warps_are_coalesced_and_conflict_free<2>());
  assert_true(warps_are_coalesced_and_conflict_free<4>());
  assert_true(warps_are_coalesced_and_conflict_free<8>());
  assert_true(warps_are_coalesced_and_conflict_free<16>());
}

// Without the padding the store phase would be a 32-way conflict; the test
// above would catch a padding that does not help.
void unpadded_tile_would_conflict(void**) {
  std::vector<int> column;
  for (int r = 0; r < kWarp; ++r) column.push_back(r * TransposeTile<4>::kTile);
  assert_int_equal(wavefronts<4>(column), 32);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_element_copied_once),
      cmocka_unit_test(warps_coalesce_without_bank_conflicts),
      cmocka_unit_test(unpadded_tile_would_conflict),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
