// NumPy 1.x's element formatters (numpy/core/arrayprint.py), for the
// values of one printed array, in its default mode: floatmode 'maxprec',
// no suppression of small values, sign '-'.
#include "ops/format_elements.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/error.h"
#include "core/numeric/dtype.h"
#include "core/numeric/float_text.h"
#include "core/numeric/scalar_types.h"

namespace st {
namespace ops {
namespace {

// A value of a float dtype as a double (exactly), its magnitude, and the
// quotient of two of them rounded as NumPy's scalar division of that dtype
// rounds it: float16 divides in float32 and rounds the result to float16.
double widen(double v) { return v; }
double widen(float v) { return v; }
double widen(Half v) { return half_to_float(v); }
double magnitude(double v) { return std::fabs(v); }
float magnitude(float v) { return std::fabs(v); }
Half magnitude(Half v) { return Half{static_cast<uint16_t>(v.bits & 0x7FFFu)}; }
double quotient(double a, double b) { return a / b; }
double quotient(float a, float b) { return a / b; }
double quotient(Half a, Half b) { return half_to_float(float_to_half(half_to_float(a) / half_to_float(b))); }

// FloatingFormat: one notation for every value of the array, chosen from
// its finite values (scientific when a nonzero magnitude reaches 1e8 or
// falls below 1e-4, or the largest exceeds 1000 times the smallest), and
// the widths left and right of the point that fit them all, widened so
// that "nan" and "inf" (and "-inf", or a sign always shown) fit too.
template <typename T>
class FloatFormat {
 public:
  FloatFormat(const std::vector<T>& values, int32_t precision, bool sign) : sign_(sign) {
    std::vector<T> finite;
    for (T v : values) {
      if (std::isfinite(widen(v))) finite.push_back(v);
    }
    bool any_nonzero = false;
    T largest{}, smallest{};
    for (T v : finite) {
      const T m = magnitude(v);
      if (widen(m) == 0) continue;
      if (!any_nonzero || widen(m) > widen(largest)) largest = m;
      if (!any_nonzero || widen(m) < widen(smallest)) smallest = m;
      any_nonzero = true;
    }
    scientific_ = any_nonzero && (widen(largest) >= 1e8 || widen(smallest) < 0.0001 ||
                                  quotient(largest, smallest) > 1000.0);
    FloatTextOptions first;  // the shortest digits of each value, to measure
    first.precision = precision;
    first.sign = sign;
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
    } else if (scientific_) {
      size_t left = 0, fraction = 0, exponent = 0;
      for (T v : finite) {
        const std::string s = scientific_text(binary_float(v), first);
        const size_t point = s.find('.'), e = s.find('e');
        left = std::max(left, point);
        fraction = std::max(fraction, e - point - 1);
        exponent = std::max(exponent, s.size() - e - 2);  // its digits, without the sign
      }
      text_.precision = text_.min_digits = static_cast<int32_t>(fraction);
      text_.keep_zeros = true;
      text_.exp_digits = static_cast<int32_t>(exponent);
      pad_left_ = static_cast<int32_t>(left);
      pad_right_ = static_cast<int32_t>(exponent + 2 + fraction);
    } else {
      size_t left = 0, right = 0;
      for (T v : finite) {
        const std::string s = positional_text(binary_float(v), first);
        const size_t point = s.find('.');
        left = std::max(left, point);
        right = std::max(right, s.size() - point - 1);
      }
      text_.precision = precision;
      text_.min_digits = 0;
      pad_left_ = static_cast<int32_t>(left);
      pad_right_ = static_cast<int32_t>(right);
      text_.pad_right = pad_right_;
    }
    if (finite.size() != values.size()) {
      bool wide_inf = sign;
      for (T v : values) wide_inf = wide_inf || widen(v) == -INFINITY;
      const int32_t after = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, 3 - after, 3 + (wide_inf ? 1 : 0) - after});
    }
    text_.sign = sign;
    text_.pad_left = pad_left_;
  }

