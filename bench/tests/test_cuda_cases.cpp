// The GPU bench without a GPU: its case list holds every case the bench
// must time, with the views, dtypes and sizes written out here by hand, and
// the views the C API makes are those; the misaligned case really is 4
// bytes off its destination; the sizes fill the device's memory system but
// stay within the budget; and the report, given made-up rows, names
// exactly the rows below 0.90 and keeps to 100 columns.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <unistd.h>

#include "cells.h"
#include "cuda_cases.h"
#include "cuda_report.h"
#include "printed_text.h"
#include "report.h"

using bench::CudaCase;
using bench::CudaKind;
using bench::CudaRow;

namespace {

using Dims = std::vector<int64_t>;

const CudaCase& find_case(const std::vector<CudaCase>& cases, const std::string& id) {
  for (const CudaCase& c : cases) {
    if (bench::case_id(c.name) == id) return c;
  }
  print_error("no case %s\n", id.c_str());
  fail();
  std::abort();
}

std::string dims(const Dims& d) {
  std::string s;
  for (int64_t v : d) s += std::to_string(v) + " ";
  return s;
}

// A device case `id` copying a view of these sizes and strides (elements),
// from `src` to `dst`.
void expect_case(const std::vector<CudaCase>& cases, const char* id, const Dims& sizes, const Dims& strides,
                 st_dtype src, st_dtype dst) {
  const CudaCase& c = find_case(cases, id);
  if (bench::view_sizes(c) != sizes || bench::view_strides(c) != strides) {
    print_error("%s: view sizes %s strides %s, want %s and %s\n", id, dims(bench::view_sizes(c)).c_str(),
                dims(bench::view_strides(c)).c_str(), dims(sizes).c_str(), dims(strides).c_str());
    fail();
  }
  assert_int_equal(c.src, src);
  assert_int_equal(c.dst, dst);
  assert_int_equal(static_cast<int>(c.kind), static_cast<int>(CudaKind::Device));
  assert_false(c.scaled && std::string(id) != "S1");
}

const int64_t k64M = int64_t{64} << 20;

void every_required_case_has_its_view_and_dtypes(void**) {
  const std::vector<CudaCase> cases = bench::cuda_cases(false);
  // Contiguous, same dtype.
  expect_case(cases, "A", {k64M}, {1}, ST_FLOAT32, ST_FLOAT32);
  expect_case(cases, "A4", {k64M}, {1}, ST_FLOAT32, ST_FLOAT32);
  // 2-d transposes of 1-, 2-, 4- and 8-byte dtypes.
  expect_case(cases, "D1", {16384, 16384}, {1, 16384}, ST_UINT8, ST_UINT8);
  expect_case(cases, "D2", {8192, 8192}, {1, 8192}, ST_FLOAT16, ST_FLOAT16);
  expect_case(cases, "D", {8192, 8192}, {1, 8192}, ST_FLOAT32, ST_FLOAT32);
  expect_case(cases, "D8", {8192, 8192}, {1, 8192}, ST_FLOAT64, ST_FLOAT64);
  // NCHW (64,256,56,56) read as NHWC, and back: 256 channels.
  expect_case(cases, "B", {64, 56, 56, 256}, {256 * 56 * 56, 56, 1, 56 * 56}, ST_FLOAT32, ST_FLOAT32);
  expect_case(cases, "C", {64, 256, 56, 56}, {56 * 56 * 256, 1, 56 * 256, 256}, ST_FLOAT32, ST_FLOAT32);
  // The CPU's F, 32 times: (32,16,...) contiguous, permute(0,3,1,5,2,4).
  expect_case(cases, "F", {32, 16, 16, 16, 16, 16}, {1 << 20, 1 << 8, 1 << 16, 1, 1 << 12, 1 << 4}, ST_FLOAT32,
              ST_FLOAT32);
  expect_case(cases, "E", {512, 256, 256}, {1, 512, 512 * 256}, ST_FLOAT32, ST_FLOAT32);
  expect_case(cases, "G", {8192, 4096}, {8192, 2}, ST_FLOAT32, ST_FLOAT32);
  // A broadcast row: stride 0 down the rows.
  expect_case(cases, "H", {8192, 8192}, {0, 1}, ST_FLOAT32, ST_FLOAT32);
  // Conversions.
  expect_case(cases, "I1", {k64M}, {1}, ST_FLOAT32, ST_FLOAT16);
  expect_case(cases, "I31", {k64M}, {1}, ST_FLOAT16, ST_FLOAT32);
  expect_case(cases, "I2", {k64M}, {1}, ST_FLOAT32, ST_BFLOAT16);
  expect_case(cases, "I32", {k64M}, {1}, ST_BFLOAT16, ST_FLOAT32);
  expect_case(cases, "I5", {k64M}, {1}, ST_FLOAT32, ST_FLOAT8_E4M3FN);
  expect_case(cases, "I10", {k64M}, {1}, ST_FLOAT32, ST_FLOAT8_E5M2);
  // uint8 NHWC (512,224,224,3) read as NCHW: 3 channels.
  const Dims nchw = {512, 3, 224, 224}, nchw_strides = {224 * 224 * 3, 1, 224 * 3, 3};
  expect_case(cases, "J", nchw, nchw_strides, ST_UINT8, ST_FLOAT32);
  expect_case(cases, "S1", nchw, nchw_strides, ST_UINT8, ST_FLOAT32);
}

// A block-scaled case `id` over a float view of these sizes and strides.
void expect_block_case(const std::vector<CudaCase>& cases, const char* id, const Dims& sizes, const Dims& strides,
                       st_dtype dtype, bool quantize, st_block_format format, st_scale_rule rule, int dim) {
  expect_case(cases, id, sizes, strides, dtype, dtype);
  const CudaCase& c = find_case(cases, id);
  assert_true(c.blocks.has_value());
  assert_int_equal(c.blocks->quantize, quantize);
  assert_int_equal(c.blocks->format, format);
  assert_int_equal(c.blocks->rule, rule);
  assert_int_equal(bench::block_dim(c), dim);
}

// The CPU's Q1-Q8 (bench/cases_blocks.cpp), the 16-bit ones with twice the rows.
void block_cases_are_the_cpu_q_cases(void**) {
  const std::vector<CudaCase> cases = bench::cuda_cases(false);
  const Dims q = {8192, 8192}, rows = {8192, 1}, q2 = {16384, 8192};
  expect_block_case(cases, "Q1", q, rows, ST_FLOAT32, true, ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 1);
  expect_block_case(cases, "Q2", q, rows, ST_FLOAT32, true, ST_BLOCK_MXFP4_E2M1, ST_SCALE_RCEIL, 1);
  expect_block_case(cases, "Q3", q, rows, ST_FLOAT32, true, ST_BLOCK_NVFP4, ST_SCALE_FLOOR, 1);
  expect_block_case(cases, "Q4", q2, rows, ST_BFLOAT16, true, ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 0);
  expect_block_case(cases, "Q5", q, {1, 8192}, ST_FLOAT32, true, ST_BLOCK_MXFP4_E2M1, ST_SCALE_FLOOR, 1);
  expect_block_case(cases, "Q6", q, rows, ST_FLOAT32, false, ST_BLOCK_MXFP4_E2M1, ST_SCALE_FLOOR, 1);
  expect_block_case(cases, "Q7", q2, rows, ST_BFLOAT16, false, ST_BLOCK_NVFP4, ST_SCALE_FLOOR, 1);
  expect_block_case(cases, "Q8", q2, rows, ST_FLOAT16, false, ST_BLOCK_MXFP8_E4M3, ST_SCALE_FLOOR, 0);
  for (const CudaCase& c : cases) assert_int_equal(c.blocks.has_value(), bench::case_id(c.name)[0] == 'Q');
  // Bytes moved, by hand: the floats, one byte a value (half a byte for FP4), one byte a block.
  const int64_t n = int64_t{8192} * 8192;
  assert_true(bench::block_values_sizes(find_case(cases, "Q2")) == (Dims{8192, 4096}));
  assert_true(bench::block_scales_sizes(find_case(cases, "Q3")) == (Dims{8192, 512}));
  assert_true(bench::block_scales_sizes(find_case(cases, "Q4")) == (Dims{512, 8192}));
  assert_int_equal(bench::bytes_moved(find_case(cases, "Q1")), n * 4 + n + n / 32);
  assert_int_equal(bench::bytes_moved(find_case(cases, "Q3")), n * 4 + n / 2 + n / 16);
  assert_int_equal(bench::bytes_moved(find_case(cases, "Q4")), 2 * n * 2 + 2 * n + 2 * n / 32);
  assert_int_equal(bench::bytes_moved(find_case(cases, "Q7")), 2 * n * 2 + n + 2 * n / 16);
  const CudaCase& q6 = find_case(cases, "Q6");
  assert_int_equal(bench::device_bytes(q6), n * 4 + n / 2 + n / 32 + 2 * bench::baseline_bytes(q6));
}

void s1_normalizes_per_channel_as_the_cpu_case(void**) {
  const std::vector<CudaCase> cases = bench::cuda_cases(false);
  const CudaCase& s1 = find_case(cases, "S1");
  assert_true(s1.scaled);
  assert_int_equal(s1.scale_dim, 1);
  assert_int_equal(s1.scale.size(), 3);
  assert_int_equal(s1.shift.size(), 3);
  // (x / 255 - mean) / std for ImageNet's mean (0.485, 0.456, 0.406) and std (0.229, 0.224, 0.225).
  const double scale[3] = {0.0171247538316637, 0.0175070028011204, 0.0174291938997821};
  const double shift[3] = {-2.11790393013100, -2.03571428571429, -1.80444444444444};
  for (int i = 0; i < 3; ++i) {
    assert_true(std::fabs(s1.scale[static_cast<size_t>(i)] - scale[i]) < 1e-14);
    assert_true(std::fabs(s1.shift[static_cast<size_t>(i)] - shift[i]) < 1e-12);
  }
}

void misaligned_case_is_4_bytes_off_its_destination(void**) {
  for (bool quick : {false, true}) {
    const std::vector<CudaCase> cases = bench::cuda_cases(quick);
    const CudaCase& c = find_case(cases, "A4");
    // The source view starts view_offset elements into a base that the
    // allocator aligns (to 256 bytes); the destination is a fresh tensor at 0.
    const int64_t src_byte = bench::view_offset(c) * static_cast<int64_t>(st_dtype_itemsize(c.src));
    assert_int_equal(src_byte, 4);
    assert_int_equal(src_byte % 16, 4);
    // Both sides contiguous, the same dtype, the same count as A: only the offset differs.
    const CudaCase& a = find_case(cases, "A");
    assert_true(bench::view_sizes(c) == bench::view_sizes(a));
    assert_true(bench::view_strides(c) == Dims{1});
    assert_int_equal(c.base_sizes[0], a.base_sizes[0] + 1);
    assert_int_equal(bench::view_offset(a), 0);
  }
}

// The views the bench makes through the C API (of CPU tensors here, at
// --quick sizes) are the ones the cases describe, offset included.
void views_made_are_the_views_described(void**) {
  for (const CudaCase& c : bench::cuda_cases(true)) {
    st_tensor base = {0};
    const st_device cpu = {ST_DEVICE_CPU, 0};
    assert_int_equal(st_tensor_create(c.base_sizes.data(), static_cast<int32_t>(c.base_sizes.size()), c.src, cpu,
                                      &base),
                     ST_OK);
    const st_tensor view = bench::make_view(c, base);
    if (!bench::view_is_described(c, view)) {
      print_error("%s: the view made differs from its description\n", c.name.c_str());
      fail();
    }
    assert_int_equal(st_tensor_release(view), ST_OK);
    assert_int_equal(st_tensor_release(base), ST_OK);
  }
  // And a described view that is not the one made is noticed.
  CudaCase wrong = bench::cuda_cases(true).front();
  st_tensor base = {0};
  const st_device cpu = {ST_DEVICE_CPU, 0};
  assert_int_equal(st_tensor_create(wrong.base_sizes.data(), 1, wrong.src, cpu, &base), ST_OK);
  const st_tensor view = bench::make_view(wrong, base);
  wrong.offset = 1;
  assert_false(bench::view_is_described(wrong, view));
  assert_int_equal(st_tensor_release(view), ST_OK);
  assert_int_equal(st_tensor_release(base), ST_OK);
}

void link_cases_are_unchanged(void**) {
  const std::vector<CudaCase> cases = bench::cuda_cases(false);
  struct Link {
    const char* name;
    CudaKind kind;
    st_device_type host;
    st_dtype dst;
  } links[] = {
      {"L1 H2D pinned f32", CudaKind::HostToDevice, ST_DEVICE_CUDA_HOST, ST_FLOAT32},
      {"L2 D2H pinned f32", CudaKind::DeviceToHost, ST_DEVICE_CUDA_HOST, ST_FLOAT32},
      {"L3 H2D pageable f32", CudaKind::HostToDevice, ST_DEVICE_CPU, ST_FLOAT32},
      {"L4 D2H pageable f32", CudaKind::DeviceToHost, ST_DEVICE_CPU, ST_FLOAT32},
      {"L5 H2D pinned u8 NHWC->f32 NCHW", CudaKind::HostToDevice, ST_DEVICE_CUDA_HOST, ST_FLOAT32},
  };
  for (const Link& l : links) {
    const CudaCase& c = find_case(cases, bench::case_id(l.name));
    assert_string_equal(c.name.c_str(), l.name);
    assert_int_equal(static_cast<int>(c.kind), static_cast<int>(l.kind));
    assert_int_equal(c.host.type, l.host);
    assert_int_equal(c.dst, l.dst);
  }
  const CudaCase& l5 = find_case(cases, "L5");
  assert_true(l5.base_sizes == (Dims{64, 224, 224, 3}));
  assert_true(l5.perm == (std::vector<int32_t>{0, 3, 1, 2}));
  assert_int_equal(l5.src, ST_UINT8);
  assert_true(find_case(cases, "L1").base_sizes == Dims{k64M});
}

void sizes_fill_the_memory_system_within_the_budget(void**) {
  const std::vector<CudaCase> full = bench::cuda_cases(false), quick = bench::cuda_cases(true);
  assert_int_equal(full.size(), quick.size());
  for (size_t i = 0; i < full.size(); ++i) {
    const CudaCase& c = full[i];
    assert_string_equal(bench::case_id(c.name).c_str(), bench::case_id(quick[i].name).c_str());
    if (c.kind == CudaKind::Device && bench::bytes_moved(c) < bench::kMinDeviceBytes) {
      print_error("%s moves %lld bytes\n", c.name.c_str(), static_cast<long long>(bench::bytes_moved(c)));
      fail();
    }
    assert_true(bench::device_bytes(c) <= bench::kDeviceBudgetBytes);
    assert_true(bench::bytes_moved(quick[i]) <= (int64_t{4} << 20));
  }
  // The arithmetic on two cases, by hand: D8 reads and writes 8192^2 float64.
  const CudaCase& d8 = find_case(full, "D8");
  assert_int_equal(bench::bytes_moved(d8), int64_t{8192} * 8192 * 16);
  assert_int_equal(bench::baseline_bytes(d8), int64_t{8192} * 8192 * 8);
  assert_int_equal(bench::device_bytes(d8), int64_t{8192} * 8192 * 8 * 4);
  // I1 reads 4 and writes 2 bytes per element: memcpy of 3 per element moves the same 6.
  const CudaCase& i1 = find_case(full, "I1");
  assert_int_equal(bench::bytes_moved(i1), k64M * 6);
  assert_int_equal(bench::baseline_bytes(i1), k64M * 3);
  // L5 crosses the link as uint8 but the baseline sends the wider float32.
  const CudaCase& l5 = find_case(full, "L5");
  assert_int_equal(bench::baseline_bytes(l5), int64_t{64} * 224 * 224 * 3 * 4);
}

void ids_are_unique(void**) {
  std::set<std::string> ids;
  for (const CudaCase& c : bench::cuda_cases(false)) assert_true(ids.insert(bench::case_id(c.name)).second);
}

CudaRow row(const char* name, double baseline_ms, double ms, CudaKind kind = CudaKind::Device) {
  CudaRow r;
  r.name = name;
  r.kind = kind;
  r.bytes_moved = int64_t{512} << 20;
  r.baseline_bytes = int64_t{256} << 20;
  r.baseline_ms = baseline_ms;
  r.ms = ms;
  r.reps = 5;
  return r;
}

std::vector<CudaRow> made_up_rows() {
  return {
      row("A contiguous f32 64M", 0.11, 0.11),
      row("A4 f32 src at +4 B 64M", 0.10, 0.20),                // 0.50
      row("D1 transpose u8 (16384,16384)", 0.899, 1.0),         // 0.899: below, shown as 0.89
      row("D transpose f32 (8192,8192)", 0.9, 1.0),             // exactly the goal: not below
      row("H broadcast (1,8192)->(8192,8192)", 0.2, 0.1),       // 2.00
      row("F permute(0,3,1,5,2,4) (32,16,16,16,16,16)", 0.3, 1.0),  // 0.30
      row("L1 H2D pinned f32", 1.0, 1.05, CudaKind::HostToDevice),
      row("L3 H2D pageable f32", 1.0, 2.5, CudaKind::HostToDevice),  // 0.40
      row("L4 D2H pageable f32", 1.0, 4.0, CudaKind::DeviceToHost),  // 0.25
  };
}

void closing_lines_name_exactly_the_rows_below_the_goal(void**) {
  const std::vector<CudaRow> rows = made_up_rows();
  assert_true(bench::below_goal(rows, true) == (std::vector<std::string>{"A4 (0.50)", "D1 (0.89)", "F (0.30)"}));
  assert_true(bench::below_goal(rows, false) == (std::vector<std::string>{"L3 (0.40)", "L4 (0.25)"}));
  const std::string text = printed([&](std::FILE* f) { bench::print_cuda_below_goal(rows, f); });
  assert_string_equal(text.c_str(),
                      "\nBelow 0.90 of cudaMemcpy device to device: A4 (0.50), D1 (0.89), F (0.30)\n"
                      "Link cases below 0.90 of pinned cudaMemcpy: L3 (0.40), L4 (0.25)\n");
}

void closing_lines_say_none(void**) {
  const std::vector<CudaRow> rows = {row("A contiguous f32 64M", 0.95, 1.0), row("D1 transpose u8", 0.9, 1.0),
                                     row("L1 H2D pinned f32", 1.0, 1.0, CudaKind::HostToDevice)};
  const std::string text = printed([&](std::FILE* f) { bench::print_cuda_below_goal(rows, f); });
  assert_string_equal(text.c_str(),
                      "\nBelow 0.90 of cudaMemcpy device to device: none\n"
                      "Link cases below 0.90 of pinned cudaMemcpy: none\n");
}

// Every case below the goal: the lines wrap within 100 columns and name
// each device case once.
void closing_lines_wrap_and_name_every_case(void**) {
  std::vector<CudaRow> rows;
  std::set<std::string> want;
  for (const CudaCase& c : bench::cuda_cases(false)) {
    rows.push_back(row(c.name.c_str(), 0.5, 1.0, c.kind));
    if (c.kind == CudaKind::Device) want.insert(bench::case_id(c.name));
  }
  const std::string text = printed([&](std::FILE* f) { bench::print_cuda_below_goal(rows, f); });
  expect_within_columns(text);
  const std::string device = text.substr(0, text.find("Link cases"));
  std::set<std::string> named;
  size_t at = 0;
  while ((at = device.find(" (0.50)", at)) != std::string::npos) {
    const size_t start = device.find_last_of(" \n", at - 1) + 1;
    assert_true(named.insert(device.substr(start, at - start)).second);
    at += 1;
  }
  assert_true(named == want);
}

void table_fits_and_starts_where_gpu_check_looks(void**) {
  std::vector<CudaRow> rows;
  for (const CudaCase& c : bench::cuda_cases(false)) {
    CudaRow r = row(c.name.c_str(), 1e-6, 123456.789, c.kind);  // extreme figures must still fit
    r.bytes_moved = bench::bytes_moved(c);
    rows.push_back(r);
  }
  const std::string text = printed([&](std::FILE* f) { bench::print_cuda_table(rows, f); });
  expect_within_columns(text);
  const std::vector<std::string> lines = lines_of(text);
  // tools/gpu-check.sh copies the table from the line matching /^case +MB moved/.
  assert_true(lines.size() == rows.size() + 3);
  assert_true(lines[1].rfind("case ", 0) == 0);
  assert_true(lines[1].find_first_not_of(' ', 4) == lines[1].find("MB moved"));
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& line = lines[i + 3];
    assert_true(line.rfind(bench::case_id(rows[i].name) + " ", 0) == 0);
  }
  for (const char* head : {"MB moved", "GB/s", "baseline", "memcpy", "x memcpy", "reps"})
    assert_true(lines[1].find(head) != std::string::npos);
}

