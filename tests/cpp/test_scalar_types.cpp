// float16, bfloat16 and complex: layout, exact widening, and narrowing from
// float and double checked against a reference that rounds by searching the
// sorted list of every representable value (written here, independently of
// the bit tricks under test).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/numeric/convert.h"
#include "core/numeric/scalar_types.h"

// After the project headers: cmocka defines a function-like macro fail().
#include "cmocka_cxx.h"

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

uint64_t test_seed() {
  const char* env = std::getenv("ST_TEST_SEED");
  const uint64_t seed = env ? std::strtoull(env, nullptr, 10) : 20240611u;
  std::printf("random cases use seed %" PRIu64 " (set ST_TEST_SEED to change it)\n", seed);
  return seed;
}

uint32_t bits_of(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

uint64_t bits_of(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

// A 16-bit binary format, described by its field widths only.
struct Format16 {
  const char* name;
  int exp_bits;
  int mant_bits;

  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  uint16_t inf_bits() const { return static_cast<uint16_t>(((1 << exp_bits) - 1) << mant_bits); }
  uint16_t quiet_bit() const { return static_cast<uint16_t>(1 << (mant_bits - 1)); }
  bool is_nan(uint16_t b) const { return (b & 0x7FFF) > inf_bits(); }

  // The value of a bit pattern, from the IEEE definition.
  double decode(uint16_t b) const {
    const int e = (b >> mant_bits) & ((1 << exp_bits) - 1);
    const int m = b & ((1 << mant_bits) - 1);
    double v;
    if (e == (1 << exp_bits) - 1) {
      v = m ? kNaN : kInf;
    } else if (e == 0) {
      v = std::ldexp(m, 1 - bias() - mant_bits);
    } else {
      v = std::ldexp(m + (1 << mant_bits), e - bias() - mant_bits);
    }
    return (b & 0x8000) ? -v : v;
  }
};

const Format16 kHalf{"float16", 5, 10};
const Format16 kBFloat16{"bfloat16", 8, 7};

// Nearest representable value by search: the non-negative finite values of
// all 65536 patterns, sorted, plus 2^(bias+1) standing for infinity (the
// first value past the largest finite one; its mantissa is even, so a tie
// with the largest finite value, whose mantissa is odd, goes to infinity).
class NearestReference {
 public:
  explicit NearestReference(const Format16& f) : format_(f) {
    for (uint32_t b = 0; b < 0x8000u; ++b) {
      const double v = f.decode(static_cast<uint16_t>(b));
      if (std::isfinite(v)) {
        entries_.push_back({v, static_cast<uint16_t>(b)});
      }
    }
    entries_.push_back({std::ldexp(1.0, f.bias() + 1), f.inf_bits()});
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) { return a.value < b.value; });
  }

  // Expected bits for a non-NaN double.
  uint16_t round(double d) const {
    const uint16_t sign = std::signbit(d) ? 0x8000 : 0;
    const double a = std::fabs(d);
    const auto above = std::upper_bound(entries_.begin(), entries_.end(), a,
                                        [](double x, const Entry& e) { return x < e.value; });
    if (above == entries_.end()) {
      return sign | format_.inf_bits();  // beyond 2^(bias+1), or inf itself
    }
    const Entry& lo = *(above - 1);  // entries_[0] is 0 <= a
    const Entry& hi = *above;
    if (lo.value == a) {
      return sign | lo.bits;
    }
    const double mid = (lo.value + hi.value) / 2;  // exact: few significant bits
    if (a < mid) return sign | lo.bits;
    if (a > mid) return sign | hi.bits;
    return sign | ((lo.bits & 1) ? hi.bits : lo.bits);
  }

  // Every non-negative finite value, ascending.
  std::vector<double> values() const {
    std::vector<double> v;
    for (size_t i = 0; i + 1 < entries_.size(); ++i) v.push_back(entries_[i].value);
    return v;
  }

  // The midpoints between neighbours, the last one between the largest
  // finite value and 2^(bias+1).
  std::vector<double> midpoints() const {
    std::vector<double> v;
    for (size_t i = 0; i + 1 < entries_.size(); ++i) v.push_back((entries_[i].value + entries_[i + 1].value) / 2);
    return v;
  }

 private:
  struct Entry {
    double value;
    uint16_t bits;
  };
  const Format16& format_;
  std::vector<Entry> entries_;
};

