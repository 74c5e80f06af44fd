// Short texts for the table's case labels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bench {

// "(8192,8192)".
inline std::string dims_text(const std::vector<int64_t>& sizes) {
  std::string s = "(";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? "," : "") + std::to_string(sizes[i]);
  return s + ")";
}

// "64M" for a multiple of 2^20 elements, else the number.
inline std::string count_text(int64_t n) {
  if (n > 0 && n % (int64_t{1} << 20) == 0) return std::to_string(n >> 20) + "M";
  return std::to_string(n);
}

}  // namespace bench
