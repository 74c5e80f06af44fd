// stride-bench [case ...]: runs the named cases (all without arguments) and
// prints one table of their measurements. `stride-bench --list` names them.
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "bench.h"

namespace bench {

std::vector<Case>& cases() {
  static std::vector<Case> all;
  return all;
}

}  // namespace bench

namespace {

bool selected(const char* name, int argc, char** argv) {
  if (argc <= 1) return true;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], name) == 0) return true;
  }
  return false;
}

void print_table(const std::vector<bench::Row>& rows) {
  size_t case_width = 4, measurement_width = 11;
  for (const bench::Row& r : rows) {
    case_width = std::max(case_width, r.case_name.size());
    measurement_width = std::max(measurement_width, r.measurement.size());
  }
  const int cw = static_cast<int>(case_width), mw = static_cast<int>(measurement_width);
  std::printf("%-*s  %-*s  %12s  %s\n", cw, "case", mw, "measurement", "value", "unit");
  for (const bench::Row& r : rows) {
    std::printf("%-*s  %-*s  %12.2f  %s\n", cw, r.case_name.c_str(), mw, r.measurement.c_str(), r.value,
                r.unit.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const bench::Case& c : bench::cases()) std::printf("%-20s %s\n", c.name, c.summary);
    return 0;
  }
  for (int i = 1; i < argc; ++i) {
    bool known = false;
    for (const bench::Case& c : bench::cases()) known = known || std::strcmp(c.name, argv[i]) == 0;
    if (!known) {
      std::fprintf(stderr, "stride-bench: no case named %s (see --list)\n", argv[i]);
      return 2;
    }
  }
  std::vector<bench::Row> rows;
  for (const bench::Case& c : bench::cases()) {
    if (!selected(c.name, argc, argv)) continue;
    bench::Table table(c.name);
    c.run(table);
    rows.insert(rows.end(), table.rows().begin(), table.rows().end());
  }
  print_table(rows);
  return 0;
}
