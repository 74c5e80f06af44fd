// stride-bench: runs the registered cases and prints the machine, the
// definitions, a bandwidth table, a per-call table and their CSV.
//
//   stride-bench [--device cpu|cuda] [--quick] [--filter A,D_,K] [--threads 1,2] [--reps N] [--csv FILE] [--list]
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>

#include "baselines.h"
#include "bench.h"
#include "copy_case.h"
#include "cuda_bench.h"
#include "machine.h"

namespace bench {

std::vector<Case>& cases() {
  static std::vector<Case> all;
  return all;
}

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

namespace {

const char kUsage[] =
    "usage: stride-bench [options]\n"
    "  --device D       cpu (the default) or cuda: the device cases and their cudaMemcpy baselines\n"
    "  --quick          tiny sizes and two repetitions of every case: a smoke test (seconds)\n"
    "  --filter LIST    run only the cases whose name contains one of the comma-separated\n"
    "                   strings (e.g. --filter A_,D_,K_); see --list\n"
    "  --threads LIST   comma-separated thread counts (default: 1 and every core)\n"
    "  --reps N         timed repetitions per measurement (default: 3 to 9, as time allows)\n"
    "  --csv FILE       write the CSV to FILE instead of printing it after the tables\n"
    "  --list           name the cases and stop\n";

struct Args {
  bench::Options options;
  std::vector<std::string> filters;
  std::string csv_path;
  bool list = false;
  bool cuda = false;
};

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    const std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty()) parts.push_back(part);
    if (comma == std::string::npos) return parts;
    start = comma + 1;
  }
}

int parse_positive(const std::string& text, const char* option) {
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 4096)
    bench::die("%s wants positive integers, got '%s'", option, text.c_str());
  return static_cast<int>(v);
}

Args parse_args(int argc, char** argv, int cores) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) bench::die("%s needs a value\n%s", arg.c_str(), kUsage);
      return argv[++i];
    };
    if (arg == "--device") {
      const std::string d = value();
      if (d != "cpu" && d != "cuda") bench::die("--device wants cpu or cuda, got '%s'", d.c_str());
      a.cuda = d == "cuda";
    } else if (arg == "--quick") {
      a.options.quick = true;
    } else if (arg == "--list") {
      a.list = true;
    } else if (arg == "--filter") {
      a.filters = split_commas(value());
    } else if (arg == "--threads") {
      for (const std::string& t : split_commas(value()))
        a.options.thread_counts.push_back(parse_positive(t, "--threads"));
      if (a.options.thread_counts.empty()) bench::die("--threads needs at least one count");
    } else if (arg == "--reps") {
      a.options.reps = parse_positive(value(), "--reps");
    } else if (arg == "--csv") {
      a.csv_path = value();
    } else if (arg == "--help" || arg == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      bench::die("unknown argument '%s'\n%s", arg.c_str(), kUsage);
    }
  }
  if (a.options.thread_counts.empty()) {
    a.options.thread_counts.push_back(1);
    if (cores > 1) a.options.thread_counts.push_back(cores);
  }
  return a;
}

bool selected(const bench::Case& c, const std::vector<std::string>& filters) {
  if (filters.empty()) return true;
  for (const std::string& f : filters) {
    if (std::strstr(c.name, f.c_str())) return true;
  }
  return false;
}

std::string join_ints(const std::vector<int>& values) {
  std::string s;
  for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + std::to_string(values[i]);
  return s;
}