void definitions_and_list_fit_and_define_every_column(void**) {
  const std::string definitions = printed([](std::FILE* f) { bench::print_cuda_definitions(f); });
  expect_within_columns(definitions);
  for (const char* head : {"MB moved", "ms", "GB/s", "baseline", "memcpy", "x memcpy", "reps", "bytes moved"}) {
    assert_true(definitions.find("\n  " + std::string(head) + " ") != std::string::npos);
  }
  const std::string list = printed([](std::FILE* f) { bench::print_cuda_case_list(bench::cuda_cases(false), f); });
  expect_within_columns(list);
  assert_true(list.find("A4 f32 src at +4 B 64M\n    view (67108864) strides (1) offset 1; float32 -> float32") !=
              std::string::npos);
}

void csv_has_one_line_per_row(void**) {
  const std::vector<CudaRow> rows = made_up_rows();
  char path[] = "/tmp/test_bench_cuda_csv_XXXXXX";
  const int fd = mkstemp(path);
  assert_true(fd >= 0);
  bench::write_cuda_csv(path, rows);
  const std::string text = read_all(std::fopen(path, "r"));
  close(fd);
  std::remove(path);
  const std::vector<std::string> lines = lines_of(text);
  assert_int_equal(lines.size(), rows.size() + 1);
  assert_string_equal(lines[0].c_str(),
                      "kind,case,baseline,reps,bytes_moved,median_ms,gbps,baseline_bytes,baseline_ms,baseline_gbps,"
                      "x_memcpy");
  // A4: 512 MiB in 0.2 ms; the baseline 2 x 256 MiB in 0.1 ms.
  assert_string_equal(lines[2].c_str(), "device,A4 f32 src at +4 B 64M,D2D,5,536870912,0.2,2684.35,268435456,0.1,"
                                        "5368.71,0.5");
  assert_string_equal(lines[8].substr(0, 30).c_str(), "link,L3 H2D pageable f32,pinne");
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_required_case_has_its_view_and_dtypes),
      cmocka_unit_test(block_cases_are_the_cpu_q_cases),
      cmocka_unit_test(s1_normalizes_per_channel_as_the_cpu_case),
      cmocka_unit_test(misaligned_case_is_4_bytes_off_its_destination),
      cmocka_unit_test(views_made_are_the_views_described),
      cmocka_unit_test(link_cases_are_unchanged),
      cmocka_unit_test(sizes_fill_the_memory_system_within_the_budget),
      cmocka_unit_test(ids_are_unique),
      cmocka_unit_test(closing_lines_name_exactly_the_rows_below_the_goal),
      cmocka_unit_test(closing_lines_say_none),
      cmocka_unit_test(closing_lines_wrap_and_name_every_case),
      cmocka_unit_test(table_fits_and_starts_where_gpu_check_looks),
      cmocka_unit_test(definitions_and_list_fit_and_define_every_column),
      cmocka_unit_test(csv_has_one_line_per_row),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
