// What stride-bench prints on stdout after the machine: the definitions of
// the bandwidth table, the bandwidth table (by default one row per case and
// thread count: st_copy's time, GB/s, x roof, the plan's x roof and the
// bound; with --wide a row per mode, with every baseline's columns), the
// per-call table and a closing summary against the roofline; and the CSV
// it writes to the file --csv names. Every line of the default output fits
// in kColumns columns.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench.h"

namespace bench {

constexpr int kColumns = 100;

// The goal: every prealloc and plan row at this fraction of its roofline
// or above. The closing summary counts the cases that meet it.
constexpr double kRooflineGoal = 0.90;

// How many of the cases furthest below the goal the summary names, per
// thread count (the table and the CSV have every figure).
constexpr size_t kSummaryLowest = 3;

struct ReportFormat {
  bool wide = false;         // a row per mode with every column (--wide), not one row per case
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
void print_definitions(const ReportFormat& format, std::FILE* out = stdout);

// The compact table has a row for each prealloc row of `rows` (one per
// case, thread count and page kind), with the x roof of the plan row of
// the same case, thread count and pages beside it; the wide one a row for
// each row.
void print_bandwidth_table(const std::vector<BandwidthRow>& rows, const ReportFormat& format,
                           std::FILE* out = stdout);

void print_call_table(const std::vector<CallRow>& rows, std::FILE* out = stdout);

// The closing summary: a line saying what it counts, then for each page
// kind and thread count of `options` one line: how many cases have their
// prealloc and plan rows at kRooflineGoal of the roofline or above, and the
// kSummaryLowest cases furthest below it with the lower of their two x roof
// figures, cut (not rounded) to two decimals so that a case below never
// reads 0.90.
void print_summary(const std::vector<BandwidthRow>& rows, const Options& options, std::FILE* out = stdout);

// Writes the rows as CSV to `path`; stops the program when it cannot.
void write_csv(const std::string& path, const std::vector<BandwidthRow>& bandwidth, const std::vector<CallRow>& calls);

}  // namespace bench