// Narrowing under test for one format.
template <typename T>
uint16_t narrow(double d) {
  return st::convert<T>(d).bits;
}
template <typename T>
uint16_t narrow(float f) {
  return st::convert<T>(f).bits;
}

// The loop a CPU kernel runs; the compiler may vectorize it.
template <typename To, typename From>
__attribute__((noinline)) void convert_array(To* out, const From* in, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = st::convert<To>(in[i]);
}

// Compares one conversion with the reference; NaN must give a quiet NaN
// with the same sign. Returns the number of mismatches (0 or 1) after
// printing the first few.
int mismatches_printed = 0;
int check_against(const Format16& f, const NearestReference& ref, double input, uint16_t got, const char* path) {
  bool ok;
  uint16_t want;
  if (std::isnan(input)) {
    want = static_cast<uint16_t>((std::signbit(input) ? 0x8000 : 0) | f.inf_bits() | f.quiet_bit());
    ok = f.is_nan(got) && (got & f.quiet_bit()) && ((got & 0x8000) == (want & 0x8000));
  } else {
    want = ref.round(input);
    ok = got == want;
  }
  if (!ok && mismatches_printed++ < 20) {
    std::printf("%s %s(%.17g = 0x%016" PRIx64 "): got 0x%04x, want 0x%04x\n", f.name, path, input, bits_of(input),
                got, want);
  }
  return ok ? 0 : 1;
}

// Both entry points: from the double itself, and from float when the
// double is a float (the reference then applies unchanged, the float being
// exactly that value).
template <typename T>
int check_value(const Format16& f, const NearestReference& ref, double d) {
  int bad = check_against(f, ref, d, narrow<T>(d), "from double");
  const float as_float = static_cast<float>(d);
  if (static_cast<double>(as_float) == d || std::isnan(d)) {
    bad += check_against(f, ref, d, narrow<T>(as_float), "from float");
  }
  return bad;
}

template <typename T>
int check_value_from_float(const Format16& f, const NearestReference& ref, float x) {
  return check_against(f, ref, static_cast<double>(x), narrow<T>(x), "from float");
}

