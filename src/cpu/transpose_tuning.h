// How a transpose blocks its work (Note [Transpose blocking] in
// cpu/levels/transpose_blocked.h): chosen per shape of streamed transpose
// by timing a few candidates on the first copy of that shape (Note [Tuning
// from the machine] in cpu/calibration.h), unless the environment sets it.
#pragma once

#include <cstdint>
#include <string>

namespace st {
namespace cpu {

struct TransposeTuning {
  int64_t dst_bytes;       // a block's span of each dst row (a power of two, 64 to 65536)
  int64_t src_bytes;       // a block's span of each src row (the same range)
  int64_t prefetch_bytes;  // how far ahead of the tiles src is prefetched (to L2; 0: not at all; at most 65536)
};

// The candidates, the settings measured best on the CPUs stride has met
// (docs/tuning.md, "Why"); the first is the one a shape gets before any
// calibration.
constexpr int kTransposeCandidates = 3;
constexpr TransposeTuning kTransposeCandidate[kTransposeCandidates] = {
    {128, 1024, 16 * 1024},  // blocks as tall as a dst row pair, src runs of 1 KiB, prefetched
    {512, 1024, 16 * 1024},  // 512 bytes of each dst row at a time: few dst rows open at once
    {128, 4096, 0},          // a page of each src row, left to the hardware prefetcher
};
constexpr int64_t kMinTransposeBlockBytes = 64;
constexpr int64_t kMaxTransposeBlockBytes = 64 * 1024;
constexpr int64_t kMaxTransposePrefetchBytes = 64 * 1024;

// A streamed transpose's shape: what its best blocking depends on.
struct TransposeShape {
  int64_t itemsize, rows, cols, batch, src_row, dst_col, items;
};

// The tuning of a streamed transpose of `shape`: the environment's when it
// sets any part (ST_TRANSPOSE_DST_BYTES, ST_TRANSPOSE_SRC_BYTES,
// ST_TRANSPOSE_PREFETCH_BYTES; the others as the first candidate), else the
// winner recorded for the shape, else the most recent winner of any shape
// (the first candidate before any). *calibrate is set when the shape has no
// winner yet and the environment sets nothing: then the caller may
// calibrate and record_transpose_winner.
TransposeTuning streamed_transpose_tuning(const TransposeShape& shape, bool* calibrate);
void record_transpose_winner(const TransposeShape& shape, int candidate);

// A transpose within the caches (not streamed): the environment's blocks,
// else kCachedBlockDstBytes by kCachedBlockSrcBytes; never prefetched.
TransposeTuning cached_transpose_tuning();

// For tests and stride-bench: every streamed transpose uses `tuning` (each
// part rounded into range) and none calibrates, until clear_forced_transpose_tuning;
// forget_transpose_winners drops what calibrations recorded.
void force_transpose_tuning(const TransposeTuning& tuning);
void clear_forced_transpose_tuning();
void forget_transpose_winners();

// Lines for st_runtime_settings(): the environment's parts or how many shapes
// have been calibrated and the most recent winner.
std::string transpose_tuning_report();

}  // namespace cpu
}  // namespace st
