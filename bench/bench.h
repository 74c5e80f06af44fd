// The stride-bench program. Each case registers itself; a file holds one
// group of cases:
//
//   BENCH_CASE(dispatch, "one operator call through the dispatcher") {
//     table.add_call("no-op operator", 0, bench::ns_per_call(...));
//   }
//
// main() runs every case (or those --filter selects) in name order and
// prints two tables (report.h): bandwidth rows (copies of many bytes, see
// copy_case.h) and per-call rows (nanoseconds per call); their CSV goes to
// the file --csv names. Keep each case short: the machine is shared.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/runtime/clock.h"
#include "stride.h"

namespace bench {

// Where a bandwidth case's destination and the baselines' buffers live
// (--pages): huge is the library's own allocation, 2 MiB-aligned and
// advised MADV_HUGEPAGE from 4 MiB up; small is 4 KiB pages, advised
// MADV_NOHUGEPAGE so that transparent huge pages set to "always" do not
// turn them into huge ones.
enum class Pages { Huge, Small };

// "huge" or "4k", as --pages spells them.
inline const char* pages_name(Pages p) { return p == Pages::Huge ? "huge" : "4k"; }

// What the command line asked for.
struct Options {
  bool quick = false;              // tiny sizes and few repetitions: a smoke test
  std::vector<int> thread_counts;  // every case runs at each of these
  std::vector<Pages> pages{Pages::Huge};  // every bandwidth case runs with each of these
  int reps = 0;                    // timed repetitions per measurement; 0 = chosen by run time
};

// One bandwidth measurement: a copy of `bytes_moved` bytes (numel × (source
// itemsize + destination itemsize)) in one mode, with the baselines and the
// case's operands alone timed in the same rounds. Times are medians in
// milliseconds; a baseline that does not apply to the mode is NaN.
struct BandwidthRow {
  std::string case_name;
  std::string mode;  // "prealloc", "plan", "alloc", "read" or "write"
  int threads = 1;
  Pages pages = Pages::Huge;
  int reps = 0;
  int64_t bytes_moved = 0;
  double ms = 0;
  double memcpy_ms = 0;
  double nt_ms = 0;
  double read_ms = 0;            // the case's source only read (the read row's time)
  double write_ms = 0;           // the case's destination only written (the write row's time)
  double hugepage_alloc_ms = 0;  // 2 MiB-aligned, MADV_HUGEPAGE mapping + memcpy + unmap
  double malloc_ms = 0;          // malloc + memcpy + free
};

// The best copy of the row's bytes: the faster of memcpy and the
// streaming-store copy.
inline double best_copy_ms(const BandwidthRow& r) { return std::min(r.memcpy_ms, r.nt_ms); }

// Note [The roofline]
// A copy cannot be faster than the best copy of the same traffic, than
// reading its source alone, or than writing its destination alone (Note
// [Each operand alone] in access_limits.h), all three measured in the same
// rounds as the copy. The slowest of the three is the case's roofline:
// x roof = roofline time / row time, 1.00 at the roofline.
inline double roofline_ms(const BandwidthRow& r) { return std::max({best_copy_ms(r), r.read_ms, r.write_ms}); }

// Which of the three bounds is the roofline: "copy", "read" or "write".
inline const char* roofline_bound(const BandwidthRow& r) {
  const double roof = roofline_ms(r);
  return roof == r.read_ms ? "read" : roof == r.write_ms ? "write" : "copy";
}

// Nanoseconds per call: the median and the fastest of several batches.
struct CallTime {
  double median_ns = 0;
  double fastest_ns = 0;
};

// One per-call measurement.
struct CallRow {
  std::string case_name;
  std::string measurement;
  int threads = 0;  // 0: the thread count does not apply
  CallTime time;
};

class Table {
 public:
  explicit Table(std::string case_name) : case_name_(std::move(case_name)) {}
  const std::string& case_name() const { return case_name_; }
  void add_call(const std::string& measurement, int threads, CallTime time) {
    calls_.push_back(CallRow{case_name_, measurement, threads, time});
  }
  void add_bandwidth(const BandwidthRow& row) { bandwidth_.push_back(row); }
  const std::vector<CallRow>& calls() const { return calls_; }
  const std::vector<BandwidthRow>& bandwidth() const { return bandwidth_; }

 private:
  std::string case_name_;
  std::vector<CallRow> calls_;
  std::vector<BandwidthRow> bandwidth_;
};

using CaseFn = void (*)(Table& table, const Options& options);

struct Case {
  const char* name;
  // What the case copies, without sizes: --quick changes them, and the
  // case's labels and progress lines give the sizes that run.
  const char* summary;
  CaseFn run;
};

// Every registered case, in registration order.
std::vector<Case>& cases();

struct CaseRegistration {
  CaseRegistration(const char* name, const char* summary, CaseFn run) { cases().push_back(Case{name, summary, run}); }
};

// Stops the program with the library's message when a call fails: a
// benchmark of failing calls would measure nothing.
void check(st_status status, const char* what);

// Prints a message to stderr and stops the program.
[[noreturn]] void die(const char* format, ...) __attribute__((format(printf, 1, 2)));

// The library's own monotonic clock (core/runtime/clock.h).
inline int64_t now_ns() { return st::monotonic_ns(); }

// The middle value (the mean of the two middle ones for an even count).
double median(std::vector<double> values);

// Runs `body` (which makes `calls_per_batch` calls) once untimed, then
// `batches` times, and returns the median and the fastest nanoseconds per
// call over the batches (on a loaded machine the fastest shows the cost
// without other work's interruptions).
template <typename Body>
CallTime ns_per_call(int64_t calls_per_batch, int batches, Body&& body) {
  body();
  std::vector<double> ns;
  for (int b = 0; b < batches; ++b) {
    const int64_t t0 = now_ns();
    body();
    ns.push_back(static_cast<double>(now_ns() - t0) / static_cast<double>(calls_per_batch));
  }
  CallTime t;
  t.median_ns = median(ns);
  t.fastest_ns = ns.empty() ? 0 : *std::min_element(ns.begin(), ns.end());
  return t;
}

}  // namespace bench

#define BENCH_CASE(name, summary)                                                                       \
  static void bench_case_##name(::bench::Table& table, const ::bench::Options& options);                \
  static const ::bench::CaseRegistration bench_registration_##name(#name, summary, &bench_case_##name); \
  static void bench_case_##name(::bench::Table& table, const ::bench::Options& options)
