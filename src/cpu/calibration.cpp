#include "cpu/calibration.h"

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
  return best;
}

int calibrate(int candidates, int rounds, FunctionRef<int64_t(int sample, int candidate)> run) {
  if (candidates < 1 || candidates > kMaxCandidates || rounds < 1) return -1;
  if (run(0, 0) == 0) return -1;
  double best[kMaxCandidates];
  for (int c = 0; c < candidates; ++c) best[c] = -1;
  int sample = 1;
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < candidates; ++k, ++sample) {
      const int c = (r + k) % candidates;
      const int64_t t0 = monotonic_ns();
      const int64_t bytes = run(sample, c);
      const int64_t ns = monotonic_ns() - t0;
      if (bytes == 0) return -1;
      const double per_byte = static_cast<double>(ns) / static_cast<double>(bytes);
      if (best[c] < 0 || per_byte < best[c]) best[c] = per_byte;
    }
  }
  return fastest(best, candidates);
}

bool may_calibrate() { return t_no_calibration == 0; }

NoCalibration::NoCalibration() { ++t_no_calibration; }
NoCalibration::~NoCalibration() { --t_no_calibration; }

}  // namespace cpu
}  // namespace st
