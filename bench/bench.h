// The stride-bench program. Each case is one file that registers itself:
//
//   BENCH_CASE(dispatch, "one operator call through the dispatcher") {
//     table.add("no-op operator", bench::min_ns_per_call(...), "ns/call");
//   }
//
// main() runs every case, or those named on the command line, and prints
// one table. Keep each case short: the machine is shared.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

struct Row {
  std::string case_name;
  std::string measurement;
  double value;
  std::string unit;
};

class Table {
 public:
  explicit Table(std::string case_name) : case_name_(std::move(case_name)) {}
  void add(const std::string& measurement, double value, const std::string& unit) {
    rows_.push_back(Row{case_name_, measurement, value, unit});
  }
  const std::vector<Row>& rows() const { return rows_; }

 private:
  std::string case_name_;
  std::vector<Row> rows_;
};

using CaseFn = void (*)(Table& table);

struct Case {
  const char* name;
  const char* summary;
  CaseFn run;
};

// Every registered case, in registration order.
std::vector<Case>& cases();

struct CaseRegistration {
  CaseRegistration(const char* name, const char* summary, CaseFn run) { cases().push_back(Case{name, summary, run}); }
};

inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Runs `body` (which makes `calls_per_run` calls) `runs` times and returns
// the fewest nanoseconds per call: the cost without the machine's noise.
template <typename Body>
double min_ns_per_call(int64_t calls_per_run, int runs, Body&& body) {
  double best = 0;
  for (int r = 0; r < runs; ++r) {
    const int64_t t0 = now_ns();
    body();
    const double ns = static_cast<double>(now_ns() - t0) / static_cast<double>(calls_per_run);
    if (r == 0 || ns < best) best = ns;
  }
  return best;
}

}  // namespace bench

#define BENCH_CASE(name, summary)                                                    \
  static void bench_case_##name(::bench::Table& table);                              \
  static const ::bench::CaseRegistration bench_registration_##name(#name, summary, \
                                                                   &bench_case_##name); \
  static void bench_case_##name(::bench::Table& table)
