// The CPU bench's report, given made-up rows: cases in natural order, the
// compact table's one row per case and thread count with the plan's x roof
// beside st_copy's, and the closing summary's counts and lowest cases,
// each figure worked out here by hand.
#include <cmath>
#include <string>
#include <vector>

#include "bench.h"
#include "cells.h"
#include "printed_text.h"
#include "report.h"

using bench::BandwidthRow;

namespace {

void natural_order_compares_numbers_as_numbers(void**) {
  assert_true(bench::natural_less("I2_f32_to_bf16", "I10_f32_to_e5m2"));
  assert_false(bench::natural_less("I10_f32_to_e5m2", "I2_f32_to_bf16"));
  assert_true(bench::natural_less("I1 f32->f16", "I10 f32->e5m2"));
  assert_true(bench::natural_less("I9_u64", "I10_f32"));
  assert_true(bench::natural_less("H_row_broadcast", "I1_f32_to_f16"));
  assert_true(bench::natural_less("I30_i64_to_i32", "J_u8_nhwc_to_f32_nchw"));
  assert_true(bench::natural_less("S1", "S1_normalize"));  // a prefix first
  assert_false(bench::natural_less("S1_normalize", "S1"));
  assert_false(bench::natural_less("D_transpose", "D_transpose"));
  assert_true(bench::natural_less("K_tiny_4x4", "dispatch"));  // as strcmp between letters
  assert_false(bench::natural_less("I007", "I7"));            // leading zeros: the same number
  assert_false(bench::natural_less("I7", "I007"));
}

// A row of `mode` whose roofline is `roof_ms` (the best copy; reading and
// writing faster), copied in `ms`: x roof = roof_ms / ms.
BandwidthRow row(const char* name, const char* mode, int threads, double roof_ms, double ms) {
  BandwidthRow r;
  r.case_name = name;
  r.mode = mode;
  r.threads = threads;
  r.reps = 3;
  r.bytes_moved = 1000 * 1000 * 1000;  // 1 GB: GB/s = 1000 / ms
  r.ms = ms;
  r.memcpy_ms = roof_ms;
  r.nt_ms = roof_ms * 1.5;
  r.read_ms = roof_ms / 2;
  r.write_ms = roof_ms / 4;
  r.hugepage_alloc_ms = NAN;
  r.malloc_ms = NAN;
  return r;
}

// Each case at 1 and 2 threads, every mode of the CSV.
std::vector<BandwidthRow> made_up_rows() {
  std::vector<BandwidthRow> rows;
  auto add = [&rows](const char* name, int threads, double x_copy, double x_plan) {
    rows.push_back(row(name, "prealloc", threads, 10, 10 / x_copy));
    rows.push_back(row(name, "plan", threads, 10, 10 / x_plan));
    rows.push_back(row(name, "read", threads, 10, 5));
    rows.push_back(row(name, "write", threads, 10, 2.5));
    rows.push_back(row(name, "alloc", threads, 10, 20));
  };
  add("A clone 64M", 1, 1.0, 0.95);
  add("A clone 64M", 2, 0.9, 0.89);  // the plan below: the case counts as below, at 0.89
  add("D transpose (8192,8192)", 1, 0.5, 0.6);
  add("D transpose (8192,8192)", 2, 0.7, 0.8);
  add("I2 f32->bf16 64M", 1, 0.899, 0.95);  // 0.899 is cut to 0.89, never shown as 0.90
  add("I2 f32->bf16 64M", 2, 1.2, 1.1);
  add("I10 f32->e5m2 64M", 1, 0.25, 0.3);
  add("I10 f32->e5m2 64M", 2, 0.95, 0.91);
  add("J u8 NHWC->f32 NCHW (64,224,224,3)", 1, 0.93, 0.92);
  add("J u8 NHWC->f32 NCHW (64,224,224,3)", 2, 0.92, 0.93);
  return rows;
}

bench::Options one_and_two_threads() {
  bench::Options options;
  options.thread_counts = {1, 2};
  return options;
}

void compact_table_has_a_row_per_case_and_thread_count(void**) {
  const std::vector<BandwidthRow> rows = made_up_rows();
  const bench::ReportFormat format{false, {bench::Pages::Huge}};
  const std::string text = printed([&](std::FILE* f) { bench::print_bandwidth_table(rows, format, f); });
  expect_within_columns(text);
  const std::vector<std::string> lines = lines_of(text);
  // A blank line, the two header lines, then 5 cases x 2 thread counts.
  assert_int_equal(lines.size(), 3 + 10);
  assert_true(lines[1].rfind("case ", 0) == 0);
  for (const char* head : {"thr", "ms", "GB/s", "x roof", "plan", "bound"})
    assert_true(lines[1].find(head) != std::string::npos);
  assert_true(lines[1].find("mode") == std::string::npos);
  assert_true(lines[1].find("x best") == std::string::npos);
  // D at 1 thread: st_copy 20 ms (50 GB/s), x roof 0.50, plan 0.60, bound copy.
  const std::string& d1 = lines[5];
  const std::string figures = "  1    20.000   50.00   0.50   0.60 copy";
  assert_true(d1.rfind("D transpose (8192,8192) ", 0) == 0);
  assert_true(d1.size() > figures.size() && d1.compare(d1.size() - figures.size(), figures.size(), figures) == 0);
}

void wide_table_has_a_row_per_mode(void**) {
  const std::vector<BandwidthRow> rows = made_up_rows();
  const bench::ReportFormat format{true, {bench::Pages::Huge}};
  const std::string text = printed([&](std::FILE* f) { bench::print_bandwidth_table(rows, format, f); });
  size_t a_rows = 0;
  for (const std::string& line : lines_of(text)) a_rows += line.rfind("A clone 64M ", 0) == 0;
  assert_int_equal(a_rows, 10);  // 5 modes x 2 thread counts
  for (const char* head : {"mode", "memcpy", "x best", "x roof", "hp-alloc", "reps"})
    assert_true(text.find(head) != std::string::npos);
}

void summary_counts_the_cases_at_the_goal_and_names_the_lowest(void**) {
  const std::vector<BandwidthRow> rows = made_up_rows();
  const std::string text = printed([&](std::FILE* f) { bench::print_summary(rows, one_and_two_threads(), f); });
  expect_within_columns(text);
  // 1 thread: A (0.95) and J (0.92) meet the goal; I10 0.25, D 0.50, I2 0.899 do not.
  // 2 threads: I2 (1.10), I10 (0.91) and J (0.92) meet it; D 0.70 and A 0.89 do not.
  assert_string_equal(text.c_str(),
                      "\nSummary: the cases whose st_copy and plan both reach 0.90 of the roofline; the lowest of "
                      "the rest:\n"
                      "  1 thread: 2 of 5 cases; lowest: I10 0.25, D 0.50, I2 0.89\n"
                      "  2 threads: 3 of 5 cases; lowest: D 0.70, A 0.89\n");
}

void summary_says_none_below(void**) {
  std::vector<BandwidthRow> rows = {row("A clone 64M", "prealloc", 1, 10, 10), row("A clone 64M", "plan", 1, 10, 11),
                                    row("A clone 64M", "alloc", 1, 10, 100)};  // alloc is not judged
  bench::Options options;
  options.thread_counts = {1};
  options.pages = {bench::Pages::Huge, bench::Pages::Small};
  const std::string text = printed([&](std::FILE* f) { bench::print_summary(rows, options, f); });
  assert_true(text.find("\n  1 thread, huge pages: 1 of 1 cases, none below\n") != std::string::npos);
  assert_true(text.find("\n  1 thread, 4k pages: 0 of 0 cases, none below\n") != std::string::npos);
}

void definitions_define_every_column_within_the_width(void**) {
  for (bool wide : {false, true}) {
    const bench::ReportFormat format{wide, {bench::Pages::Huge, bench::Pages::Small}};
    const std::string text = printed([&](std::FILE* f) { bench::print_definitions(format, f); });
    expect_within_columns(text);
    const std::vector<const char*> compact = {"thr", "pages", "ms", "GB/s", "x roof", "plan", "bound"};
    const std::vector<const char*> every = {"mode", "thr", "pages", "MB", "ms", "GB/s", "x best", "x roof", "reps"};
    for (const char* head : wide ? every : compact)
      assert_true(text.find("\n  " + std::string(head) + " ") != std::string::npos);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(natural_order_compares_numbers_as_numbers),
      cmocka_unit_test(compact_table_has_a_row_per_case_and_thread_count),
      cmocka_unit_test(wide_table_has_a_row_per_mode),
      cmocka_unit_test(summary_counts_the_cases_at_the_goal_and_names_the_lowest),
      cmocka_unit_test(summary_says_none_below),
      cmocka_unit_test(definitions_define_every_column_within_the_width),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
