// The clock the library times itself with: the trace callback's durations
// (dispatch/tracing.h) and a copy plan's thread-count measurement
// (cpu/copy_plan.cpp). Monotonic, so a change of the wall clock never gives
// a negative duration.
#pragma once

#include <chrono>
#include <cstdint>

namespace st {

// Nanoseconds since an arbitrary fixed point: only differences mean anything.
inline int64_t monotonic_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace st