template <typename T>
void check_narrowing_against_reference(const Format16& f) {
  const NearestReference ref(f);
  int bad = 0;
  long checked = 0;
  // Every value, both signs.
  for (double v : ref.values()) {
    bad += check_value<T>(f, ref, v) + check_value<T>(f, ref, -v);
    checked += 2;
  }
  // Exact ties and the doubles and floats right next to them: one rounding
  // from the exact value decides these, a second rounding would not.
  for (double m : ref.midpoints()) {
    for (double s : {1.0, -1.0}) {
      const double mid = s * m;
      bad += check_value<T>(f, ref, mid);
      bad += check_value<T>(f, ref, std::nextafter(mid, kInf));
      bad += check_value<T>(f, ref, std::nextafter(mid, -kInf));
      const float mid_f = static_cast<float>(mid);  // exact: midpoints have few bits
      bad += check_value_from_float<T>(f, ref, std::nextafter(mid_f, std::numeric_limits<float>::infinity()));
      bad += check_value_from_float<T>(f, ref, std::nextafter(mid_f, -std::numeric_limits<float>::infinity()));
      checked += 5;
    }
  }
  // Special and extreme values.
  const double specials[] = {0.0,
                             -0.0,
                             kInf,
                             -kInf,
                             kNaN,
                             -kNaN,
                             std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::lowest(),
                             std::numeric_limits<double>::min(),
                             std::numeric_limits<double>::denorm_min(),
                             -std::numeric_limits<double>::denorm_min(),
                             static_cast<double>(std::numeric_limits<float>::max()),
                             static_cast<double>(std::numeric_limits<float>::min()),
                             static_cast<double>(std::numeric_limits<float>::denorm_min()),
                             1e300,
                             -1e300,
                             1e-300,
                             1e5,
                             65519.0,
                             65520.0,
                             65536.0,
                             0x1p-24,
                             0x1p-25,
                             0x1p-26,
                             0x1.8p-24,
                             0x1p-133,
                             0x1p-134,
                             0x1.8p-133,
                             0x1p127,
                             0x1.ffp127,
                             0x1.ff8p127,
                             0x1.ff7ffffffffffp127};
  for (double d : specials) {
    bad += check_value<T>(f, ref, d);
    ++checked;
  }
  // NaN payloads, quiet and signaling, in both source widths.
  for (uint64_t payload : {uint64_t(1), uint64_t(0x8000000000000), uint64_t(0x4000000000000), uint64_t(0xFFFFFFFFFFFFF)}) {
    for (uint64_t sign : {uint64_t(0), uint64_t(1) << 63}) {
      double d;
      const uint64_t b = sign | 0x7FF0000000000000u | payload;
      std::memcpy(&d, &b, sizeof d);
      bad += check_against(f, ref, d, narrow<T>(d), "from double");
      float x;
      const uint32_t bf = static_cast<uint32_t>(sign >> 32) | 0x7F800000u | static_cast<uint32_t>(payload >> 29) | 1u;
      std::memcpy(&x, &bf, sizeof x);
      bad += check_against(f, ref, static_cast<double>(x), narrow<T>(x), "from float");
      checked += 2;
    }
  }
  // Random doubles around the format's range and random float bit patterns.
  std::mt19937_64 rng(test_seed());
  const int lo_exp = 1 - f.bias() - f.mant_bits - 3;
  const int hi_exp = f.bias() + 3;
  std::uniform_int_distribution<int> exp_dist(lo_exp, hi_exp);
  for (int i = 0; i < 400000; ++i) {
    const uint64_t r = rng();
    const double mant = 1.0 + std::ldexp(static_cast<double>(r >> 12), -52);
    const double d = std::ldexp((r & 1) ? -mant : mant, exp_dist(rng));
    bad += check_value<T>(f, ref, d);
    uint32_t fb = static_cast<uint32_t>(rng());
    float x;
    std::memcpy(&x, &fb, sizeof x);
    bad += check_value_from_float<T>(f, ref, x);
    checked += 2;
  }
  // The same floats through the loop a CPU kernel runs, which the compiler
  // may vectorize.
  std::vector<float> floats;
  for (double v : ref.values()) floats.push_back(static_cast<float>(v));
  for (double m : ref.midpoints()) {
    const float mid = static_cast<float>(m);
    floats.push_back(mid);
    floats.push_back(-mid);
    floats.push_back(std::nextafter(mid, std::numeric_limits<float>::infinity()));
    floats.push_back(std::nextafter(mid, 0.0f));
  }
  for (int i = 0; i < 100000; ++i) {
    const uint32_t fb = static_cast<uint32_t>(rng());
    float x;
    std::memcpy(&x, &fb, sizeof x);
    floats.push_back(x);
  }
  std::vector<T> out(floats.size());
  convert_array(out.data(), floats.data(), floats.size());
  for (size_t i = 0; i < floats.size(); ++i) {
    bad += check_against(f, ref, static_cast<double>(floats[i]), out[i].bits, "from float in a loop");
  }
  checked += static_cast<long>(floats.size());
  std::printf("%s: %ld conversions checked against the search reference\n", f.name, checked);
  assert_int_equal(bad, 0);
}

void half_narrowing_matches_nearest_search(void**) { check_narrowing_against_reference<st::Half>(kHalf); }

void bfloat16_narrowing_matches_nearest_search(void**) { check_narrowing_against_reference<st::BFloat16>(kBFloat16); }

