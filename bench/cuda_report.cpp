#include "cuda_report.h"

#include <cmath>

#include "bench.h"
#include "block_shapes.h"
#include "cells.h"
#include "labels.h"
#include "report.h"

namespace bench {
namespace {

// The table's columns after the case: head, unit line, width (negative:
// left-aligned). Their widths and the case's make at most kColumns.
struct CudaColumn {
  const char* head;
  const char* unit;
  int width;
};

const CudaColumn kTableColumns[] = {
    {"MB moved", "", 9}, {"ms", "median", 9},  {"GB/s", "", 8},     {"baseline", "", -10},
    {"memcpy", "GB/s", 8}, {"x memcpy", "", 8}, {"reps", "", 4},
};
constexpr int kCaseWidth = 34;

// The baseline's bytes read + written per second: a cudaMemcpy of n bytes
// reads n and writes n, counted as the case's bytes moved are.
double baseline_gbps(const CudaRow& r) { return gbps(2 * r.baseline_bytes, r.baseline_ms); }

void print_row(std::FILE* out, const std::string& name, const std::vector<std::string>& cells) {
  std::string line = padded(fit_label(name, kCaseWidth), -kCaseWidth);
  for (size_t i = 0; i < cells.size(); ++i) {
    const int w = kTableColumns[i].width;
    line += std::string(i == 3 ? "  " : " ") + padded(fit_cell(cells[i], static_cast<size_t>(std::abs(w))), w);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::fprintf(out, "%s\n", line.c_str());
}

}  // namespace

const char* baseline_name(CudaKind kind) {
  switch (kind) {
    case CudaKind::Device:
      return "D2D";
    case CudaKind::HostToDevice:
      return "pinned H2D";
    case CudaKind::DeviceToHost:
      return "pinned D2H";
  }
  return "?";
}

double x_memcpy(const CudaRow& r) { return r.baseline_ms / r.ms; }

std::vector<std::string> below_goal(const std::vector<CudaRow>& rows, bool device) {
  std::vector<std::string> names;
  for (const CudaRow& r : rows) {
    if ((r.kind == CudaKind::Device) != device) continue;
    const double x = x_memcpy(r);
    if (x >= kGpuGoal) continue;
    names.push_back(case_id(r.name) + " (" + fixed(std::floor(x * 100) / 100, 2) + ")");
  }
  return names;
}

void print_cuda_case_list(const std::vector<CudaCase>& cases, std::FILE* out) {
  for (const CudaCase& c : cases) {
    std::fprintf(out, "%s\n", c.name.c_str());
    std::string text = "view " + dims_text(view_sizes(c)) + " strides " + dims_text(view_strides(c));
    if (view_offset(c) != 0) text += " offset " + std::to_string(view_offset(c));
    if (c.blocks) {
      const std::string format = block_format_name(c.blocks->format);
      text += std::string("; ") + (c.blocks->quantize ? st_dtype_name(c.src) + std::string(" -> ") + format
                                                      : format + " -> " + st_dtype_name(c.src)) +
              " along dim " + std::to_string(block_dim(c));
    } else {
      text += std::string("; ") + st_dtype_name(c.src) + " -> " + st_dtype_name(c.dst);
    }
    if (c.scaled) text += " scaled per index of dim " + std::to_string(c.scale_dim);
    text += "; " + fixed(static_cast<double>(bytes_moved(c)) / (1 << 20), 1) + " MiB moved; " +
            fixed(static_cast<double>(device_bytes(c)) / (1 << 30), 2) + " GiB on the device; baseline " +
            baseline_name(c.kind) + " of " + fixed(static_cast<double>(baseline_bytes(c)) / (1 << 20), 1) + " MiB";
    print_wrapped("    ", text, out);
  }
}

void print_cuda_definitions(std::FILE* out) {
  auto define = [out](const char* term, const std::string& text) {
    char head[32];
    std::snprintf(head, sizeof head, "  %-12s", term);
    print_wrapped(head, text, out);
  };
  std::fprintf(out, "\nDefinitions:\n");
  define("device case", "st_copy(dst, view, non_blocking) (S1: st_copy_scaled) into a contiguous device tensor, "
                        "on one stream");
  define("link case", "the same between host memory (pinned or pageable) and the device");
  define("bytes moved", "numel x (source itemsize + destination itemsize): read + written, each element counted "
                        "once (H's re-read row counts, G's skipped half does not)");
  define("baseline", "D2D: cudaMemcpyAsync device to device of bytes moved / 2, which too reads + writes bytes "
                     "moved (the HBM's reads and writes share its bandwidth); pinned H2D or D2H: cudaMemcpyAsync "
                     "of pinned memory, same direction, of numel x the larger itemsize");
  define("timing", "CUDA events on the stream; a round queues one untimed baseline copy, then the baseline's "
                   "copies, then the case's, each batch between two events, so that the host's work for a "
                   "call overlaps the device's; one untimed round first; medians of the rounds");
  define("Q cases", "st_quantize_blocks or st_dequantize_blocks on the view, on the same stream; they wait for "
                    "their kernel, so each call's return and the next launch count; bytes moved: the float "
                    "operand's bytes + the values' + the scales'");
  define("MB moved", "bytes moved / 10^6");
  define("ms", "one copy's median time");
  define("GB/s", "bytes moved / ms (GB = 10^9 bytes)");
  define("memcpy", "the baseline's bytes read + written / its time");
  define("x memcpy", "baseline time / case time (1.00 = as fast as the baseline)");
  define("reps", "timed rounds");
  print_wrapped("  ", "Every copy is checked against the CPU's copy of the same view, byte for byte.", out);
  print_wrapped("  ", "Under the table: the device cases below " + fixed(kGpuGoal, 2) +
                          " of cudaMemcpy device to device (the goal: none), then the link cases below " +
                          fixed(kGpuGoal, 2) + " of pinned cudaMemcpy.",
                out);
}

void print_cuda_table(const std::vector<CudaRow>& rows, std::FILE* out) {
  std::vector<std::string> heads, units;
  for (const CudaColumn& c : kTableColumns) {
    heads.push_back(c.head);
    units.push_back(c.unit);
  }
  std::fprintf(out, "\n");
  print_row(out, "case", heads);
  print_row(out, "", units);
  for (const CudaRow& r : rows) {
    print_row(out, r.name,
              {fixed(static_cast<double>(r.bytes_moved) / 1e6, 1), fixed(r.ms, 4), fixed(gbps(r.bytes_moved, r.ms), 1),
               baseline_name(r.kind), fixed(baseline_gbps(r), 1), fixed(x_memcpy(r), 2), std::to_string(r.reps)});
  }
}

void print_cuda_below_goal(const std::vector<CudaRow>& rows, std::FILE* out) {
  std::vector<std::string> device = below_goal(rows, true), link = below_goal(rows, false);
  if (device.empty()) device.push_back("none");
  if (link.empty()) link.push_back("none");
  std::fprintf(out, "\n");
  print_items("Below " + fixed(kGpuGoal, 2) + " of cudaMemcpy device to device: ", device, ", ", out);
  print_items("Link cases below " + fixed(kGpuGoal, 2) + " of pinned cudaMemcpy: ", link, ", ", out);
}

void write_cuda_csv(const std::string& path, const std::vector<CudaRow>& rows) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) die("cannot write %s", path.c_str());
  std::fprintf(out, "kind,case,baseline,reps,bytes_moved,median_ms,gbps,baseline_bytes,baseline_ms,baseline_gbps,"
                    "x_memcpy\n");
  for (const CudaRow& r : rows) {
    const std::vector<std::string> fields = {r.kind == CudaKind::Device ? "device" : "link",
                                             r.name,
                                             baseline_name(r.kind),
                                             std::to_string(r.reps),
                                             std::to_string(r.bytes_moved),
                                             csv_number(r.ms),
                                             csv_number(gbps(r.bytes_moved, r.ms)),
                                             std::to_string(r.baseline_bytes),
                                             csv_number(r.baseline_ms),
                                             csv_number(baseline_gbps(r)),
                                             csv_number(x_memcpy(r))};
    std::string line;
    for (size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + csv_field(fields[i]);
    std::fprintf(out, "%s\n", line.c_str());
  }
  if (std::fclose(out) != 0) die("cannot write %s", path.c_str());
}

}  // namespace bench
