#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>

#include "cells.h"

namespace bench {
namespace {

// A line of the bandwidth table: a row of `rows`, and in the compact table
// the plan row of the same case, thread count and pages (null when none).
struct Line {
  const BandwidthRow& row;
  const BandwidthRow* plan;
};

// One column of the bandwidth table after the case: its two header lines,
// its width (negative: left-aligned), its line in the definitions, its
// value and its group (the wide table draws a bar between groups).
struct Column {
  const char* head;
  const char* unit;
  int width;
  const char* definition;
  std::function<std::string(const Line&)> value;
  int group;
};

std::string x_of(double baseline_ms, double ms) { return fixed(baseline_ms / ms, 2); }

Column threads_column() {
  return {"thr", "", 3, "threads (st_set_num_threads)",
          [](const Line& l) { return std::to_string(l.row.threads); }, 0};
}

Column pages_column() {
  return {"pages", "", -5, "the pages of the destination and of the best copy's destination (pages above)",
          [](const Line& l) { return std::string(pages_name(l.row.pages)); }, 0};
}

Column gbps_column() {
  return {"GB/s", "", 7, "bytes moved / ms (GB = 10^9 bytes)",
          [](const Line& l) { return fixed(gbps(l.row.bytes_moved, l.row.ms), 2); }, 0};
}

// One row per case and thread count: st_copy against its roofline, the
// plan beside it.
std::vector<Column> compact_columns() {
  return {
      threads_column(),
      pages_column(),
      {"ms", "st_copy", 9, "st_copy into an existing contiguous destination (written before): the median time",
       [](const Line& l) { return fixed(l.row.ms, 3); }, 0},
      gbps_column(),
      {"x roof", "", 6, "roofline time / ms (1.00 = at the roofline, the best a copy can do)",
       [](const Line& l) { return x_of(roofline_ms(l.row), l.row.ms); }, 0},
      {"plan", "x roof", 6, "the x roof of st_copy_plan_execute_raw (an ST_PLAN_MEASURE plan) into the same "
                            "destination",
       [](const Line& l) { return l.plan ? x_of(roofline_ms(*l.plan), l.plan->ms) : std::string("-"); }, 0},
      {"bound", "", -5, "which bound is the roofline: copy (the best copy), read or write",
       [](const Line& l) { return std::string(roofline_bound(l.row)); }, 0},
  };
}

// A row per mode, with every baseline.
std::vector<Column> wide_columns() {
  return {
      {"mode", "", -8, "one of the five modes above", [](const Line& l) { return l.row.mode; }, 0},
      threads_column(),
      pages_column(),
      {"MB", "", 8, "bytes moved / 10^6",
       [](const Line& l) { return fixed(static_cast<double>(l.row.bytes_moved) / 1e6, 1); }, 0},
      {"ms", "median", 9, "the median time of the timed rounds", [](const Line& l) { return fixed(l.row.ms, 3); },
       0},
      gbps_column(),
      {"memcpy", "GB/s", 8, "bytes moved / memcpy's time",
       [](const Line& l) { return fixed(gbps(l.row.bytes_moved, l.row.memcpy_ms), 2); }, 1},
      {"NT", "GB/s", 8, "bytes moved / the streaming copy's time",
       [](const Line& l) { return fixed(gbps(l.row.bytes_moved, l.row.nt_ms), 2); }, 1},
      {"x memcpy", "", 8, "memcpy time / row time (1.00 = as fast as memcpy)",
       [](const Line& l) { return x_of(l.row.memcpy_ms, l.row.ms); }, 2},
      {"x NT", "", 6, "streaming copy time / row time", [](const Line& l) { return x_of(l.row.nt_ms, l.row.ms); }, 2},
      {"x best", "", 6, "best copy time / row time (1.00 = as fast as the best copy)",
       [](const Line& l) { return x_of(best_copy_ms(l.row), l.row.ms); }, 2},
      {"roof", "GB/s", 8, "bytes moved / roofline time",
       [](const Line& l) { return fixed(gbps(l.row.bytes_moved, roofline_ms(l.row)), 2); }, 3},
      {"x roof", "", 6, "roofline time / row time (1.00 = at the roofline)",
       [](const Line& l) { return x_of(roofline_ms(l.row), l.row.ms); }, 3},
      {"bound", "", -5, "which bound is the roofline: copy (the best copy), read or write",
       [](const Line& l) { return std::string(roofline_bound(l.row)); }, 3},
      {"hp-alloc", "GB/s", 8, "alloc's baseline: mmap 2 MiB-aligned + madvise(MADV_HUGEPAGE), memcpy into it, munmap",
       [](const Line& l) { return fixed(gbps(l.row.bytes_moved, l.row.hugepage_alloc_ms), 2); }, 4},
      {"x hp", "", 6, "hp-alloc time / row time", [](const Line& l) { return x_of(l.row.hugepage_alloc_ms, l.row.ms); },
       4},
      {"malloc", "GB/s", 8, "malloc + memcpy + free (for information)",
       [](const Line& l) { return fixed(gbps(l.row.bytes_moved, l.row.malloc_ms), 2); }, 5},
      {"x malloc", "", 8, "malloc time / row time", [](const Line& l) { return x_of(l.row.malloc_ms, l.row.ms); }, 5},
      {"reps", "", 4,
       "timed rounds; a round runs every baseline and every mode once, each on its own, after one untimed "
       "warm-up round",
       [](const Line& l) { return std::to_string(l.row.reps); }, 6},
  };
}

// The columns `format` prints, in order: the pages column only when the
// run has several kinds of page.
std::vector<Column> columns_of(const ReportFormat& format) {
  std::vector<Column> chosen;
  for (const Column& c : format.wide ? wide_columns() : compact_columns()) {
    if (std::string(c.head) == "pages" && format.pages.size() < 2) continue;
    chosen.push_back(c);
  }
  return chosen;
}

// The width of a line of the columns, without the case: one space before
// each, two before the first, a bar and a space before each new group.
int columns_width(const std::vector<Column>& columns, bool bars) {
  int width = 1;
  for (size_t i = 0; i < columns.size(); ++i) {
    width += 1 + std::abs(columns[i].width);
    if (bars && i > 0 && columns[i].group != columns[i - 1].group) width += 2;
  }
  return width;
}

// The compact table's case column: what is left of kColumns.
size_t compact_case_width(const ReportFormat& format) {
  return static_cast<size_t>(kColumns - columns_width(columns_of(format), false));
}

void print_line(std::FILE* out, const std::string& head, const std::vector<Column>& columns, bool bars,
                const std::function<std::string(const Column&)>& cell) {
  std::string line = head + " ";
  for (size_t i = 0; i < columns.size(); ++i) {
    if (bars && i > 0 && columns[i].group != columns[i - 1].group) line += " |";
    line += " " + padded(fit_cell(cell(columns[i]), static_cast<size_t>(std::abs(columns[i].width))),
                         columns[i].width);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::fprintf(out, "%s\n", line.c_str());
}

bool same_measurement(const BandwidthRow& a, const BandwidthRow& b) {
  return a.case_name == b.case_name && a.threads == b.threads && a.pages == b.pages;
}

// The row of `mode` measured with `r` (same case, thread count and pages), or null.
const BandwidthRow* row_of_mode(const std::vector<BandwidthRow>& rows, const BandwidthRow& r, const char* mode) {
  for (const BandwidthRow& other : rows) {
    if (other.mode == mode && same_measurement(other, r)) return &other;
  }
  return nullptr;
}

// x roof cut (not rounded) to two decimals: a figure below the goal never reads as the goal.
std::string cut_to_hundredths(double x) { return fixed(std::floor(x * 100) / 100, 2); }

}  // namespace

void print_items(const std::string& head, const std::vector<std::string>& items, const std::string& separator,
                 std::FILE* out) {
  const std::string line_end = separator.substr(0, separator.find_last_not_of(' ') + 1);
  std::string line = head;
  bool first = true;
  for (const std::string& item : items) {
    if (item.empty()) continue;
    // Room for the item and, should the next one not fit, the line's end.
    if (!first && line.size() + separator.size() + item.size() + line_end.size() > static_cast<size_t>(kColumns)) {
      std::fprintf(out, "%s%s\n", line.c_str(), line_end.c_str());
      line = std::string(head.size(), ' ') + item;
    } else {
      line += (first ? "" : separator) + item;
    }
    first = false;
  }
  std::fprintf(out, "%s\n", line.c_str());
}

void print_wrapped(const std::string& head, const std::string& text, std::FILE* out) {
  std::vector<std::string> words;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find(' ', at);
    if (end == std::string::npos) end = text.size();
    words.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  print_items(head, words, " ", out);
}

void print_definitions(const ReportFormat& format, std::FILE* out) {
  auto define = [out](const char* term, const std::string& text) {
    char head[32];
    std::snprintf(head, sizeof head, "  %-14s", term);
    print_wrapped(head, text, out);
  };
  const bool small = std::find(format.pages.begin(), format.pages.end(), Pages::Small) != format.pages.end();
  std::fprintf(out, "\nDefinitions (bandwidth table%s):\n",
               format.wide ? ": a row per mode" : ": a row per case and thread count; --wide shows every mode");
  define("bytes moved",
         "numel x (source itemsize + destination itemsize): read + written, each element counted once (G's "
         "skipped half and H's re-read row are not counted)");
  if (format.wide) {
    define("prealloc", "st_copy into an existing contiguous destination, written before");
    define("plan", "st_copy_plan_execute_raw of an ST_PLAN_MEASURE plan made at that thread count, into the "
                   "same destination");
    define("alloc", std::string("st_clone / st_contiguous / st_to returning a new tensor, + st_tensor_release "
                                "(allocation, page faults and free included)") +
                        (small ? "; on huge pages only: the library allocates the tensor" : ""));
    define("read, write", "no copy: the source view only read, the destination only written (the faster of "
                          "plain and streaming stores), each in its own memory order");
  }
  define("best copy", "the faster of memcpy and the streaming-store copy (NT copy above) of bytes moved / 2 bytes "
                      "between two buffers written before (so it too reads + writes bytes moved), split over the "
                      "same threads, timed in the same rounds as the case");
  define("roofline", "the slowest of three lower bounds on the copy's time, all from the same rounds: the best "
                     "copy, reading the source alone and writing the destination alone");
  const std::vector<Column> columns = columns_of(format);
  define("case", format.wide ? std::string("the case and its sizes")
                             : "the case and its sizes (--list describes each); a label longer than " +
                                   std::to_string(compact_case_width(format)) + " characters loses its sizes");
  for (const Column& c : columns) define(c.head, c.definition);
  std::fprintf(out, "  Every copy timed is first checked against its source at 257 sampled elements.\n");
  print_wrapped("", "Per-call table: nanoseconds per call, median and fastest of several batches of calls (one "
                    "untimed batch first); K goes through the C API, releases included.",
                out);
  std::fflush(out);
}

void print_bandwidth_table(const std::vector<BandwidthRow>& rows, const ReportFormat& format, std::FILE* out) {
  if (rows.empty()) return;
  const std::vector<Column> columns = columns_of(format);
  std::vector<Line> lines;
  for (const BandwidthRow& r : rows) {
    if (format.wide) {
      lines.push_back(Line{r, nullptr});
    } else if (r.mode == "prealloc") {
      lines.push_back(Line{r, row_of_mode(rows, r, "plan")});
    }
  }
  size_t width = 4;
  for (const Line& l : lines) width = std::max(width, l.row.case_name.size());
  if (!format.wide) width = std::min(width, compact_case_width(format));
  const int w = static_cast<int>(width);
  const bool bars = format.wide;
  std::fprintf(out, "\n");
  print_line(out, padded("case", -w), columns, bars, [](const Column& c) { return std::string(c.head); });
  print_line(out, std::string(width, ' '), columns, bars, [](const Column& c) { return std::string(c.unit); });
  std::string last_case;
  for (const Line& l : lines) {
    // The wide table's cases are blocks of ten rows or more: a blank line between them.
    if (format.wide && !last_case.empty() && l.row.case_name != last_case) std::fprintf(out, "\n");
    last_case = l.row.case_name;
    print_line(out, padded(fit_label(l.row.case_name, width), -w), columns, bars,
               [&l](const Column& c) { return c.value(l); });
  }
}

void print_call_table(const std::vector<CallRow>& rows, std::FILE* out) {
  if (rows.empty()) return;
  size_t cw = 4, mw = 22;
  for (const CallRow& r : rows) {
    cw = std::max(cw, r.case_name.size());
    mw = std::max(mw, r.measurement.size());
  }
  const int c = static_cast<int>(cw), m = static_cast<int>(mw);
  std::fprintf(out, "\n%-*s  %-*s  %3s  %10s  %10s\n", c, "case", m, "measurement (per call)", "thr", "median ns",
               "fastest ns");
  for (const CallRow& r : rows) {
    std::fprintf(out, "%-*s  %-*s  %3s  %10.1f  %10.1f\n", c, r.case_name.c_str(), m, r.measurement.c_str(),
                 r.threads ? std::to_string(r.threads).c_str() : "-", r.time.median_ns, r.time.fastest_ns);
  }
}

void print_summary(const std::vector<BandwidthRow>& rows, const Options& options, std::FILE* out) {
  if (rows.empty()) return;
  std::fprintf(out, "\n");
  print_wrapped("", "Summary: the cases whose st_copy and plan both reach " + fixed(kRooflineGoal, 2) +
                        " of the roofline; the lowest of the rest:",
                out);
  for (Pages pages : options.pages) {
    for (int threads : options.thread_counts) {
      std::string head = "  " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
      if (options.pages.size() > 1) head += std::string(", ") + pages_name(pages) + " pages";
      // Each case's lower x roof of its prealloc and plan rows, in the rows' order.
      std::vector<std::pair<std::string, double>> cases;
      for (const BandwidthRow& r : rows) {
        if (r.pages != pages || r.threads != threads || (r.mode != "prealloc" && r.mode != "plan")) continue;
        const double x_roof = roofline_ms(r) / r.ms;
        if (!cases.empty() && cases.back().first == r.case_name) {
          cases.back().second = std::min(cases.back().second, x_roof);
        } else {
          cases.emplace_back(r.case_name, x_roof);
        }
      }
      std::vector<std::pair<std::string, double>> below;
      for (const auto& c : cases) {
        if (!(c.second >= kRooflineGoal)) below.push_back(c);
      }
      std::stable_sort(below.begin(), below.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
      std::string text = std::to_string(cases.size() - below.size()) + " of " + std::to_string(cases.size()) +
                         " cases";
      if (below.empty()) {
        text += ", none below";
      } else {
        text += "; lowest:";
        for (size_t i = 0; i < below.size() && i < kSummaryLowest; ++i)
          text += std::string(i ? ", " : " ") + case_id(below[i].first) + " " + cut_to_hundredths(below[i].second);
      }
      print_wrapped(head + ": ", text, out);
    }
  }
}

namespace {

const std::vector<std::string>& csv_header() {
  static const std::vector<std::string> header = {
      "kind",     "case",        "mode",     "threads",     "pages",          "reps",
      "bytes_moved", "median_ms", "gbps",     "memcpy_ms",   "nt_ms",          "x_memcpy",
      "x_nt",     "x_best",      "read_ms",  "write_ms",    "roofline_ms",    "x_roof",
      "roofline_bound", "hugepage_alloc_ms", "x_hugepage_alloc", "malloc_ms", "x_malloc",
      "median_ns_per_call", "fastest_ns_per_call"};
  return header;
}

void csv_line(std::FILE* out, const std::vector<std::string>& fields) {
  if (fields.size() != csv_header().size()) die("CSV: %zu fields for %zu columns", fields.size(), csv_header().size());
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
  std::fprintf(out, "%s\n", line.c_str());
}

}  // namespace

void write_csv(const std::string& path, const std::vector<BandwidthRow>& bandwidth, const std::vector<CallRow>& calls) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) die("cannot write %s", path.c_str());
  csv_line(out, csv_header());
  for (const BandwidthRow& r : bandwidth) {
    const double roof = roofline_ms(r);
    csv_line(out, {"bandwidth", r.case_name, r.mode, std::to_string(r.threads), pages_name(r.pages),
                   std::to_string(r.reps), std::to_string(r.bytes_moved), csv_number(r.ms),
                   csv_number(gbps(r.bytes_moved, r.ms)), csv_number(r.memcpy_ms), csv_number(r.nt_ms),
                   csv_number(r.memcpy_ms / r.ms), csv_number(r.nt_ms / r.ms), csv_number(best_copy_ms(r) / r.ms),
                   csv_number(r.read_ms), csv_number(r.write_ms), csv_number(roof), csv_number(roof / r.ms),
                   roofline_bound(r), csv_number(r.hugepage_alloc_ms), csv_number(r.hugepage_alloc_ms / r.ms),
                   csv_number(r.malloc_ms), csv_number(r.malloc_ms / r.ms), "", ""});
  }
  for (const CallRow& r : calls) {
    std::vector<std::string> fields(csv_header().size());
    fields[0] = "call";
    fields[1] = r.case_name;
    fields[2] = r.measurement;
    fields[3] = r.threads ? std::to_string(r.threads) : "";
    fields[fields.size() - 2] = csv_number(r.time.median_ns);
    fields[fields.size() - 1] = csv_number(r.time.fastest_ns);
    csv_line(out, fields);
  }
  if (std::fclose(out) != 0) die("cannot write %s", path.c_str());
}

}  // namespace bench
