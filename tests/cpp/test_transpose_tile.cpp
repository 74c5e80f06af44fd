// The tile mapping of the shared-memory transpose kernel, run on the host:
// every (tile, thread, step) of both phases, as a GPU would run them, for
// every tile shape (Note [Transpose tiles for small extents]).
// Every element must be copied exactly once, to its place, through a shared
// slot loaded in the same tile; warps must touch consecutive addresses; and
// shared memory must take the fewest wavefronts (Note [Transpose tile padding]).
#include <cstdint>
#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include "cuda/kernels/transpose_tile.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st::cuda;

namespace {

constexpr int kWarp = 32;

// Every tile shape a plan can give (Note [Transpose tiles for small extents]).
std::vector<TransposeTileShape> all_shapes() {
  std::vector<TransposeTileShape> shapes;
  for (uint32_t lr = 1; lr < kTileLogElements; ++lr)
    for (uint32_t lc = 1; lr + lc <= kTileLogElements; ++lc) shapes.push_back({kTileLogElements - lr - lc, lr, lc});
  return shapes;
}

// Copies `batches` rows × cols matrices from src (row-major, leading dim
// cols + 3, matrices apart by rows × (cols + 3) + 5) to dst (column-major,
// leading dim rows + 1) with the kernel's mapping in tiles of `shape`.
template <int kItemSize>
bool copy_covers_every_element(TransposeTileShape shape, uint32_t batches, uint32_t rows, uint32_t cols) {
  const uint64_t ld_src = cols + 3, ld_dst = rows + 1;
  const uint64_t src_matrix = rows * ld_src + 5, dst_matrix = cols * ld_dst;
  std::vector<int64_t> src(batches * src_matrix, -1), dst(batches * dst_matrix, -1);
  std::vector<int> writes(static_cast<size_t>(batches) * rows * cols, 0);
  const auto index = [&](uint64_t b, uint64_t r, uint64_t c) { return static_cast<int64_t>((b * rows + r) * cols + c); };
  for (uint64_t b = 0; b < batches; ++b)
    for (uint64_t r = 0; r < rows; ++r)
      for (uint64_t c = 0; c < cols; ++c) src[b * src_matrix + r * ld_src + c] = index(b, r, c);

  char what[96];
  std::snprintf(what, sizeof what, "tile %u/%u/%u, %u x %ux%u, %d-byte", 1u << shape.log_batches, 1u << shape.log_rows,
                1u << shape.log_cols, batches, rows, cols, kItemSize);
  const uint32_t batch_tiles = tiles_along(batches, shape.log_batches);
  const uint32_t row_tiles = tiles_along(rows, shape.log_rows), col_tiles = tiles_along(cols, shape.log_cols);
  for (uint32_t bt = 0; bt < batch_tiles; ++bt) {
    for (uint32_t rt = 0; rt < row_tiles; ++rt) {
      for (uint32_t ct = 0; ct < col_tiles; ++ct) {
        const TileAt<uint32_t> at{shape, bt, rt, ct, batches, rows, cols};
        std::vector<int64_t> shared(TransposeTile<kItemSize>::kSharedElements, -1);
        // A slot the phase may use: inside the array, and unused (load) or loaded (store).
        const auto slot_ok = [&](const TileElement<uint32_t>& e, int t, int step, bool load) {
          const int n = TransposeTile<kItemSize>::kSharedElements;
          if (e.batch == transpose_batch(shape, bt, t, step) && e.shared >= 0 && e.shared < n &&
              (shared[static_cast<size_t>(e.shared)] == -1) == load)
            return true;
          print_error("%s: %s of (%u, %u, %u) by thread %d step %d, slot %d: outside, %s, or another matrix than "
                      "transpose_batch's\n",
                      what, load ? "load" : "store", e.batch, e.row, e.col, t, step, e.shared,
                      load ? "loaded twice" : "never loaded");
          return false;
        };
        for (int t = 0; t < kTransposeThreads; ++t)
          for (int step = 0; step < kTransposeSteps; ++step) {
            const auto e = transpose_load<kItemSize>(at, t, step);
            if (!e.inside) continue;
            if (!slot_ok(e, t, step, true)) return false;
            shared[static_cast<size_t>(e.shared)] = src[e.batch * src_matrix + e.row * ld_src + e.col];
          }
        // __syncthreads()
        for (int t = 0; t < kTransposeThreads; ++t)
          for (int step = 0; step < kTransposeSteps; ++step) {
            const auto e = transpose_store<kItemSize>(at, t, step);
            if (!e.inside) continue;
            if (!slot_ok(e, t, step, false)) return false;
            dst[e.batch * dst_matrix + e.col * ld_dst + e.row] = shared[static_cast<size_t>(e.shared)];
            ++writes[static_cast<size_t>(index(e.batch, e.row, e.col))];
          }
      }
    }
  }
  for (uint64_t b = 0; b < batches; ++b) {
    for (uint64_t r = 0; r < rows; ++r) {
      for (uint64_t c = 0; c < cols; ++c) {
        const int64_t want = index(b, r, c);
        const int64_t got = dst[b * dst_matrix + c * ld_dst + r];
        if (writes[static_cast<size_t>(want)] != 1 || got != want) {
          print_error("%s: element (%llu, %llu, %llu) written %d times, holds %lld, expected %lld\n", what,
                      static_cast<unsigned long long>(b), static_cast<unsigned long long>(r),
                      static_cast<unsigned long long>(c), writes[static_cast<size_t>(want)], static_cast<long long>(got),
                      static_cast<long long>(want));
          return false;
        }
      }
    }
  }
  return true;
}

// Each shape over matrices that fill its tiles exactly, leave partial
// tiles on every side, and (random) anything in between.
template <int kItemSize>
bool every_shape_covers_every_element(std::mt19937_64& rng) {
  for (const TransposeTileShape& s : all_shapes()) {
    const uint32_t tb = 1u << s.log_batches, tr = 1u << s.log_rows, tc = 1u << s.log_cols;
    const uint32_t sizes[][3] = {{tb, tr, tc},
                                 {tb + 1, tr + 1, tc + 1},
                                 {1, tr > 1 ? tr - 1 : 1, tc > 1 ? tc - 1 : 1},
                                 {1 + static_cast<uint32_t>(rng() % (2 * tb)), 1 + static_cast<uint32_t>(rng() % (3 * tr)),
                                  1 + static_cast<uint32_t>(rng() % (3 * tc))}};
    for (const auto& z : sizes)
      if (!copy_covers_every_element<kItemSize>(s, z[0], z[1], z[2])) return false;
  }
  return true;
}

void every_element_copied_once(void**) {
  std::mt19937_64 rng(test_seed("every_element_copied_once"));
  assert_true(every_shape_covers_every_element<1>(rng));
  assert_true(every_shape_covers_every_element<2>(rng));
  assert_true(every_shape_covers_every_element<4>(rng));
  assert_true(every_shape_covers_every_element<8>(rng));
  assert_true(every_shape_covers_every_element<16>(rng));
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

// In a full tile of any shape, each warp's 32 threads take 32 consecutive
// elements in src order (batch, row, col; col fastest) when they load, and
// in dst order (batch, col, row; row fastest) when they store, so both
// sides touch consecutive addresses where the matrices are dense; and each
// shared access takes the fewest wavefronts its 32 × itemsize bytes need,
// exactly so in the 32 × 32 tile and at most twice that in the others.
template <int kItemSize>
bool warps_are_coalesced_and_conflict_free() {
  const int fewest = (kWarp * kItemSize + 127) / 128;
  for (const TransposeTileShape& s : all_shapes()) {
    const uint32_t tb = 1u << s.log_batches, tr = 1u << s.log_rows, tc = 1u << s.log_cols;
    const TileAt<uint32_t> at{s, 1, 1, 1, 3 * tb, 3 * tr, 3 * tc};  // an interior tile
    const bool large = s.log_rows == kTileLogLarge && s.log_cols == kTileLogLarge;
    for (int warp = 0; warp < kTransposeThreads / kWarp; ++warp) {
      for (int step = 0; step < kTransposeSteps; ++step) {
        for (int phase = 0; phase < 2; ++phase) {
          std::vector<int> slots;
          uint64_t first = 0;
          for (int lane = 0; lane < kWarp; ++lane) {
            const int t = warp * kWarp + lane;
            const auto e = phase == 0 ? transpose_load<kItemSize>(at, t, step) : transpose_store<kItemSize>(at, t, step);
            const uint64_t in_tile = phase == 0 ? (uint64_t{e.batch % tb} * tr + e.row % tr) * tc + e.col % tc
                                                : (uint64_t{e.batch % tb} * tc + e.col % tc) * tr + e.row % tr;
            if (lane == 0) first = in_tile;
            if (!e.inside || in_tile != first + static_cast<uint64_t>(lane)) {
              print_error("tile %u/%u/%u, %d-byte, %s, warp %d step %d: lane %d at (%u, %u, %u) breaks the warp's run\n",
                          tb, tr, tc, kItemSize, phase == 0 ? "load" : "store", warp, step, lane, e.batch, e.row,
                          e.col);
              return false;
            }
            slots.push_back(e.shared);
          }
          const int w = wavefronts<kItemSize>(slots);
          if (large ? w != fewest : w > 2 * fewest) {
            print_error("tile %u/%u/%u, %d-byte, %s, warp %d step %d: %d shared-memory wavefronts, %d would do\n", tb,
                        tr, tc, kItemSize, phase == 0 ? "load" : "store", warp, step, w, fewest);
            return false;
          }
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

// Without the padding the store phase of the 32 × 32 tile would be a
// 32-way conflict; the test above would catch a padding that does not help.
void unpadded_tile_would_conflict(void**) {
  std::vector<int> column;
  for (int r = 0; r < kWarp; ++r) column.push_back(r * 32);
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
