// How long copies write with streaming stores, chosen once per process from
// the CPU (Note [Streaming on each vendor] in stream_tuning.cpp); the
// environment overrides are in docs/tuning.md. Plain data and plain
// functions only: the per-level kernel files read it.
#pragma once

#include <cstdint>

#include "cpu/cpu_isa.h"

namespace st {
namespace cpu {

struct StreamTuning {
  // Outputs of at least this many bytes stream past the caches; smaller
  // ones stay in them for whoever reads them next.
  int64_t threshold_bytes;
  // 4 KiB pages of output written side by side, a line of each in turn
  // (stream_pages.h): 1 writes in order; 2 or 4.
  int pages;
};

// The choice for a CPU of `vendor`, where the environment's
// ST_STREAM_THRESHOLD_BYTES / ST_STREAM_PAGES (either may be NULL) override
// a part when they hold a valid value (a byte count >= 0; 1, 2 or 4).
StreamTuning choose_stream_tuning(CpuVendor vendor, const char* threshold_env, const char* pages_env);

// This process's choice: choose_stream_tuning for this CPU and environment,
// made at the first call.
StreamTuning stream_tuning();
int64_t stream_threshold_bytes();
int stream_pages();

// For tests and stride-bench's comparisons: replace the choice (a value
// outside the ranges above is clamped into them).
void set_stream_tuning(const StreamTuning& tuning);

}  // namespace cpu
}  // namespace st
