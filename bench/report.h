// What stride-bench prints on stdout after the machine: the definitions of
// the bandwidth table, the bandwidth table (compact, or every column with
// --wide), the per-call table and the cases below their roofline; and the
// CSV it writes to the file --csv names. Every line of the default output
// fits in kColumns columns.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench.h"

namespace bench {

constexpr int kColumns = 100;

// A prealloc or plan row below this fraction of its roofline is named
// under the tables.
constexpr double kRooflineGoal = 0.90;

struct ReportFormat {
  bool wide = false;         // every column (--wide), not the compact table
  std::vector<Pages> pages;  // as --pages asked; a pages column when several
};

// Prints `head` then `text` to `out`, wrapped at spaces so that no line
// passes kColumns (unless one word does); the following lines are indented
// by the head's width.
void print_wrapped(const std::string& head, const std::string& text, std::FILE* out = stdout);

// The same for `items` joined by `separator`: lines break only between
// items, after the separator's text without its trailing spaces.
void print_items(const std::string& head, const std::vector<std::string>& items, const std::string& separator,
                 std::FILE* out = stdout);

// The definitions of the bandwidth table `format` prints, and of the
// per-call table.
void print_definitions(const ReportFormat& format);

void print_bandwidth_table(const std::vector<BandwidthRow>& rows, const ReportFormat& format);

void print_call_table(const std::vector<CallRow>& rows);

// Names, for each page kind and thread count of `options`, every case whose
// prealloc or plan row is below kRooflineGoal of its roofline.
void print_below_roofline(const std::vector<BandwidthRow>& rows, const Options& options);

// Writes the rows as CSV to `path`; stops the program when it cannot.
void write_csv(const std::string& path, const std::vector<BandwidthRow>& bandwidth, const std::vector<CallRow>& calls);

}  // namespace bench
