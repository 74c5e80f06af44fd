// Note [Printing floats as NumPy does]
// NumPy prints a float with Dragon4 (Steele and White, 1990, in the form
// of Burger and Dybvig, 1996, as Ryan Juckett wrote it and NumPy adapted
// it: numpy/core/src/multiarray/dragon4.c): the value and the half-gaps
// to its neighbours become big integers over a common scale, and digits
// come out one at a time until the digits so far, rounded, can only read
// back as this float (or a cutoff is reached). Two of NumPy's choices
// decide digits and are kept here: a cutoff stops generation and the last
// digit is rounded from the exact remainder (half to even), so precision 8
// gives 0.12345679 for float32(0.123456789); and min_digits keeps
// generating past the shortest digits (the exact value's), which is how
// NumPy pads scientific columns (1.5 beside 1.2345 prints 1.5000e+00 from
// its exact digits, not the shortest) and why a positional float of 1 or
// more prints every integer digit exactly. The shortest digits of float16
// are those that read back as the same float16, not as the same float32,
// so each format goes through its own mantissa and exponent. Rather than
// prove a faster algorithm (Ryu, std::to_chars) equal to Dragon4 in the
// corner cases (ties, powers of two, cutoffs), the algorithm itself is
// written here; tests/numpy/test_numpy_format.py compares the results with
// NumPy's text over every float16 and many float32 and float64 values.
#include "core/numeric/float_text.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/macros.h"

namespace st {
namespace {

// An unsigned integer in 32-bit blocks, least significant first, with no
// zero block on top. The largest value Dragon4 holds is a margin of
// float64's largest finite value, 2^971, multiplied by ten for each of the
// 309 integer digits a positional print writes out: below 2^2000, so 64
// blocks would do; a bigger value is a bug and throws instead of writing
// past the end.
class BigUint {
 public:
  static constexpr int kCapacity = 72;

  explicit BigUint(uint64_t v = 0) {
    while (v != 0) {
      block_[size_++] = static_cast<uint32_t>(v);
      v >>= 32;
    }
  }

  static BigUint power_of_two(int64_t n) {
    BigUint r(1);
    r.shift_left(n);
    return r;
  }

  bool is_zero() const { return size_ == 0; }

  void shift_left(int64_t n) {
    if (size_ == 0 || n == 0) return;
    const int64_t blocks = n / 32;
    const int bits = static_cast<int>(n % 32);
    grow_to(size_ + blocks + 1);
    for (int i = size_ - 1; i >= 0; --i) {
      const uint64_t v = static_cast<uint64_t>(block_[i]) << bits;
      block_[i + blocks + 1] |= static_cast<uint32_t>(v >> 32);
      block_[i + blocks] = static_cast<uint32_t>(v);
    }
    for (int64_t i = 0; i < blocks; ++i) block_[i] = 0;
    size_ += static_cast<int>(blocks) + 1;
    trim();
  }

  void multiply(uint32_t m) {
    uint64_t carry = 0;
    for (int i = 0; i < size_; ++i) {
      const uint64_t p = static_cast<uint64_t>(block_[i]) * m + carry;
      block_[i] = static_cast<uint32_t>(p);
      carry = p >> 32;
    }
    if (carry != 0) {
      grow_to(size_ + 1);
      block_[size_++] = static_cast<uint32_t>(carry);
    }
  }

  void multiply_by_power_of_ten(int64_t n) {
    static constexpr uint32_t kPowers[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
    for (; n >= 9; n -= 9) multiply(1000000000u);
    multiply(kPowers[n]);
  }

  void add(const BigUint& b) {
    const int n = std::max(size_, b.size_);
    grow_to(n + 1);
    uint64_t carry = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t s = static_cast<uint64_t>(i < size_ ? block_[i] : 0) + (i < b.size_ ? b.block_[i] : 0) + carry;
      block_[i] = static_cast<uint32_t>(s);
      carry = s >> 32;
    }
    size_ = n;
    if (carry != 0) block_[size_++] = static_cast<uint32_t>(carry);
  }

  // *this -= b, for b <= *this.
  void subtract(const BigUint& b) {
    int64_t borrow = 0;
    for (int i = 0; i < size_; ++i) {
      const int64_t d = static_cast<int64_t>(block_[i]) - (i < b.size_ ? b.block_[i] : 0) - borrow;
      block_[i] = static_cast<uint32_t>(d);
      borrow = d < 0 ? 1 : 0;
    }
    trim();
  }

  // The quotient of *this / divisor, at most 9 here (Dragon4's next digit);
  // *this becomes the remainder.
  uint32_t divide_to_digit(const BigUint& divisor) {
    uint32_t q = 0;
    while (compare(*this, divisor) >= 0) {
      subtract(divisor);
      ++q;
    }
    return q;
  }

  friend int compare(const BigUint& a, const BigUint& b) {
    if (a.size_ != b.size_) return a.size_ < b.size_ ? -1 : 1;
    for (int i = a.size_ - 1; i >= 0; --i) {
      if (a.block_[i] != b.block_[i]) return a.block_[i] < b.block_[i] ? -1 : 1;
    }
    return 0;
  }

