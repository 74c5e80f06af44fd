// The text of table cells and CSV fields, shared by the CPU report
// (report.cpp) and the GPU one (cuda_report.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bench {

// GB (10^9 bytes) per second.
double gbps(int64_t bytes, double ms);

// `v` with `decimals` decimals; "-" for NaN (a baseline that does not apply).
std::string fixed(double v, int decimals);

// `text` in at most `width` characters: a number loses decimals, then
// turns to powers of ten; other text is cut, with '~' marking the cut. A
// noisy figure (a --quick run on a busy machine) may be wide; the table
// stays aligned.
std::string fit_cell(const std::string& text, size_t width);

// `label` in at most `width` characters: without its sizes (its last word)
// when it is longer, then cut, with '~' marking the cut.
std::string fit_label(const std::string& label, size_t width);

// `text` padded with spaces to |width|: on the right when width < 0
// (left-aligned), else on the left.
std::string padded(const std::string& text, int width);

// "D" for "D transpose (8192,8192)": the case's letter and number.
std::string case_id(const std::string& label);

// Natural order of case names and labels: runs of digits compare as
// numbers, so I2 comes before I10 (and "I1 " before "I10").
bool natural_less(const std::string& a, const std::string& b);

// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& s);

// A CSV number, 6 significant digits; empty for NaN.
std::string csv_number(double v);

}  // namespace bench
