#include "machine.h"

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

namespace bench {
namespace {

// The value after "key<spaces>:" on the first matching line of /proc/cpuinfo.
std::string cpuinfo_value(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const size_t start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return std::string();
}

std::string first_line(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

}  // namespace

Machine read_machine() {
  Machine m;
  m.cpu_model = cpuinfo_value("model name");
  if (m.cpu_model.empty()) m.cpu_model = "unknown";

  cpu_set_t set;
  CPU_ZERO(&set);
  m.cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                        : static_cast<int>(std::thread::hardware_concurrency());
  if (m.cores < 1) m.cores = 1;

  // The flags that decide which copy and conversion instructions exist.
  static const char* const kInteresting[] = {"sse4_2",      "avx",         "avx2",    "fma",      "f16c",
                                             "erms",        "fsrm",        "avx512f", "avx512bw", "avx512vl",
                                             "avx512_bf16", "avx512_fp16", "movdiri", "movdir64b"};
  const std::string have = " " + cpuinfo_value("flags") + " ";
  for (const char* f : kInteresting) {
    if (have.find(" " + std::string(f) + " ") == std::string::npos) continue;
    m.isa_flags += (m.isa_flags.empty() ? "" : " ") + std::string(f);
  }
  if (m.isa_flags.empty()) m.isa_flags = "none of the listed (or /proc/cpuinfo unreadable)";

  m.transparent_hugepages = first_line("/sys/kernel/mm/transparent_hugepage/enabled");
  if (m.transparent_hugepages.empty()) m.transparent_hugepages = "unknown";

  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0)
    m.memory_gib = static_cast<double>(pages) * static_cast<double>(page_size) / (1 << 30);
  return m;
}

std::string load_average_text() {
  double load[3];
  if (getloadavg(load, 3) != 3) return "?";
  char text[64];
  std::snprintf(text, sizeof text, "%.2f %.2f %.2f", load[0], load[1], load[2]);
  return text;
}

double peak_resident_gib() {
  rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) != 0) return NAN;
  return static_cast<double>(usage.ru_maxrss) / (1 << 20);  // Linux counts KiB
}

}  // namespace bench