  std::string operator()(T v) const {
    const double d = widen(v);
    if (std::isfinite(d)) return scientific_ ? scientific_text(binary_float(v), text_) : positional_text(binary_float(v), text_);
    std::string word = std::isnan(d) ? (sign_ ? "+nan" : "nan") : (d < 0 ? "-inf" : sign_ ? "+inf" : "inf");
    const int32_t width = pad_left_ + pad_right_ + 1;
    if (width > static_cast<int32_t>(word.size())) word.insert(0, static_cast<size_t>(width) - word.size(), ' ');
    return word;
  }

 private:
  bool sign_;
  bool scientific_ = false;
  int32_t pad_left_ = 0, pad_right_ = 0;
  FloatTextOptions text_;
};

template <typename T>
std::vector<std::string> float_texts(const T* p, size_t n, int32_t precision) {
  const std::vector<T> values(p, p + n);
  const FloatFormat<T> format(values, precision, false);
  std::vector<std::string> out;
  out.reserve(n);
  for (T v : values) out.push_back(format(v));
  return out;
}

// ComplexFloatingFormat: the real parts as one float column, the imaginary
// parts as another that always shows its sign, and "j" before the padding.
template <typename T>
std::vector<std::string> complex_texts(const complex<T>* p, size_t n, int32_t precision) {
  std::vector<T> re(n), im(n);
  for (size_t i = 0; i < n; ++i) {
    re[i] = p[i].re;
    im[i] = p[i].im;
  }
  const FloatFormat<T> real(re, precision, false), imag(im, precision, true);
  std::vector<std::string> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    const std::string b = imag(im[i]);
    const size_t end = b.find_last_not_of(' ') + 1;
    out.push_back(real(re[i]) + b.substr(0, end) + 'j' + b.substr(end));
  }
  return out;
}

// IntegerFormat: right-aligned to the wider of the largest and the smallest.
template <typename I>
std::vector<std::string> integer_texts(const I* p, size_t n) {
  std::vector<std::string> out;
  out.reserve(n);
  if (n == 0) return out;
  const auto range = std::minmax_element(p, p + n);
  const size_t width = std::max(std::to_string(*range.first).size(), std::to_string(*range.second).size());
  for (size_t i = 0; i < n; ++i) {
    std::string s = std::to_string(p[i]);
    if (s.size() < width) s.insert(0, width - s.size(), ' ');
    out.push_back(std::move(s));
  }
  return out;
}

// BoolFormat: " True" beside "False" in an array, "True" alone in a 0-d one.
std::vector<std::string> bool_texts(const uint8_t* p, size_t n, bool zero_dim) {
  std::vector<std::string> out;
  out.reserve(n);
  for (size_t i = 0; i < n; ++i) out.push_back(p[i] != 0 ? (zero_dim ? "True" : " True") : "False");
  return out;
}

}  // namespace

std::vector<std::string> element_texts(const Tensor& values, int32_t precision) {
  const size_t n = static_cast<size_t>(values.numel());
  const void* p = values.data();
  switch (values.dtype()) {
    case ScalarType::Bool:
      return bool_texts(static_cast<const uint8_t*>(p), n, values.ndim() == 0);
    case ScalarType::Int64:
      return integer_texts(static_cast<const int64_t*>(p), n);
    case ScalarType::UInt64:
      return integer_texts(static_cast<const uint64_t*>(p), n);
    case ScalarType::Float16:
      return float_texts(static_cast<const Half*>(p), n, precision);
    case ScalarType::Float32:
      return float_texts(static_cast<const float*>(p), n, precision);
    case ScalarType::Float64:
      return float_texts(static_cast<const double*>(p), n, precision);
    case ScalarType::Complex64:
      return complex_texts(static_cast<const complex<float>*>(p), n, precision);
    case ScalarType::Complex128:
      return complex_texts(static_cast<const complex<double>*>(p), n, precision);
    default:
      fail(ST_ERROR_INTERNAL, "element_texts: %s values are not read directly",
           dtype_name(static_cast<int32_t>(values.dtype())));
  }
}

}  // namespace ops
}  // namespace st
