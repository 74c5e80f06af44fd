// The decimal text of a binary float, digit for digit as NumPy writes it:
// the shortest digits that read back as the same float16, float32 or
// float64 (Dragon4 in its "unique" mode), cut or padded to a precision, in
// positional (0.00123) or scientific (1.23e-03) notation. These are
// numpy.format_float_positional and numpy.format_float_scientific, which
// NumPy's array printing calls (Note [Printing floats as NumPy does]).
#pragma once

#include <cstdint>
#include <string>

#include "core/numeric/scalar_types.h"

namespace st {

// A finite float as Dragon4 reads it: |value| = mantissa * 2^exponent.
struct BinaryFloat {
  uint64_t mantissa = 0;  // 0 for a zero of either sign
  int32_t exponent = 0;
  int32_t mantissa_bit = 0;      // the index of mantissa's highest set bit
  bool unequal_margins = false;  // a power of two above the smallest normal: the float below is nearer than the one above
  bool negative = false;         // the sign bit (-0.0 included)
};

// The parts of a finite value; NaN and infinities are the caller's to print.
BinaryFloat binary_float(Half v);
BinaryFloat binary_float(float v);
BinaryFloat binary_float(double v);

// NumPy's arguments of format_float_positional / format_float_scientific,
// always with unique=True; -1 leaves a limit out.
struct FloatTextOptions {
  int32_t precision = -1;   // at most this many digits after the point
  int32_t min_digits = -1;  // at least this many (the exact value's digits beyond the shortest)
  bool sign = false;        // '+' before a value whose sign bit is clear
  bool keep_zeros = false;  // trim='k': keep trailing zeros of the fraction; else trim='.'
  int32_t pad_left = -1;    // spaces before, up to this many characters left of the point
  int32_t pad_right = -1;   // positional: spaces after, up to this many characters right of the point
  int32_t exp_digits = -1;  // scientific: at least this many exponent digits (-1: 2)
};

// numpy.format_float_positional(x, precision, unique=True, fractional=True, trim, sign, pad_left, pad_right,
// min_digits): "123.45", "0.001", "1e22" written out as "10000000000000000000000.".
std::string positional_text(const BinaryFloat& x, const FloatTextOptions& o);

// numpy.format_float_scientific(x, precision, unique=True, trim, sign, pad_left, exp_digits, min_digits):
// "1.2345e+02".
std::string scientific_text(const BinaryFloat& x, const FloatTextOptions& o);

}  // namespace st