void print_header(const Args& args, const bench::Machine& m, int default_threads) {
  char date[64];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", std::localtime(&now));
#if defined(NDEBUG)
  const char* assertions = "off";
#else
  const char* assertions = "on";
#endif
#if defined(STRIDE_HAVE_OPENMP)
  const char* threading = "OpenMP";
#else
  const char* threading = "none (serial kernels)";
#endif
  std::printf("stride-bench: stride %s, compiler %s, assertions %s, library threading %s\n", st_version_string(),
              __VERSION__, assertions, threading);
  std::printf("date:         %s\n", date);
  std::printf("cpu:          %s, %d cores usable, %.1f GiB memory\n", m.cpu_model.c_str(), m.cores, m.memory_gib);
  std::printf("isa:          %s\n", m.isa_flags.c_str());
  std::printf("huge pages:   transparent: %s\n", m.transparent_hugepages.c_str());
  std::printf("load average: %s at the start (the machine may be shared: load slows every figure)\n",
              bench::load_average_text().c_str());
  std::printf("threads:      %s (st_set_num_threads; the library's default is %d)\n",
              join_ints(args.options.thread_counts).c_str(), default_threads);
  std::printf("NT copy:      %s\n", bench::nt_copy_variant());
  if (args.options.quick) {
    std::printf("sizes:        --quick: tiny sizes, 2 repetitions (a smoke test: the figures mean nothing)\n");
  } else if (args.options.reps > 0) {
    std::printf("sizes:        the full sizes of every case; %d timed repetitions per measurement\n",
                args.options.reps);
  } else {
    std::printf("sizes:        the full sizes of every case; 3 to 9 timed repetitions per measurement\n");
  }
  std::printf(
      "\nDefinitions (bandwidth table):\n"
      "  bytes moved   numel x (source itemsize + destination itemsize): read + written, each element\n"
      "                counted once (G's skipped half and H's re-read row are not counted)\n"
      "  MB, GB        10^6, 10^9 bytes; GB/s = bytes moved / median time\n"
      "  prealloc      st_copy into an existing contiguous destination, written before\n"
      "  plan          st_copy_plan_execute_raw of an ST_PLAN_MEASURE plan made at that thread\n"
      "                count, into the same destination\n"
      "  alloc         st_clone / st_contiguous / st_to returning a new tensor, + st_tensor_release\n"
      "                (allocation, page faults and free included)\n"
      "  baselines     each copies bytes moved / 2 bytes between two 2 MiB-aligned, huge-page-advised,\n"
      "                already-written buffers (so it too reads + writes `bytes moved`), split over the\n"
      "                same thread count, timed in the same rounds as the case:\n"
      "    memcpy      glibc memcpy, one part per thread\n"
      "    NT          streaming-store copy (see NT copy above), one part per thread\n"
      "    hp-alloc    mmap 2 MiB-aligned + madvise(MADV_HUGEPAGE), memcpy into it, munmap\n"
      "    malloc      malloc + memcpy + free (for information)\n"
      "  x memcpy etc  baseline median time / case median time (1.00 = as fast as the baseline);\n"
      "                best = the faster of memcpy and NT\n"
      "  ms            median of the timed rounds; a round runs every baseline and every mode once,\n"
      "                after one untimed warm-up round; reps = timed rounds\n"
      "  Every copy timed is first checked against its source at 257 sampled elements.\n"
      "Per-call table: nanoseconds per call, median and fastest of several batches of calls (one untimed\n"
      "batch first); K goes through the C API, releases included.\n");
  std::fflush(stdout);
}

std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

double gbps(int64_t bytes, double ms) { return static_cast<double>(bytes) / (ms * 1e-3) / 1e9; }

void print_bandwidth_table(const std::vector<bench::BandwidthRow>& rows) {
  if (rows.empty()) return;
  size_t cw = 4;
  for (const bench::BandwidthRow& r : rows) cw = std::max(cw, r.case_name.size());
  const int w = static_cast<int>(cw);
  std::printf("\n%-*s  %-8s %3s %8s %10s %8s | %8s %8s | %6s %6s %6s | %8s %6s | %8s %6s | %4s\n", w, "case", "mode",
              "thr", "MB", "ms", "GB/s", "memcpy", "NT", "xmemcp", "xNT", "xbest", "hp-alloc", "xhp", "malloc", "xmall",
              "reps");
  std::printf("%-*s  %-8s %3s %8s %10s %8s | %8s %8s | %6s %6s %6s | %8s %6s | %8s %6s | %4s\n", w, "", "", "", "",
              "median", "", "GB/s", "GB/s", "", "", "", "GB/s", "", "GB/s", "", "");
  std::string last_case;
  for (const bench::BandwidthRow& r : rows) {
    if (!last_case.empty() && r.case_name != last_case) std::printf("\n");
    last_case = r.case_name;
    const double best = std::min(r.memcpy_ms, r.nt_ms);
    std::printf(
        "%-*s  %-8s %3d %8s %10s %8s | %8s %8s | %6s %6s %6s | %8s %6s | %8s %6s | %4d\n", w, r.case_name.c_str(),
        r.mode.c_str(), r.threads, fixed(static_cast<double>(r.bytes_moved) / 1e6, 1).c_str(), fixed(r.ms, 3).c_str(),
        fixed(gbps(r.bytes_moved, r.ms), 2).c_str(), fixed(gbps(r.bytes_moved, r.memcpy_ms), 2).c_str(),
        fixed(gbps(r.bytes_moved, r.nt_ms), 2).c_str(), fixed(r.memcpy_ms / r.ms, 2).c_str(),
        fixed(r.nt_ms / r.ms, 2).c_str(), fixed(best / r.ms, 2).c_str(),
        fixed(gbps(r.bytes_moved, r.hugepage_alloc_ms), 2).c_str(), fixed(r.hugepage_alloc_ms / r.ms, 2).c_str(),
        fixed(gbps(r.bytes_moved, r.malloc_ms), 2).c_str(), fixed(r.malloc_ms / r.ms, 2).c_str(), r.reps);
  }
}

void print_call_table(const std::vector<bench::CallRow>& rows) {
  if (rows.empty()) return;
  size_t cw = 4, mw = 22;
  for (const bench::CallRow& r : rows) {
    cw = std::max(cw, r.case_name.size());
    mw = std::max(mw, r.measurement.size());
  }
  const int c = static_cast<int>(cw), m = static_cast<int>(mw);
  std::printf("\n%-*s  %-*s  %3s  %10s  %10s\n", c, "case", m, "measurement (per call)", "thr", "median ns",
              "fastest ns");
  for (const bench::CallRow& r : rows) {
    std::printf("%-*s  %-*s  %3s  %10.1f  %10.1f\n", c, r.case_name.c_str(), m, r.measurement.c_str(),
                r.threads ? std::to_string(r.threads).c_str() : "-", r.time.median_ns, r.time.fastest_ns);
  }
}

