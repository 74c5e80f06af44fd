// How long copies write with streaming stores, and in what order (Note
// [Streaming stores] in stream_tuning.cpp); the environment's overrides are
// in docs/tuning.md. The per-level kernel files read their part through
// cpu/levels/stream_settings.h; how transposes block is
// cpu/transpose_tuning.h's.
#pragma once

#include <cstdint>
#include <string>

#include "cpu/levels/stream_settings.h"

namespace st {
namespace cpu {

struct StreamTuning {
  // Outputs of at least this many bytes stream past the caches; smaller
  // ones stay in them for whoever reads them next.
  int64_t threshold_bytes;
  // 4 KiB pages of output written side by side, a line of each in turn
  // (stream_pages.h): 1 writes in order; 2 or 4.
  int pages;
  // How far ahead of the line it converts a streamed row that does not
  // widen prefetches its source (to L2), in bytes; 0 prefetches nothing.
  // A row that prefetches writes in order, whatever `pages` says.
  int64_t prefetch_bytes;
};

// The overrides the environment may hold (any may be NULL).
struct StreamTuningEnv {
  const char* threshold_bytes;  // ST_STREAM_THRESHOLD_BYTES: a byte count
  const char* pages;            // ST_STREAM_PAGES: 1, 2 or 4
  const char* prefetch_bytes;   // ST_STREAM_PREFETCH_BYTES: 0 to kMaxStreamPrefetchBytes
};
constexpr int64_t kMaxStreamPrefetchBytes = 64 * 1024;

// What every CPU starts with, before any measurement: streaming from 16 MiB
// (docs/tuning.md, "Why"), in order, without prefetching.
constexpr StreamTuning kDefaultStreamTuning = {int64_t{16} << 20, 1, 0};

// kDefaultStreamTuning with each valid override in place (an invalid one is
// ignored, and noted for st_runtime_settings()).
StreamTuning choose_stream_tuning(const StreamTuningEnv& env);

// This process's choice: choose_stream_tuning for its environment, made at
// the first call.
StreamTuning stream_tuning();
int64_t stream_threshold_bytes();

// For tests and stride-bench's comparisons: replace the choice (a value
// outside the ranges above is clamped into them).
void set_stream_tuning(const StreamTuning& tuning);

// Lines for st_runtime_settings().
std::string stream_tuning_report();

}  // namespace cpu
}  // namespace st
