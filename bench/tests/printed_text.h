// What the bench's report functions print, captured for the tests of
// bench/tests: the text a print function writes to a FILE, split into
// lines, checked against the report's width.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "report.h"
// Last: cmocka defines a fail() macro.
#include "cmocka_cxx.h"

// The rest of `f`, which this closes.
inline std::string read_all(std::FILE* f) {
  assert_non_null(f);
  std::string text;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) text.append(buffer, n);
  std::fclose(f);
  return text;
}

// What `print` writes, through a temporary file.
template <typename Print>
std::string printed(Print print) {
  std::FILE* f = std::tmpfile();
  assert_non_null(f);
  print(f);
  std::fflush(f);
  std::rewind(f);
  return read_all(f);
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return lines;
}

// Fails the test when a line of `text` is wider than the report allows.
inline void expect_within_columns(const std::string& text) {
  for (const std::string& line : lines_of(text)) {
    if (line.size() > static_cast<size_t>(bench::kColumns)) {
      print_error("%zu columns: %s\n", line.size(), line.c_str());
      fail();
    }
  }
}