// A CSV field, quoted when it holds a comma or a quote (RFC 4180).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

std::string csv_number(double v) {
  if (std::isnan(v)) return "";
  char text[64];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

void write_csv(std::FILE* out, const std::vector<bench::BandwidthRow>& bandwidth,
               const std::vector<bench::CallRow>& calls) {
  std::fprintf(out,
               "kind,case,mode,threads,reps,bytes_moved,median_ms,gbps,memcpy_ms,nt_ms,x_memcpy,x_nt,x_best,"
               "hugepage_alloc_ms,x_hugepage_alloc,malloc_ms,x_malloc,median_ns_per_call,fastest_ns_per_call\n");
  for (const bench::BandwidthRow& r : bandwidth) {
    const double best = std::min(r.memcpy_ms, r.nt_ms);
    std::fprintf(out, "bandwidth,%s,%s,%d,%d,%lld,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,,\n", csv_field(r.case_name).c_str(),
                 r.mode.c_str(), r.threads, r.reps, static_cast<long long>(r.bytes_moved), csv_number(r.ms).c_str(),
                 csv_number(gbps(r.bytes_moved, r.ms)).c_str(), csv_number(r.memcpy_ms).c_str(),
                 csv_number(r.nt_ms).c_str(), csv_number(r.memcpy_ms / r.ms).c_str(),
                 csv_number(r.nt_ms / r.ms).c_str(), csv_number(best / r.ms).c_str(),
                 csv_number(r.hugepage_alloc_ms).c_str(), csv_number(r.hugepage_alloc_ms / r.ms).c_str(),
                 csv_number(r.malloc_ms).c_str(), csv_number(r.malloc_ms / r.ms).c_str());
  }
  for (const bench::CallRow& r : calls) {
    std::fprintf(out, "call,%s,%s,%s,,,,,,,,,,,,,,%s,%s\n", csv_field(r.case_name).c_str(),
                 csv_field(r.measurement).c_str(), r.threads ? std::to_string(r.threads).c_str() : "",
                 csv_number(r.time.median_ns).c_str(), csv_number(r.time.fastest_ns).c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bench::Machine machine = bench::read_machine();
  const Args args = parse_args(argc, argv, machine.cores);
  if (args.cuda) return bench::run_cuda(args.options, args.filters, args.csv_path, args.list);

  std::vector<bench::Case> all = bench::cases();
  std::sort(all.begin(), all.end(),
            [](const bench::Case& a, const bench::Case& b) { return std::strcmp(a.name, b.name) < 0; });
  if (args.list) {
    for (const bench::Case& c : all) std::printf("%-24s %s\n", c.name, c.summary);
    return 0;
  }
  std::vector<bench::Case> chosen;
  for (const bench::Case& c : all) {
    if (selected(c, args.filters)) chosen.push_back(c);
  }
  if (chosen.empty()) bench::die("no case matches --filter (see --list)");

  const int default_threads = st_get_num_threads();
  print_header(args, machine, default_threads);

  std::vector<bench::BandwidthRow> bandwidth;
  std::vector<bench::CallRow> calls;
  const int64_t start = bench::now_ns();
  for (size_t i = 0; i < chosen.size(); ++i) {
    const bench::Case& c = chosen[i];
    std::fprintf(stderr, "[%zu/%zu] %s: %s\n", i + 1, chosen.size(), c.name, c.summary);
    const int64_t t0 = bench::now_ns();
    bench::Table table(c.name);
    c.run(table, args.options);
    bench::check(st_set_num_threads(default_threads), "st_set_num_threads");
    bandwidth.insert(bandwidth.end(), table.bandwidth().begin(), table.bandwidth().end());
    calls.insert(calls.end(), table.calls().begin(), table.calls().end());
    std::fprintf(stderr, "[%zu/%zu] %s done in %.1f s (load average %s)\n", i + 1, chosen.size(), c.name,
                 static_cast<double>(bench::now_ns() - t0) * 1e-9, bench::load_average_text().c_str());
  }

  print_bandwidth_table(bandwidth);
  print_call_table(calls);
  std::printf("\nload average: %s at the end; %.1f s in all\n", bench::load_average_text().c_str(),
              static_cast<double>(bench::now_ns() - start) * 1e-9);

  if (!args.csv_path.empty()) {
    std::FILE* out = std::fopen(args.csv_path.c_str(), "w");
    if (!out) bench::die("cannot write %s", args.csv_path.c_str());
    write_csv(out, bandwidth, calls);
    if (std::fclose(out) != 0) bench::die("cannot write %s", args.csv_path.c_str());
    std::printf("CSV written to %s\n", args.csv_path.c_str());
  } else {
    std::printf("\n# csv begin\n");
    write_csv(stdout, bandwidth, calls);
    std::printf("# csv end\n");
  }
  return 0;
}
