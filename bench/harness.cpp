// The helpers every case and report shares (bench.h): stopping with a
// message, checking a library call, the median of a measurement's rounds.
#include "bench.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace bench {

void die(const char* format, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "stride-bench: ");
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, "\n");
  std::exit(1);
}

void check(st_status status, const char* what) {
  if (status != ST_OK) die("%s failed: %s (%s)", what, st_status_name(status), st_last_error_message());
}

double median(std::vector<double> values) {
  if (values.empty()) return NAN;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace bench