// Exact widening, every pattern: the float equals the IEEE value.
void widening_is_exact_for_every_pattern(void**) {
  int bad = 0;
  for (uint32_t b = 0; b <= 0xFFFFu; ++b) {
    const uint16_t bits = static_cast<uint16_t>(b);
    const double want_h = kHalf.decode(bits);
    const float got_h = st::half_to_float(st::Half{bits});
    const double want_b = kBFloat16.decode(bits);
    const float got_b = st::bfloat16_to_float(st::BFloat16{bits});
    if (std::isnan(want_h) ? !(std::isnan(got_h) && std::signbit(got_h) == std::signbit(want_h))
                           : bits_of(static_cast<double>(got_h)) != bits_of(want_h)) {
      ++bad;
    }
    if (std::isnan(want_b) ? !(std::isnan(got_b) && std::signbit(got_b) == std::signbit(want_b))
                           : bits_of(static_cast<double>(got_b)) != bits_of(want_b)) {
      ++bad;
    }
    // bfloat16 is the top half of a float, NaN payloads included.
    if (bits_of(got_b) != (b << 16)) {
      ++bad;
    }
  }
  assert_int_equal(bad, 0);
}

// Every pattern survives float16/bfloat16 -> float or double -> back. NaNs
// come back quiet with their sign and payload.
template <typename T>
int round_trips(const Format16& f) {
  int bad = 0;
  for (uint32_t b = 0; b <= 0xFFFFu; ++b) {
    const T x{static_cast<uint16_t>(b)};
    const uint16_t want = f.is_nan(x.bits) ? static_cast<uint16_t>(x.bits | f.quiet_bit()) : x.bits;
    const uint16_t via_float = st::convert<T>(st::convert<float>(x)).bits;
    const uint16_t via_double = st::convert<T>(st::convert<double>(x)).bits;
    if (via_float != want || via_double != want) {
      if (bad++ < 10) {
        std::printf("%s 0x%04x: via float 0x%04x, via double 0x%04x\n", f.name, b, via_float, via_double);
      }
    }
  }
  return bad;
}

void every_pattern_round_trips(void**) {
  assert_int_equal(round_trips<st::Half>(kHalf), 0);
  assert_int_equal(round_trips<st::BFloat16>(kBFloat16), 0);
}

// float16 <-> bfloat16 goes through the exact float, so it rounds once.
void half_and_bfloat16_convert_through_exact_float(void**) {
  const NearestReference to_b(kBFloat16);
  const NearestReference to_h(kHalf);
  int bad = 0;
  for (uint32_t b = 0; b <= 0xFFFFu; ++b) {
    const uint16_t bits = static_cast<uint16_t>(b);
    const double h = kHalf.decode(bits);
    const double bf = kBFloat16.decode(bits);
    bad += check_against(kBFloat16, to_b, h, st::convert<st::BFloat16>(st::Half{bits}).bits, "from float16");
    bad += check_against(kHalf, to_h, bf, st::convert<st::Half>(st::BFloat16{bits}).bits, "from bfloat16");
  }
  assert_int_equal(bad, 0);
}

// complex<T> is two T, real part first, and its bytes read as T[2].
void complex_is_two_parts_in_order(void**) {
  assert_int_equal(offsetof(st::complex<float>, re), 0);
  assert_int_equal(offsetof(st::complex<float>, im), 4);
  assert_int_equal(offsetof(st::complex<double>, im), 8);
  const float parts[4] = {1.5f, -2.0f, 3.0f, 4.25f};
  st::complex<float> z[2];
  std::memcpy(z, parts, sizeof parts);
  assert_true(z[0].real() == 1.5f && z[0].imag() == -2.0f && z[1].real() == 3.0f && z[1].imag() == 4.25f);
  const st::complex<double> w{0.5, -0.25};
  double back[2];
  std::memcpy(back, &w, sizeof back);
  assert_true(back[0] == 0.5 && back[1] == -0.25);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(half_narrowing_matches_nearest_search),
      cmocka_unit_test(bfloat16_narrowing_matches_nearest_search),
      cmocka_unit_test(widening_is_exact_for_every_pattern),
      cmocka_unit_test(every_pattern_round_trips),
      cmocka_unit_test(half_and_bfloat16_convert_through_exact_float),
      cmocka_unit_test(complex_is_two_parts_in_order),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
