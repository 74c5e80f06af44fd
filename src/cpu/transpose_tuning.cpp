#include "cpu/transpose_tuning.h"

#include <mutex>

#include "core/runtime/environment.h"
#include "cpu/levels/copy_kernel_table.h"

namespace st {
namespace cpu {
namespace {

bool is_block_bytes(int64_t v) {
  return v >= kMinTransposeBlockBytes && v <= kMaxTransposeBlockBytes && (v & (v - 1)) == 0;
}

int64_t block_bytes_in_range(int64_t v) {
  int64_t b = kMinTransposeBlockBytes;
  while (b * 2 <= v && b < kMaxTransposeBlockBytes) b *= 2;
  return b;
}

int64_t prefetch_in_range(int64_t v) { return v < 0 ? 0 : v > kMaxTransposePrefetchBytes ? kMaxTransposePrefetchBytes : v; }

// The environment's parts, read once (Note [Reading the environment]).
struct FromEnvironment {
  bool any = false;
  TransposeTuning tuning = kTransposeCandidate[0];
  FromEnvironment() {
    const char* kBlock = "a power of two from 64 to 65536";
    int64_t v = 0;
    if (env::read_count("ST_TRANSPOSE_DST_BYTES", 0, kMaxTransposeBlockBytes, kBlock, &v, is_block_bytes)) {
      tuning.dst_bytes = v;
      any = true;
    }
    if (env::read_count("ST_TRANSPOSE_SRC_BYTES", 0, kMaxTransposeBlockBytes, kBlock, &v, is_block_bytes)) {
      tuning.src_bytes = v;
      any = true;
    }
    if (env::read_count("ST_TRANSPOSE_PREFETCH_BYTES", 0, kMaxTransposePrefetchBytes, "a byte count from 0 to 65536",
                        &v)) {
      tuning.prefetch_bytes = v;
      any = true;
    }
  }
};

const FromEnvironment& from_environment() {
  static const FromEnvironment e;
  return e;
}

bool same(const TransposeShape& a, const TransposeShape& b) {
  return a.itemsize == b.itemsize && a.rows == b.rows && a.cols == b.cols && a.batch == b.batch &&
         a.src_row == b.src_row && a.dst_col == b.dst_col && a.items == b.items;
}

// The winners by shape: a small table, the oldest entry replaced when full
// (a process meets few shapes of copies this large).
constexpr int kShapes = 32;
struct Winners {
  std::mutex mutex;
  TransposeShape shapes[kShapes] = {};
  int candidate[kShapes] = {};
  int count = 0, next = 0;
  int latest = -1;  // the most recent winner, -1: none yet
  bool forced = false;
  TransposeTuning forced_tuning = kTransposeCandidate[0];
};

Winners& winners() {
  static Winners* w = new Winners();  // never destroyed: copies may run until exit
  return *w;
}

}  // namespace

TransposeTuning streamed_transpose_tuning(const TransposeShape& shape, bool* calibrate) {
  *calibrate = false;
  const FromEnvironment& e = from_environment();
  if (e.any) return e.tuning;
  Winners& w = winners();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (w.forced) return w.forced_tuning;
  for (int i = 0; i < w.count; ++i) {
    if (same(w.shapes[i], shape)) return kTransposeCandidate[w.candidate[i]];
  }
  *calibrate = true;
  return kTransposeCandidate[w.latest < 0 ? 0 : w.latest];
}

void record_transpose_winner(const TransposeShape& shape, int candidate) {
  if (candidate < 0 || candidate >= kTransposeCandidates) return;
  Winners& w = winners();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.latest = candidate;
  for (int i = 0; i < w.count; ++i) {
    if (same(w.shapes[i], shape)) {
      w.candidate[i] = candidate;
      return;
    }
  }
  const int slot = w.count < kShapes ? w.count++ : w.next;
  w.next = (slot + 1) % kShapes;
  w.shapes[slot] = shape;
  w.candidate[slot] = candidate;
}

TransposeTuning cached_transpose_tuning() {
  const FromEnvironment& e = from_environment();
  if (e.any) return {e.tuning.dst_bytes, e.tuning.src_bytes, 0};
  return {kCachedBlockDstBytes, kCachedBlockSrcBytes, 0};
}

void force_transpose_tuning(const TransposeTuning& tuning) {
  Winners& w = winners();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.forced = true;
  w.forced_tuning = {block_bytes_in_range(tuning.dst_bytes), block_bytes_in_range(tuning.src_bytes),
                     prefetch_in_range(tuning.prefetch_bytes)};
}

void clear_forced_transpose_tuning() {
  Winners& w = winners();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.forced = false;
}

void forget_transpose_winners() {
  Winners& w = winners();
  std::lock_guard<std::mutex> lock(w.mutex);
  w.count = w.next = 0;
  w.latest = -1;
}

std::string transpose_tuning_report() {
  auto text = [](const TransposeTuning& t) {
    return std::to_string(t.dst_bytes) + " B of each dst row x " + std::to_string(t.src_bytes) +
           " B of each src row, prefetch " + std::to_string(t.prefetch_bytes) + " B";
  };
  const FromEnvironment& e = from_environment();
  if (e.any) return "transpose blocks: " + text(e.tuning) + " (from the environment)\n";
  Winners& w = winners();
  std::lock_guard<std::mutex> lock(w.mutex);
  if (w.forced) return "transpose blocks: " + text(w.forced_tuning) + " (set by a test)\n";
  if (w.latest < 0) return "transpose blocks: " + text(kTransposeCandidate[0]) + " (no transpose calibrated yet)\n";
  return "transpose blocks: " + std::to_string(w.count) + " shape(s) calibrated; most recent winner " +
         text(kTransposeCandidate[w.latest]) + "\n";
}

}  // namespace cpu
}  // namespace st
