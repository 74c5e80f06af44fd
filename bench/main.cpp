// stride-bench: runs the registered cases in natural order (I1, I2, ...,
// I10) and prints the machine, the definitions, a bandwidth table, a
// per-call table and a closing summary against the roofline (report.h);
// the CSV goes to the file --csv names.
//
//   stride-bench [--device cpu|cuda] [--quick] [--filter A,D_,K] [--threads 1,2] [--pages huge,4k] [--reps N]
//                [--level avx2] [--wide] [--csv FILE] [--list]
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
#include "cells.h"
#include "copy_case.h"
#include "cpu/cpu_isa.h"
#include "cuda_bench.h"
#include "machine.h"
#include "report.h"

namespace bench {

std::vector<Case>& cases() {
  static std::vector<Case> all;
  return all;
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
    "  --pages LIST     huge (the default), 4k or huge,4k: the pages of each bandwidth case's\n"
    "                   destination and of the baselines' destination (4k: 4 KiB pages, advised\n"
    "                   MADV_NOHUGEPAGE)\n"
    "  --reps N         timed repetitions per measurement (default: 3 to 9, as time allows)\n"
    "  --level L        run the CPU kernels at level L: scalar, avx2 or avx512 (x86-64), neon or\n"
    "                   scalar (AArch64); not above this CPU's highest (default: that one)\n"
    "  --wide           every mode and every baseline of each case: a row per mode, every column\n"
    "                   (wider than 100 columns)\n"
    "  --csv FILE       also write every row as CSV to FILE\n"
    "  --list           name the cases and stop\n";

struct Args {
  bench::Options options;
  std::vector<std::string> filters;
  std::string csv_path;
  std::string level;  // as --level names it; empty: the level the library chose
  bool list = false;
  bool cuda = false;
  bool wide = false;
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
    } else if (arg == "--pages") {
      a.options.pages.clear();
      for (const std::string& p : split_commas(value())) {
        if (p != "huge" && p != "4k") bench::die("--pages wants huge, 4k or huge,4k, got '%s'", p.c_str());
        const bench::Pages pages = p == "huge" ? bench::Pages::Huge : bench::Pages::Small;
        if (std::find(a.options.pages.begin(), a.options.pages.end(), pages) == a.options.pages.end())
          a.options.pages.push_back(pages);
      }
      if (a.options.pages.empty()) bench::die("--pages needs huge, 4k or both");
    } else if (arg == "--level") {
      a.level = value();
    } else if (arg == "--wide") {
      a.wide = true;
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

// Caps the kernels' level at the one `name` names (--level); stops with the
// levels there are when the name is none of this build's, or names a level
// this CPU lacks (its code would not run here).
void choose_level(const std::string& name) {
  using st::cpu::CpuIsa;
  CpuIsa isa;
  if (!st::cpu::cpu_isa_from_name(name.c_str(), &isa)) {
    std::string names;
    for (int i = 0; i <= static_cast<int>(st::cpu::kHighestCpuIsa); ++i)
      names += std::string(i ? ", " : "") + st::cpu::cpu_isa_name(static_cast<CpuIsa>(i));
    bench::die("--level wants one of this build's levels (%s), got '%s'", names.c_str(), name.c_str());
  }
  const CpuIsa highest = st::cpu::detected_cpu_isa();
  if (isa > highest)
    bench::die("--level %s: this CPU runs at most level %s", name.c_str(), st::cpu::cpu_isa_name(highest));
  st::cpu::set_cpu_isa_cap(isa);
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

std::string pages_text(const std::vector<bench::Pages>& pages) {
  std::string s;
  for (bench::Pages p : pages) {
    s += s.empty() ? "" : "; ";
    s += p == bench::Pages::Huge
             ? "huge: each destination from st_tensor_create (2 MiB-aligned, MADV_HUGEPAGE from 4 MiB up), the "
               "best copy's buffers 2 MiB-aligned, MADV_HUGEPAGE"
             : "4k: each destination and the best copy's destination on 4 KiB pages (MADV_NOHUGEPAGE), "
               "written before; sources on huge pages";
  }
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
  using bench::print_wrapped;
  print_wrapped("stride-bench: ", std::string("stride ") + st_version_string() + ", compiler " + __VERSION__ +
                                      ", assertions " + assertions + ", library threading " + threading);
  print_wrapped("date:         ", date);
  char memory[64];
  std::snprintf(memory, sizeof memory, "%.1f", m.memory_gib);
  print_wrapped("cpu:          ",
                m.cpu_model + ", " + std::to_string(m.cores) + " cores usable, " + memory + " GiB memory");
  print_wrapped("isa:          ", m.isa_flags);
  const st::cpu::CpuIsa level = st::cpu::cpu_isa(), highest = st::cpu::detected_cpu_isa();
  print_wrapped("level:        ", std::string(st::cpu::cpu_isa_name(level)) +
                                      (level == highest ? " (the kernels' instruction set: this CPU's highest)"
                                                        : std::string(" (the kernels' instruction set; this CPU's "
                                                                      "highest is ") +
                                                              st::cpu::cpu_isa_name(highest) + ")"));
  print_wrapped("huge pages:   ", "transparent: " + m.transparent_hugepages);
  print_wrapped("load average: ",
                bench::load_average_text() + " at the start (the machine may be shared: load slows every figure)");
  print_wrapped("threads:      ", join_ints(args.options.thread_counts) +
                                      " (st_set_num_threads; the library's default is " +
                                      std::to_string(default_threads) + ")");
  print_wrapped("pages:        ", pages_text(args.options.pages));
  print_wrapped("NT copy:      ", bench::nt_copy_variant());
  if (args.options.quick) {
    print_wrapped("sizes:        ", "--quick: tiny sizes, 2 repetitions (a smoke test: the figures mean nothing)");
  } else if (args.options.reps > 0) {
    print_wrapped("sizes:        ", "the full sizes of every case; " + std::to_string(args.options.reps) +
                                       " timed repetitions per measurement");
  } else {
    print_wrapped("sizes:        ", "the full sizes of every case; 3 to 9 timed repetitions per measurement");
  }
  bench::print_definitions(bench::ReportFormat{args.wide, args.options.pages});
}

}  // namespace

int main(int argc, char** argv) {
  const bench::Machine machine = bench::read_machine();
  const Args args = parse_args(argc, argv, machine.cores);
  if (args.cuda) return bench::run_cuda(args.options, args.filters, args.csv_path, args.list);

  std::vector<bench::Case> all = bench::cases();
  std::sort(all.begin(), all.end(),
            [](const bench::Case& a, const bench::Case& b) { return bench::natural_less(a.name, b.name); });
  if (args.list) {
    size_t width = 0;
    for (const bench::Case& c : all) width = std::max(width, std::strlen(c.name));
    for (const bench::Case& c : all) {
      std::string name = c.name;
      bench::print_wrapped(name + std::string(width + 1 - name.size(), ' '), c.summary);
    }
    return 0;
  }
  std::vector<bench::Case> chosen;
  for (const bench::Case& c : all) {
    if (selected(c, args.filters)) chosen.push_back(c);
  }
  if (chosen.empty()) bench::die("no case matches --filter (see --list)");
  if (!args.level.empty()) choose_level(args.level);

  const int default_threads = st_get_num_threads();
  print_header(args, machine, default_threads);

  std::vector<bench::BandwidthRow> bandwidth;
  std::vector<bench::CallRow> calls;
  const int64_t start = bench::now_ns();
  for (size_t i = 0; i < chosen.size(); ++i) {
    const bench::Case& c = chosen[i];
    bench::print_wrapped("[" + std::to_string(i + 1) + "/" + std::to_string(chosen.size()) + "] ",
                         std::string(c.name) + ": " + c.summary, stderr);
    const int64_t t0 = bench::now_ns();
    bench::Table table(c.name);
    c.run(table, args.options);
    bench::check(st_set_num_threads(default_threads), "st_set_num_threads");
    bandwidth.insert(bandwidth.end(), table.bandwidth().begin(), table.bandwidth().end());
    calls.insert(calls.end(), table.calls().begin(), table.calls().end());
    std::fprintf(stderr, "[%zu/%zu] %s done in %.1f s (load average %s)\n", i + 1, chosen.size(), c.name,
                 static_cast<double>(bench::now_ns() - t0) * 1e-9, bench::load_average_text().c_str());
  }

  bench::print_bandwidth_table(bandwidth, bench::ReportFormat{args.wide, args.options.pages});
  bench::print_call_table(calls);
  bench::print_summary(bandwidth, args.options);
  std::printf("\nload average: %s at the end; %.1f s in all\n", bench::load_average_text().c_str(),
              static_cast<double>(bench::now_ns() - start) * 1e-9);
  std::printf("peak memory:  %.2f GiB resident (getrusage ru_maxrss)\n", bench::peak_resident_gib());
  if (!args.csv_path.empty()) {
    bench::write_csv(args.csv_path, bandwidth, calls);
    std::printf("CSV written to %s\n", args.csv_path.c_str());
  }
  return 0;
}
