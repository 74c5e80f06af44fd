// How long copies write with streaming stores, chosen once per process from
// the CPU (Note [Streaming on each vendor] in stream_tuning.cpp); the
// environment overrides are in docs/tuning.md. The per-level kernel files
// read their part through cpu/levels/stream_settings.h.
#pragma once

#include <cstdint>

#include "cpu/cpu_isa.h"
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
  // A transpose's blocks span this many bytes of each src row (a power of
  // two, kMinTransposeSrcBytes to kMaxTransposeSrcBytes), and a streamed
  // one prefetches its src this many bytes ahead (to L2; 0: not at all).
  int64_t transpose_src_bytes;
  int64_t transpose_prefetch_bytes;
};

// The overrides the environment may hold (any may be NULL).
struct StreamTuningEnv {
  const char* threshold_bytes;  // ST_STREAM_THRESHOLD_BYTES: a byte count >= 0
  const char* pages;            // ST_STREAM_PAGES: 1, 2 or 4
  const char* prefetch_bytes;   // ST_STREAM_PREFETCH_BYTES: 0 to kMaxStreamPrefetchBytes
  const char* transpose_src_bytes;       // ST_TRANSPOSE_SRC_BYTES
  const char* transpose_prefetch_bytes;  // ST_TRANSPOSE_PREFETCH_BYTES: 0 to kMaxStreamPrefetchBytes
};
constexpr int64_t kMaxStreamPrefetchBytes = 64 * 1024;
constexpr int64_t kMinTransposeSrcBytes = 64;
constexpr int64_t kMaxTransposeSrcBytes = 64 * 1024;

// The choice for a CPU of `vendor`, where each valid override replaces its
// part (an invalid one is ignored).
StreamTuning choose_stream_tuning(CpuVendor vendor, const StreamTuningEnv& env);

// This process's choice: choose_stream_tuning for this CPU and environment,
// made at the first call.
StreamTuning stream_tuning();
int64_t stream_threshold_bytes();
int64_t transpose_src_bytes();
int64_t transpose_prefetch_bytes();

// For tests and stride-bench's comparisons: replace the choice (a value
// outside the ranges above is clamped into them).
void set_stream_tuning(const StreamTuning& tuning);

}  // namespace cpu
}  // namespace st
