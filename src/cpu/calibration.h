// Choosing between a few candidate settings by timing them on samples of
// the copy being made (Note [Tuning from the machine]).
#pragma once

#include <cstdint>

#include "core/runtime/function_ref.h"

namespace st {
namespace cpu {

// Note [Tuning from the machine]
// What the memory system of a CPU wants of a long copy (how many bytes of
// each destination row a transpose writes at a time, how long a run of each
// source row it reads, how far ahead it prefetches, in what order streamed
// lines go) differs from one CPU to the next by as much as a factor of two,
// and in ways no vendor or model name, cache size or line size predicts:
// the same blocks that reach 0.9 of memcpy on one CPU reach 0.5 on another
// (docs/tuning.md, "Why"). Virtual machines also report cache sizes that
// are not the hardware's. So stride measures: the first time a copy large
// enough to be worth it meets a choice, it times each candidate setting on
// a few distinct samples of that copy's own work (fresh data each time, so
// that every sample comes from memory as the rest of the copy will),
// interleaved in rounds that start from a different candidate each time,
// on the calling thread. The candidate with the least time per byte in its
// best round wins and is kept for the process. The samples are then done
// again as part of the copy (from the caches: cheap), so the result is the
// copy's, whichever candidate ran where. The candidates are the settings
// measured best on the CPUs stride has met, so that on a CPU nobody here
// has measured the worst outcome is the best of those, and the measurement
// picks it from the machine itself.
//
// A calibration costs its samples (a few MB of extra traffic, once) and is
// never made while a copy plan executes (st_copy_plan_execute_raw promises
// a time that does not jump), nor when the environment sets the part
// (docs/tuning.md lists the ST_* variables), nor for copies too small to
// sample; those take the most recent winner, or the first candidate.

// Times `candidates` settings on 1 + rounds * candidates distinct samples,
// on the calling thread: run(sample, candidate) does sample `sample` with
// the candidate's setting and returns the bytes it moved, or 0 when the
// work has no such sample. Sample 0 warms up, untimed, with candidate 0.
// Returns the winner (fastest()) or -1 when the work ran out of samples.
int calibrate(int candidates, int rounds, FunctionRef<int64_t(int sample, int candidate)> run);

// The index of the least of n times per byte (the first of equals).
int fastest(const double* ns_per_byte, int n);

// Whether the calling thread may calibrate: not while a NoCalibration is
// alive on it.
bool may_calibrate();

// Forbids calibrating on this thread for its lifetime (a copy plan's run).
class NoCalibration {
 public:
  NoCalibration();
  ~NoCalibration();
  NoCalibration(const NoCalibration&) = delete;
  NoCalibration& operator=(const NoCalibration&) = delete;
};

}  // namespace cpu
}  // namespace st