 private:
  void grow_to(int64_t n) {
    ST_CHECK(n <= kCapacity, ST_ERROR_INTERNAL, "printing a float needs a number of %lld bits, more than %d",
             static_cast<long long>(32 * n), 32 * kCapacity);
    for (int i = size_; i < n; ++i) block_[i] = 0;
  }
  void trim() {
    while (size_ > 0 && block_[size_ - 1] == 0) --size_;
  }

  int size_ = 0;
  uint32_t block_[kCapacity];
};

// How Dragon4's cutoffs count: digits after the point (positional) or
// digits in all (scientific).
enum class Cutoff { AfterPoint, Total };

struct Digits {
  std::string digits;    // no leading zero; "0" for a zero
  int64_t exponent = 0;  // the power of ten of the first digit
};

// Dragon4 in unique mode (Note [Printing floats as NumPy does]): at most
// max_digits and at least min_digits, counted as `mode` says (-1: no
// limit), then the last digit rounded.
Digits dragon4(const BinaryFloat& f, Cutoff mode, int64_t max_digits, int64_t min_digits) {
  Digits out;
  if (f.mantissa == 0) {
    out.digits = "0";
    return out;
  }
  // value = mantissa * 2^exponent = scaled / scale, and the half-gaps to the
  // neighbouring floats are low / scale and high / scale; all doubled (and
  // doubled again when the gaps differ) so that they are integers.
  BigUint scaled(f.mantissa), scale, low;
  const int64_t extra = f.unequal_margins ? 2 : 1;
  if (f.exponent > 0) {
    scaled.shift_left(f.exponent + extra);
    scale = BigUint(uint64_t{1} << extra);
    low = BigUint::power_of_two(f.exponent);
  } else {
    scaled.shift_left(extra);
    scale = BigUint::power_of_two(-static_cast<int64_t>(f.exponent) + extra);
    low = BigUint(1);
  }
  BigUint high = low;
  if (f.unequal_margins) high.multiply(2);

  // An estimate of the first digit's power of ten plus one, exact or one
  // too small (Burger and Dybvig), computed as NumPy does.
  const double log10_2 = 0.30102999566398119521373889472449;
  int64_t digit_exponent =
      static_cast<int64_t>(std::ceil(static_cast<double>(f.mantissa_bit + f.exponent) * log10_2 - 0.69));
  if (max_digits >= 0 && mode == Cutoff::AfterPoint && digit_exponent <= -max_digits) {
    digit_exponent = -max_digits + 1;  // below the cutoff: start at it, to round there
  }
  if (digit_exponent > 0) {
    scale.multiply_by_power_of_ten(digit_exponent);
  } else if (digit_exponent < 0) {
    scaled.multiply_by_power_of_ten(-digit_exponent);
    low.multiply_by_power_of_ten(-digit_exponent);
    high.multiply_by_power_of_ten(-digit_exponent);
  }
  if (compare(scaled, scale) >= 0) {
    ++digit_exponent;
  } else {
    scaled.multiply(10);
    low.multiply(10);
    high.multiply(10);
  }

  // Digits stop at the power of ten stop_at (the cutoff) and, once they
  // read back as the float, at go_on_to or after it.
  int64_t stop_at = INT64_MIN;
  if (max_digits >= 0) stop_at = mode == Cutoff::Total ? digit_exponent - max_digits : -max_digits;
  int64_t go_on_to = digit_exponent;
  if (min_digits >= 0) {
    go_on_to = std::min(go_on_to, mode == Cutoff::Total ? digit_exponent - min_digits : -min_digits);
  }
  out.exponent = digit_exponent - 1;

  // A value at a gap's end reads back as this float only when the float's
  // mantissa is even (round-half-even reading), as Burger and Dybvig.
  const bool even = (f.mantissa & 1) == 0;
  uint32_t digit = 0;
  bool near_low = false, near_high = false;
  for (;;) {
    --digit_exponent;
    digit = scaled.divide_to_digit(scale);
    BigUint scaled_high = scaled;
    scaled_high.add(high);
    const int cl = compare(scaled, low);
    const int ch = compare(scaled_high, scale);
    near_low = even ? cl <= 0 : cl < 0;
    near_high = even ? ch >= 0 : ch > 0;
    if (((near_low || near_high) && digit_exponent <= go_on_to) || digit_exponent == stop_at) break;
    out.digits += static_cast<char>('0' + digit);
    scaled.multiply(10);
    low.multiply(10);
    high.multiply(10);
  }

  // The last digit: down when only rounding down reads back, up when only
  // up does, else to the nearer of the two (half to even).
  bool round_down = near_low;
  if (near_low == near_high) {
    scaled.multiply(2);
    const int c = compare(scaled, scale);
    round_down = c < 0 || (c == 0 && digit % 2 == 0);
  }
  if (round_down) {
    out.digits += static_cast<char>('0' + digit);
  } else if (digit < 9) {
    out.digits += static_cast<char>('0' + digit + 1);
  } else {
    // 9 rounds up into the digits before it: ...d99 -> ...(d+1), 999 -> 1 at the next power of ten.
    while (!out.digits.empty() && out.digits.back() == '9') out.digits.pop_back();
    if (out.digits.empty()) {
      out.digits = "1";
      ++out.exponent;
    } else {
      ++out.digits.back();
    }
  }
  return out;
}

char sign_char(const BinaryFloat& x, const FloatTextOptions& o) { return x.negative ? '-' : o.sign ? '+' : '\0'; }

// The fraction digits after the point at the end of `text`, `count` of
// them: zeros appended up to min_digits, or trailing zeros removed.
int64_t finish_fraction(std::string& text, int64_t count, const FloatTextOptions& o) {
  if (o.keep_zeros) {
    const int64_t wanted = std::max<int64_t>(o.min_digits, 0);
    if (wanted > count) {
      text.append(static_cast<size_t>(wanted - count), '0');
      count = wanted;
    }
  } else {
    while (count > 0 && text.back() == '0') {
      text.pop_back();
      --count;
    }
  }
  return count;
}

template <int kExponentBits, int kMantissaBits>
BinaryFloat from_bits(uint64_t bits) {
  const uint64_t mantissa = bits & ((uint64_t{1} << kMantissaBits) - 1);
  const int32_t biased = static_cast<int32_t>((bits >> kMantissaBits) & ((1u << kExponentBits) - 1));
  const int32_t bias = (1 << (kExponentBits - 1)) - 1;
  BinaryFloat f;
  f.negative = ((bits >> (kExponentBits + kMantissaBits)) & 1) != 0;
  if (biased != 0) {
    f.mantissa = mantissa | (uint64_t{1} << kMantissaBits);
    f.exponent = biased - bias - kMantissaBits;
    f.mantissa_bit = kMantissaBits;
    f.unequal_margins = biased != 1 && mantissa == 0;
  } else {  // zero or subnormal
    f.mantissa = mantissa;
    f.exponent = 1 - bias - kMantissaBits;
    f.mantissa_bit = mantissa != 0 ? 63 - leading_zeros64(mantissa) : 0;
  }
  return f;
}

}  // namespace

BinaryFloat binary_float(Half v) { return from_bits<5, 10>(v.bits); }
BinaryFloat binary_float(float v) { return from_bits<8, 23>(detail::float_to_bits(v)); }
BinaryFloat binary_float(double v) { return from_bits<11, 52>(detail::double_to_bits(v)); }

std::string positional_text(const BinaryFloat& x, const FloatTextOptions& o) {
  std::string text;
  const char sign = sign_char(x, o);
  if (sign != '\0') text += sign;
  const Digits d = dragon4(x, Cutoff::AfterPoint, o.precision, o.min_digits);
  const int64_t n = static_cast<int64_t>(d.digits.size());
  int64_t whole = 1, fraction = 0;
  if (d.exponent >= 0) {
    whole = d.exponent + 1;
    if (n <= whole) {
      text += d.digits;
      text.append(static_cast<size_t>(whole - n), '0');
      text += '.';
    } else {
      text.append(d.digits, 0, static_cast<size_t>(whole));
      text += '.';
      text.append(d.digits, static_cast<size_t>(whole), std::string::npos);
      fraction = n - whole;
    }
  } else {
    const int64_t zeros = -(d.exponent + 1);
    text += "0.";
    text.append(static_cast<size_t>(zeros), '0');
    text += d.digits;
    fraction = zeros + n;
  }
  fraction = finish_fraction(text, fraction, o);
  if (o.pad_right >= fraction) text.append(static_cast<size_t>(o.pad_right - fraction), ' ');
  const int64_t left = whole + (sign != '\0' ? 1 : 0);
  if (o.pad_left > left) text.insert(0, static_cast<size_t>(o.pad_left - left), ' ');
  return text;
}

std::string scientific_text(const BinaryFloat& x, const FloatTextOptions& o) {
  std::string text;
  const char sign = sign_char(x, o);
  const int32_t left = sign != '\0' ? 2 : 1;
  if (o.pad_left > left) text.append(static_cast<size_t>(o.pad_left - left), ' ');
  if (sign != '\0') text += sign;
  const Digits d = dragon4(x, Cutoff::Total, o.precision < 0 ? -1 : int64_t{o.precision} + 1,
                           o.min_digits < 0 ? -1 : int64_t{o.min_digits} + 1);
  text += d.digits[0];
  text += '.';
  text.append(d.digits, 1, std::string::npos);
  finish_fraction(text, static_cast<int64_t>(d.digits.size()) - 1, o);
  text += 'e';
  text += d.exponent < 0 ? '-' : '+';
  const std::string e = std::to_string(d.exponent < 0 ? -d.exponent : d.exponent);
  const size_t width = o.exp_digits < 0 ? 2 : static_cast<size_t>(std::min(o.exp_digits, int32_t{5}));
  if (e.size() < width) text.append(width - e.size(), '0');
  text += e;
  return text;
}

}  // namespace st
