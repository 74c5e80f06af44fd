#include "cells.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace bench {

double gbps(int64_t bytes, double ms) { return static_cast<double>(bytes) / (ms * 1e-3) / 1e9; }

std::string fixed(double v, int decimals) {
  if (std::isnan(v)) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

std::string fit_cell(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && *end == '\0') {
    char shorter[64];
    for (int decimals = 1; decimals >= 0; --decimals) {
      std::snprintf(shorter, sizeof shorter, "%.*f", decimals, v);
      if (std::strlen(shorter) <= width) return shorter;
    }
    std::snprintf(shorter, sizeof shorter, "%.0e", v);
    if (std::strlen(shorter) <= width) return shorter;
  }
  return text.substr(0, width - 1) + "~";
}

std::string fit_label(const std::string& label, size_t width) {
  if (label.size() <= width) return label;
  const size_t space = label.rfind(' ');
  if (space != std::string::npos && space <= width) return label.substr(0, space);
  return fit_cell(label, width);
}

std::string padded(const std::string& text, int width) {
  const size_t w = static_cast<size_t>(std::abs(width));
  if (text.size() >= w) return text;
  const std::string fill(w - text.size(), ' ');
  return width < 0 ? text + fill : fill + text;
}

std::string case_id(const std::string& label) { return label.substr(0, label.find(' ')); }

bool natural_less(const std::string& a, const std::string& b) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      size_t ei = i, ej = j;
      while (ei < a.size() && digit(a[ei])) ++ei;
      while (ej < b.size() && digit(b[ej])) ++ej;
      // Leading zeros aside, the longer run is the larger number.
      size_t si = i, sj = j;
      while (si + 1 < ei && a[si] == '0') ++si;
      while (sj + 1 < ej && b[sj] == '0') ++sj;
      if (ei - si != ej - sj) return ei - si < ej - sj;
      const int order = a.compare(si, ei - si, b, sj, ej - sj);
      if (order != 0) return order < 0;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

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

}  // namespace bench
