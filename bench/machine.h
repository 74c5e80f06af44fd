// Facts about the machine and the run, printed above the tables so that
// figures from different machines or loads are not compared blindly.
#pragma once

#include <string>
#include <vector>

namespace bench {

struct Machine {
  std::string cpu_model;
  int cores = 0;                      // hardware threads this process may run on
  std::string isa_flags;              // the vector and copy-related ones the CPU reports
  std::string transparent_hugepages;  // the kernel's setting, e.g. "always [madvise] never"
  double memory_gib = 0;
};

Machine read_machine();

// The 1-, 5- and 15-minute load averages as "3.32 4.20 3.49" ("?" when unknown).
std::string load_average_text();

// The most memory this process has had resident so far, in GiB (the
// kernel's high-water mark, getrusage's ru_maxrss); NaN when unknown.
double peak_resident_gib();

}  // namespace bench
