#include "cpu/calibration.h"

#include <algorithm>

#include "core/runtime/clock.h"

namespace st {
namespace cpu {
namespace {

constexpr int kMaxCandidates = 8;
thread_local int t_no_calibration = 0;

}  // namespace

int fastest(const double* ns_per_byte, int n) {
  int best = 0;
  for (int c = 1; c < n; ++c) {
    if (ns_per_byte[c] < ns_per_byte[best]) best = c;
  }
  return ns_per_byte[best] < ns_per_byte[0] * (1 - kCalibrationMargin) ? best : 0;
}

int calibrate(int candidates, int rounds, FunctionRef<int64_t(int sample, int candidate)> run) {
  return calibrate(candidates, rounds, run, [] { return monotonic_ns(); });
}

int calibrate(int candidates, int rounds, FunctionRef<int64_t(int sample, int candidate)> run,
              FunctionRef<int64_t()> clock) {
  constexpr int kMaxRounds = 16;
  if (candidates < 1 || candidates > kMaxCandidates || rounds < 1 || rounds > kMaxRounds) return -1;
  if (run(0, 0) == 0) return -1;
  double times[kMaxCandidates][kMaxRounds];
  int sample = 1;
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < candidates; ++k, ++sample) {
      const int c = (r + k) % candidates;
      const int64_t t0 = clock();
      const int64_t bytes = run(sample, c);
      const int64_t ns = clock() - t0;
      if (bytes == 0) return -1;
      times[c][r] = static_cast<double>(ns) / static_cast<double>(bytes);
    }
  }
  double median[kMaxCandidates];
  for (int c = 0; c < candidates; ++c) {
    std::sort(times[c], times[c] + rounds);
    median[c] = rounds % 2 ? times[c][rounds / 2] : (times[c][rounds / 2 - 1] + times[c][rounds / 2]) / 2;
  }
  return fastest(median, candidates);
}

bool may_calibrate() { return t_no_calibration == 0; }

NoCalibration::NoCalibration() { ++t_no_calibration; }
NoCalibration::~NoCalibration() { --t_no_calibration; }

}  // namespace cpu
}  // namespace st
