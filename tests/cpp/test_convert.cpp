// convert<To, From> for all 144 dtype pairs: a table of special values with
// the expected result in every dtype written out (API.md, Conversion rules),
// run through the runtime pair dispatch; then reference computations written
// here for integer rounding near ties, float -> integer saturation and
// integer wrap-around.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "core/convert.h"
#include "core/dtype_dispatch.h"

// After the project headers: cmocka defines a function-like macro fail().
#include "cmocka_cxx.h"

namespace {

constexpr float kInff = std::numeric_limits<float>::infinity();
constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

uint64_t test_seed() {
  const char* env = std::getenv("ST_TEST_SEED");
  const uint64_t seed = env ? std::strtoull(env, nullptr, 10) : 20240611u;
  std::printf("random cases use seed %" PRIu64 " (set ST_TEST_SEED to change it)\n", seed);
  return seed;
}

st::complex<float> c64(float re, float im) { return {re, im}; }
st::complex<double> c128(double re, double im) { return {re, im}; }

// One source value's result in every dtype. float16 and bfloat16 as bits;
// a complex result has the float32 / float64 column as its real part.
struct Expected {
  bool b;
  uint8_t u8;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t f16;
  uint16_t bf16;
  float f32;
  double f64;
  float c64_im;
  double c128_im;
};

template <typename T>
T expected_as(const Expected& e) {
  if constexpr (std::is_same<T, bool>::value) return e.b;
  else if constexpr (std::is_same<T, uint8_t>::value) return e.u8;
  else if constexpr (std::is_same<T, int8_t>::value) return e.i8;
  else if constexpr (std::is_same<T, int16_t>::value) return e.i16;
  else if constexpr (std::is_same<T, int32_t>::value) return e.i32;
  else if constexpr (std::is_same<T, int64_t>::value) return e.i64;
  else if constexpr (std::is_same<T, st::Half>::value) return st::Half{e.f16};
  else if constexpr (std::is_same<T, st::BFloat16>::value) return st::BFloat16{e.bf16};
  else if constexpr (std::is_same<T, float>::value) return e.f32;
  else if constexpr (std::is_same<T, double>::value) return e.f64;
  else if constexpr (std::is_same<T, st::complex<float>>::value) return st::complex<float>{e.f32, e.c64_im};
  else return st::complex<double>{e.f64, e.c128_im};
}

// Bit-exact, except that an expected NaN matches any quiet NaN of the same
// sign.
bool same_float_bits(uint64_t got, uint64_t want, int total_bits, int mant_bits) {
  const uint64_t sign = uint64_t(1) << (total_bits - 1);
  const uint64_t inf = (sign - 1) & ~((uint64_t(1) << mant_bits) - 1);
  const uint64_t quiet = uint64_t(1) << (mant_bits - 1);
  const bool want_nan = (want & (sign - 1)) > inf;
  if (!want_nan) return got == want;
  return (got & (sign - 1)) > inf && (got & quiet) && (got & sign) == (want & sign);
}

template <typename T>
uint64_t raw_bits(T v) {
  uint64_t u = 0;
  std::memcpy(&u, &v, sizeof v);
  return u;
}

template <typename T>
bool same_element(T got, T want) {
  if constexpr (std::is_same<T, st::Half>::value) return same_float_bits(got.bits, want.bits, 16, 10);
  else if constexpr (std::is_same<T, st::BFloat16>::value) return same_float_bits(got.bits, want.bits, 16, 7);
  else if constexpr (std::is_same<T, float>::value) return same_float_bits(raw_bits(got), raw_bits(want), 32, 23);
  else if constexpr (std::is_same<T, double>::value) return same_float_bits(raw_bits(got), raw_bits(want), 64, 52);
  else if constexpr (st::IsComplex<T>::value) return same_element(got.re, want.re) && same_element(got.im, want.im);
  else return raw_bits(got) == raw_bits(want);  // integers, and bool as the byte 0 or 1
}

template <typename T>
void print_element(const char* what, T v) {
  if constexpr (st::IsComplex<T>::value) {
    std::printf(" %s (%.17g, %.17g)", what, static_cast<double>(v.re), static_cast<double>(v.im));
  } else if constexpr (std::is_same<T, st::Half>::value || std::is_same<T, st::BFloat16>::value) {
    std::printf(" %s 0x%04x", what, v.bits);
  } else if constexpr (std::is_floating_point<T>::value) {
    std::printf(" %s %.17g", what, static_cast<double>(v));
  } else {
    std::printf(" %s %lld", what, static_cast<long long>(v));
  }
}

int g_failures = 0;
std::set<std::pair<int, int>> g_pairs_seen;

// Converts the source bytes into every dtype through ST_DISPATCH_PAIR.
void check_row(const char* label, st::ScalarType src_type, const void* src_bytes, const Expected& e) {
  for (int d = 0; d < st::kNumScalarTypes; ++d) {
    const auto dst_type = static_cast<st::ScalarType>(d);
    ST_DISPATCH_PAIR(dst_type, src_type, "check_row", [&] {
      static_assert(sizeof(src_t) <= 16, "a source fits the buffer");
      src_t in;
      std::memcpy(&in, src_bytes, sizeof in);
      const dst_t got = st::convert<dst_t>(in);
      const dst_t want = expected_as<dst_t>(e);
      if (!same_element(got, want)) {
        ++g_failures;
        std::printf("%s %s -> %s:", st::dtype_name(static_cast<int32_t>(src_type)), label,
                    st::dtype_name(static_cast<int32_t>(dst_type)));
        print_element("got", got);
        print_element("want", want);
        std::printf("\n");
      }
      g_pairs_seen.insert({static_cast<int>(st::scalar_type_of<src_t>), static_cast<int>(st::scalar_type_of<dst_t>)});
    });
  }
}

template <typename S>
void row(const char* label, S in, const Expected& e) {
  check_row(label, st::scalar_type_of<S>, &in, e);
}

#define ROW(IN, ...) row(#IN, IN, Expected{__VA_ARGS__})

// Columns: bool, uint8, int8, int16, int32, int64, float16 bits,
// bfloat16 bits, float32, float64, then the imaginary parts of complex64
// and complex128 (the real parts are the float32 and float64 columns).
// Worth a look: int32 2^24 + 2^16 + 1 -> bfloat16 0x4B81 and int64
// 2^60 + 2^52 + 1 -> 0x5D81 (through float32 both would tie and round
// down); int64 2^60 + 2^36 + 1 -> float32 above the tie (through float64 it
// would tie); float64 1 + 2^-11 + 2^-40 -> float16 0x3C01 and
// 1 + 2^-8 + 2^-30 -> bfloat16 0x3F81 (through float32, as PyTorch, both
// would tie and round to 1); 2^63 as float -> INT64_MAX, -2^63 exact;
// bfloat16 256 -> uint8 saturates to 255 (floats saturate, integers wrap).
void special_values_in_every_pair(void**) {
  // from bool
  ROW(false, false, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0);
  ROW(true, true, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0, 0.0f, 0.0);
  // from uint8
  ROW(uint8_t(0), false, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0);
  ROW(uint8_t(1), true, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0, 0.0f, 0.0);
  ROW(uint8_t(200), true, 200, -56, 200, 200, 200, 0x5A40, 0x4348, 200.0f, 200.0, 0.0f, 0.0);
  ROW(uint8_t(255), true, 255, -1, 255, 255, 255, 0x5BF8, 0x437F, 255.0f, 255.0, 0.0f, 0.0);
  // from int8
  ROW(int8_t(0), false, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0);
  ROW(int8_t(-1), true, 255, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 0.0f, 0.0);
  ROW(int8_t(-128), true, 128, -128, -128, -128, -128, 0xD800, 0xC300, -128.0f, -128.0, 0.0f, 0.0);
  ROW(int8_t(127), true, 127, 127, 127, 127, 127, 0x57F0, 0x42FE, 127.0f, 127.0, 0.0f, 0.0);
  // from int16
  ROW(int16_t(-1), true, 255, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 0.0f, 0.0);
  ROW(int16_t(300), true, 44, 44, 300, 300, 300, 0x5CB0, 0x4396, 300.0f, 300.0, 0.0f, 0.0);
  ROW(int16_t(-32768), true, 0, 0, -32768, -32768, -32768, 0xF800, 0xC700, -32768.0f, -32768.0, 0.0f, 0.0);
  ROW(int16_t(32767), true, 255, -1, 32767, 32767, 32767, 0x7800, 0x4700, 32767.0f, 32767.0, 0.0f, 0.0);
  ROW(int16_t(257), true, 1, 1, 257, 257, 257, 0x5C04, 0x4380, 257.0f, 257.0, 0.0f, 0.0);
  // from int32
  ROW(int32_t(257), true, 1, 1, 257, 257, 257, 0x5C04, 0x4380, 257.0f, 257.0, 0.0f, 0.0);
  ROW(int32_t(-1), true, 255, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 0.0f, 0.0);
  ROW(int32_t(INT32_MAX), true, 255, -1, -1, INT32_MAX, 2147483647, 0x7C00, 0x4F00, 2147483648.0f, 2147483647.0, 0.0f, 0.0);
  ROW(int32_t(INT32_MIN), true, 0, 0, 0, INT32_MIN, -2147483648, 0xFC00, 0xCF00, -2147483648.0f, -2147483648.0, 0.0f, 0.0);
  ROW(int32_t(65504), true, 224, -32, -32, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0, 0.0f, 0.0);
  ROW(int32_t(65519), true, 239, -17, -17, 65519, 65519, 0x7BFF, 0x4780, 65519.0f, 65519.0, 0.0f, 0.0);
  ROW(int32_t(65520), true, 240, -16, -16, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0, 0.0f, 0.0);
  ROW(int32_t((1 << 24) + 1), true, 1, 1, 1, 16777217, 16777217, 0x7C00, 0x4B80, 16777216.0f, 16777217.0, 0.0f, 0.0);
  ROW(int32_t((1 << 24) + (1 << 16) + 1), true, 1, 1, 1, 16842753, 16842753, 0x7C00, 0x4B81, 16842752.0f, 16842753.0, 0.0f, 0.0);
  ROW(int32_t(-300), true, 212, -44, -300, -300, -300, 0xDCB0, 0xC396, -300.0f, -300.0, 0.0f, 0.0);
  // from int64
  ROW(int64_t(INT64_MAX), true, 255, -1, -1, -1, INT64_MAX, 0x7C00, 0x5F00, 9.223372036854776e+18f, 9.223372036854776e+18, 0.0f, 0.0);
  ROW(int64_t(INT64_MIN), true, 0, 0, 0, 0, INT64_MIN, 0xFC00, 0xDF00, -9.223372036854776e+18f, -9.223372036854776e+18, 0.0f, 0.0);
  ROW(int64_t(-1), true, 255, -1, -1, -1, -1, 0xBC00, 0xBF80, -1.0f, -1.0, 0.0f, 0.0);
  ROW(int64_t((int64_t(1) << 53) + 1), true, 1, 1, 1, 1, 9007199254740993, 0x7C00, 0x5A00, 9007199254740992.0f, 9007199254740992.0, 0.0f, 0.0);
  ROW(int64_t((int64_t(1) << 32) + 5), true, 5, 5, 5, 5, 4294967301, 0x7C00, 0x4F80, 4294967296.0f, 4294967301.0, 0.0f, 0.0);
  ROW(int64_t((int64_t(1) << 60) + (int64_t(1) << 36) + 1), true, 1, 1, 1, 1, 1152921573326323713, 0x7C00, 0x5D80, 1.1529216420458004e+18f, 1.1529215733263237e+18, 0.0f, 0.0);
  ROW(int64_t((int64_t(1) << 60) + (int64_t(1) << 52) + 1), true, 1, 1, 1, 1, 1157425104234217473, 0x7C00, 0x5D81, 1.1574251042342175e+18f, 1.1574251042342175e+18, 0.0f, 0.0);
  ROW(int64_t(-((int64_t(1) << 60) + (int64_t(1) << 52) + 1)), true, 255, -1, -1, -1, -1157425104234217473, 0xFC00, 0xDD81, -1.1574251042342175e+18f, -1.1574251042342175e+18, 0.0f, 0.0);
  // from f16
  ROW(st::Half{0x7BFF}, true, 255, 127, 32767, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0, 0.0f, 0.0);
  ROW(st::Half{0x8000}, false, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, 0.0f, 0.0);
  ROW(st::Half{0x7C00}, true, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, kInff, kInf, 0.0f, 0.0);
  ROW(st::Half{0xFC00}, true, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -kInff, -kInf, 0.0f, 0.0);
  ROW(st::Half{0x7E00}, true, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, kNaNf, kNaN, 0.0f, 0.0);
  ROW(st::Half{0xFE00}, true, 0, 0, 0, 0, 0, 0xFE00, 0xFFC0, -kNaNf, -kNaN, 0.0f, 0.0);
  ROW(st::Half{0x0001}, true, 0, 0, 0, 0, 0, 0x0001, 0x3380, 5.960464477539063e-08f, 5.960464477539063e-08, 0.0f, 0.0);
  ROW(st::Half{0x3E00}, true, 1, 1, 1, 1, 1, 0x3E00, 0x3FC0, 1.5f, 1.5, 0.0f, 0.0);
  ROW(st::Half{0xBE00}, true, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, 0.0f, 0.0);
  ROW(st::Half{0x5BF8}, true, 255, 127, 255, 255, 255, 0x5BF8, 0x437F, 255.0f, 255.0, 0.0f, 0.0);
  ROW(st::Half{0x5C04}, true, 255, 127, 257, 257, 257, 0x5C04, 0x4380, 257.0f, 257.0, 0.0f, 0.0);
  ROW(st::Half{0x43CD}, true, 3, 3, 3, 3, 3, 0x43CD, 0x407A, 3.900390625f, 3.900390625, 0.0f, 0.0);
  ROW(st::Half{0xD800}, true, 0, -128, -128, -128, -128, 0xD800, 0xC300, -128.0f, -128.0, 0.0f, 0.0);
  ROW(st::Half{0x3C01}, true, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 1.0009765625f, 1.0009765625, 0.0f, 0.0);
  // from bf16
  ROW(st::BFloat16{0x3F80}, true, 1, 1, 1, 1, 1, 0x3C00, 0x3F80, 1.0f, 1.0, 0.0f, 0.0);
  ROW(st::BFloat16{0x7F7F}, true, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F7F, 3.3895313892515355e+38f, 3.3895313892515355e+38, 0.0f, 0.0);
  ROW(st::BFloat16{0xFF80}, true, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -kInff, -kInf, 0.0f, 0.0);
  ROW(st::BFloat16{0x7FC0}, true, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, kNaNf, kNaN, 0.0f, 0.0);
  ROW(st::BFloat16{0xC2FF}, true, 0, -127, -127, -127, -127, 0xD7F8, 0xC2FF, -127.5f, -127.5, 0.0f, 0.0);
  ROW(st::BFloat16{0x0001}, true, 0, 0, 0, 0, 0, 0x0000, 0x0001, 9.183549615799121e-41f, 9.183549615799121e-41, 0.0f, 0.0);
  ROW(st::BFloat16{0x4380}, true, 255, 127, 256, 256, 256, 0x5C00, 0x4380, 256.0f, 256.0, 0.0f, 0.0);
  ROW(st::BFloat16{0xC300}, true, 0, -128, -128, -128, -128, 0xD800, 0xC300, -128.0f, -128.0, 0.0f, 0.0);
  // from f32
  ROW(kNaNf, true, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, kNaNf, kNaN, 0.0f, 0.0);
  ROW(-kNaNf, true, 0, 0, 0, 0, 0, 0xFE00, 0xFFC0, -kNaNf, -kNaN, 0.0f, 0.0);
  ROW(kInff, true, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, kInff, kInf, 0.0f, 0.0);
  ROW(-kInff, true, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -kInff, -kInf, 0.0f, 0.0);
  ROW(-0.0f, false, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, 0.0f, 0.0);
  ROW(300.5f, true, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 0.0f, 0.0);
  ROW(-1.5f, true, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, 0.0f, 0.0);
  ROW(3.9f, true, 3, 3, 3, 3, 3, 0x43CD, 0x407A, 3.9000000953674316f, 3.9000000953674316, 0.0f, 0.0);
  ROW(1e10f, true, 255, 127, 32767, INT32_MAX, 10000000000, 0x7C00, 0x5015, 10000000000.0f, 10000000000.0, 0.0f, 0.0);
  ROW(65504.0f, true, 255, 127, 32767, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0, 0.0f, 0.0);
  ROW(65520.0f, true, 255, 127, 32767, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0, 0.0f, 0.0);
  ROW(65519.99609375f, true, 255, 127, 32767, 65519, 65519, 0x7BFF, 0x4780, 65519.99609375f, 65519.99609375, 0.0f, 0.0);
  ROW(0x1p31f, true, 255, 127, 32767, INT32_MAX, 2147483648, 0x7C00, 0x4F00, 2147483648.0f, 2147483648.0, 0.0f, 0.0);
  ROW(-0x1p31f, true, 0, -128, -32768, INT32_MIN, -2147483648, 0xFC00, 0xCF00, -2147483648.0f, -2147483648.0, 0.0f, 0.0);
  ROW(0x1p63f, true, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F00, 9.223372036854776e+18f, 9.223372036854776e+18, 0.0f, 0.0);
  ROW(-0x1p63f, true, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xDF00, -9.223372036854776e+18f, -9.223372036854776e+18, 0.0f, 0.0);
  ROW(2147483520.0f, true, 255, 127, 32767, 2147483520, 2147483520, 0x7C00, 0x4F00, 2147483520.0f, 2147483520.0, 0.0f, 0.0);
  ROW(1 + 0x1p-8f, true, 1, 1, 1, 1, 1, 0x3C04, 0x3F80, 1.00390625f, 1.00390625, 0.0f, 0.0);
  ROW(1 + 0x3p-8f, true, 1, 1, 1, 1, 1, 0x3C0C, 0x3F82, 1.01171875f, 1.01171875, 0.0f, 0.0);
  ROW(0x1p-149f, true, 0, 0, 0, 0, 0, 0x0000, 0x0000, 1.401298464324817e-45f, 1.401298464324817e-45, 0.0f, 0.0);
  ROW(-0.75f, true, 0, 0, 0, 0, 0, 0xBA00, 0xBF40, -0.75f, -0.75, 0.0f, 0.0);
  // from f64
  ROW(kNaN, true, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, kNaNf, kNaN, 0.0f, 0.0);
  ROW(-kNaN, true, 0, 0, 0, 0, 0, 0xFE00, 0xFFC0, -kNaNf, -kNaN, 0.0f, 0.0);
  ROW(kInf, true, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, kInff, kInf, 0.0f, 0.0);
  ROW(-kInf, true, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xFF80, -kInff, -kInf, 0.0f, 0.0);
  ROW(-0.0, false, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, 0.0f, 0.0);
  ROW(300.5, true, 255, 127, 300, 300, 300, 0x5CB2, 0x4396, 300.5f, 300.5, 0.0f, 0.0);
  ROW(-1.5, true, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, 0.0f, 0.0);
  ROW(3.9, true, 3, 3, 3, 3, 3, 0x43CD, 0x407A, 3.9000000953674316f, 3.9, 0.0f, 0.0);
  ROW(1e10, true, 255, 127, 32767, INT32_MAX, 10000000000, 0x7C00, 0x5015, 10000000000.0f, 10000000000.0, 0.0f, 0.0);
  ROW(65504.0, true, 255, 127, 32767, 65504, 65504, 0x7BFF, 0x4780, 65504.0f, 65504.0, 0.0f, 0.0);
  ROW(65520.0, true, 255, 127, 32767, 65520, 65520, 0x7C00, 0x4780, 65520.0f, 65520.0, 0.0f, 0.0);
  ROW(std::nextafter(65520.0, 0.0), true, 255, 127, 32767, 65519, 65519, 0x7BFF, 0x4780, 65520.0f, 65519.99999999999, 0.0f, 0.0);
  ROW(0x1p63, true, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x5F00, 9.223372036854776e+18f, 9.223372036854776e+18, 0.0f, 0.0);
  ROW(-0x1p63, true, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xDF00, -9.223372036854776e+18f, -9.223372036854776e+18, 0.0f, 0.0);
  ROW(0x1p63 - 1024, true, 255, 127, 32767, INT32_MAX, 9223372036854774784, 0x7C00, 0x5F00, 9.223372036854776e+18f, 9.223372036854775e+18, 0.0f, 0.0);
  ROW(-0x1p63 - 2048, true, 0, -128, -32768, INT32_MIN, INT64_MIN, 0xFC00, 0xDF00, -9.223372036854776e+18f, -9.223372036854778e+18, 0.0f, 0.0);
  ROW(2147483647.9, true, 255, 127, 32767, INT32_MAX, 2147483647, 0x7C00, 0x4F00, 2147483648.0f, 2147483647.9, 0.0f, 0.0);
  ROW(2147483648.0, true, 255, 127, 32767, INT32_MAX, 2147483648, 0x7C00, 0x4F00, 2147483648.0f, 2147483648.0, 0.0f, 0.0);
  ROW(-2147483648.9, true, 0, -128, -32768, INT32_MIN, -2147483648, 0xFC00, 0xCF00, -2147483648.0f, -2147483648.9, 0.0f, 0.0);
  ROW(-2147483649.0, true, 0, -128, -32768, INT32_MIN, -2147483649, 0xFC00, 0xCF00, -2147483648.0f, -2147483649.0, 0.0f, 0.0);
  ROW(1 + 0x1p-11 + 0x1p-40, true, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 1.00048828125f, 1.0004882812509095, 0.0f, 0.0);
  ROW(1 + 0x1p-8 + 0x1p-30, true, 1, 1, 1, 1, 1, 0x3C04, 0x3F81, 1.00390625f, 1.0039062509313226, 0.0f, 0.0);
  ROW(1e-300, true, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 1e-300, 0.0f, 0.0);
  ROW(0x1p-24, true, 0, 0, 0, 0, 0, 0x0001, 0x3380, 5.960464477539063e-08f, 5.960464477539063e-08, 0.0f, 0.0);
  ROW(0x1p-25, true, 0, 0, 0, 0, 0, 0x0000, 0x3300, 2.9802322387695312e-08f, 2.9802322387695312e-08, 0.0f, 0.0);
  ROW(0x1p-25 + 0x1p-60, true, 0, 0, 0, 0, 0, 0x0001, 0x3300, 2.9802322387695312e-08f, 2.9802322388562674e-08, 0.0f, 0.0);
  ROW(0x3p-25, true, 0, 0, 0, 0, 0, 0x0002, 0x33C0, 8.940696716308594e-08f, 8.940696716308594e-08, 0.0f, 0.0);
  ROW(1e300, true, 255, 127, 32767, INT32_MAX, INT64_MAX, 0x7C00, 0x7F80, kInff, 1e+300, 0.0f, 0.0);
  ROW(5e-324, true, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 5e-324, 0.0f, 0.0);
  ROW(255.5, true, 255, 127, 255, 255, 255, 0x5BFC, 0x4380, 255.5f, 255.5, 0.0f, 0.0);
  ROW(256.0, true, 255, 127, 256, 256, 256, 0x5C00, 0x4380, 256.0f, 256.0, 0.0f, 0.0);
  ROW(-129.0, true, 0, -128, -129, -129, -129, 0xD808, 0xC301, -129.0f, -129.0, 0.0f, 0.0);
  ROW(32767.9, true, 255, 127, 32767, 32767, 32767, 0x7800, 0x4700, 32767.900390625f, 32767.9, 0.0f, 0.0);
  ROW(-32768.5, true, 0, -128, -32768, -32768, -32768, 0xF800, 0xC700, -32768.5f, -32768.5, 0.0f, 0.0);
  // from c64
  ROW(c64(0.0f, 2.0f), true, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 2.0f, 2.0);
  ROW(c64(3.0f, 4.0f), true, 3, 3, 3, 3, 3, 0x4200, 0x4040, 3.0f, 3.0, 4.0f, 4.0);
  ROW(c64(kNaNf, 0.0f), true, 0, 0, 0, 0, 0, 0x7E00, 0x7FC0, kNaNf, kNaN, 0.0f, 0.0);
  ROW(c64(0.0f, -0.0f), false, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, -0.0f, -0.0);
  ROW(c64(-1.5f, 7.0f), true, 0, -1, -1, -1, -1, 0xBE00, 0xBFC0, -1.5f, -1.5, 7.0f, 7.0);
  ROW(c64(0.0f, 0.0f), false, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 0.0f, 0.0);
  // from c128
  ROW(c128(0.0, 2.0), true, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, 2.0f, 2.0);
  ROW(c128(3.0, 4.0), true, 3, 3, 3, 3, 3, 0x4200, 0x4040, 3.0f, 3.0, 4.0f, 4.0);
  ROW(c128(1e10, -1.0), true, 255, 127, 32767, INT32_MAX, 10000000000, 0x7C00, 0x5015, 10000000000.0f, 10000000000.0, -1.0f, -1.0);
  ROW(c128(1 + 0x1p-11 + 0x1p-40, 1e300), true, 1, 1, 1, 1, 1, 0x3C01, 0x3F80, 1.00048828125f, 1.0004882812509095, kInff, 1e+300);
  ROW(c128(0.0, kNaN), true, 0, 0, 0, 0, 0, 0x0000, 0x0000, 0.0f, 0.0, kNaNf, kNaN);
  ROW(c128(-0.0, 0.0), false, 0, 0, 0, 0, 0, 0x8000, 0x8000, -0.0f, -0.0, 0.0f, 0.0);
  assert_int_equal(g_failures, 0);
  assert_int_equal(g_pairs_seen.size(), 144);
}

// Rounds |v| to p significant bits, ties to even, by comparing the
// distances to the two candidates; the result as an exact double.
double round_to_bits(int64_t v, int p) {
  const uint64_t u = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int width = 0;
  while (width < 64 && (u >> width) != 0) ++width;
  double r;
  if (width <= p) {
    r = static_cast<double>(u);  // p <= 24: exact
  } else {
    const int s = width - p;
    const uint64_t step = uint64_t(1) << s;
    const uint64_t below = u % step;
    const uint64_t above = step - below;
    const uint64_t kept = u / step;
    const bool up = below > above || (below == above && kept % 2 == 1);
    r = std::ldexp(static_cast<double>(kept + (up ? 1 : 0)), s);
  }
  return v < 0 ? -r : r;
}

double decode_half(uint16_t b) {
  const int e = (b >> 10) & 31;
  const int m = b & 1023;
  const double v = e == 31 ? (m ? kNaN : kInf) : e == 0 ? std::ldexp(m, -24) : std::ldexp(m + 1024, e - 25);
  return (b & 0x8000) ? -v : v;
}

double decode_bfloat16(uint16_t b) {
  const int e = (b >> 7) & 255;
  const int m = b & 127;
  const double v = e == 255 ? (m ? kNaN : kInf) : e == 0 ? std::ldexp(m, -133) : std::ldexp(m + 128, e - 134);
  return (b & 0x8000) ? -v : v;
}

int check_integer_rounding(int64_t v) {
  int bad = 0;
  const double want_f32 = round_to_bits(v, 24);
  const double want_bf16 = round_to_bits(v, 8);
  double want_f16 = round_to_bits(v, 11);
  if (std::fabs(want_f16) > 65504) want_f16 = want_f16 > 0 ? kInf : -kInf;
  const double got_f32 = static_cast<double>(st::convert<float>(v));
  const double got_bf16 = decode_bfloat16(st::convert<st::BFloat16>(v).bits);
  const double got_f16 = decode_half(st::convert<st::Half>(v).bits);
  if (got_f32 != want_f32 || got_bf16 != want_bf16 || got_f16 != want_f16) {
    ++bad;
    std::printf("int64 %" PRId64 ": float32 %.17g (want %.17g), bfloat16 %.17g (want %.17g), float16 %g (want %g)\n", v,
                got_f32, want_f32, got_bf16, want_bf16, got_f16, want_f16);
  }
  if (v >= INT32_MIN && v <= INT32_MAX) {
    const int32_t w = static_cast<int32_t>(v);
    if (static_cast<double>(st::convert<float>(w)) != want_f32 ||
        decode_bfloat16(st::convert<st::BFloat16>(w).bits) != want_bf16 ||
        decode_half(st::convert<st::Half>(w).bits) != want_f16) {
      ++bad;
      std::printf("int32 %" PRId32 " rounds differently\n", w);
    }
  }
  return bad;
}

// Large integers near the rounding ties of float32, bfloat16 and float16:
// rounded once, from the integer (through float64 or float32 they would be
// rounded twice).
void large_integers_round_once_near_ties(void**) {
  std::mt19937_64 rng(test_seed());
  int bad = 0;
  long checked = 0;
  for (int p : {8, 11, 24}) {
    for (int width = p + 1; width <= 63; ++width) {
      const int s = width - p;
      const uint64_t step = uint64_t(1) << s;
      for (int k = 0; k < 40; ++k) {
        // A random p-bit significand with its leading bit set; k = 0, 1
        // take the smallest and the largest one.
        uint64_t kept = (uint64_t(1) << (p - 1)) | (rng() & ((uint64_t(1) << (p - 1)) - 1));
        if (k == 0) kept = uint64_t(1) << (p - 1);
        if (k == 1) kept = (uint64_t(1) << p) - 1;
        const uint64_t lo = kept << s;
        const uint64_t tie = lo + step / 2;
        for (uint64_t u : {lo, lo + 1, lo - 1, tie - 1, tie, tie + 1, lo + step - 1}) {
          if (u > static_cast<uint64_t>(INT64_MAX)) continue;
          const int64_t v = static_cast<int64_t>(u);
          bad += check_integer_rounding(v) + check_integer_rounding(-v);
          checked += 2;
        }
      }
    }
  }
  for (int64_t v : {INT64_MIN, INT64_MIN + 1, INT64_MAX, INT64_MAX - 1, int64_t(INT32_MIN), int64_t(INT32_MAX), int64_t(0),
                    int64_t(65504), int64_t(65519), int64_t(65520), int64_t(-65520)}) {
    bad += check_integer_rounding(v);
    ++checked;
  }
  for (int i = 0; i < 200000; ++i) {
    const uint64_t r = rng();
    bad += check_integer_rounding(static_cast<int64_t>(r >> (r & 63)));
    bad += check_integer_rounding(static_cast<int64_t>(r));
    checked += 2;
  }
  std::printf("%ld integers checked\n", checked);
  assert_int_equal(bad, 0);
}

// Truncation toward zero, NaN -> 0, saturation, computed in long double
// (x87 extended: every int64 and every double is exact there).
template <typename I, typename F>
I reference_float_to_integer(F v) {
  if (std::isnan(v)) return 0;
  const long double t = std::trunc(static_cast<long double>(v));
  if (t < static_cast<long double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
  if (t > static_cast<long double>(std::numeric_limits<I>::max())) return std::numeric_limits<I>::max();
  return static_cast<I>(static_cast<int64_t>(t));
}

template <typename I, typename F>
int check_float_to_integer(F v) {
  const I got = st::convert<I>(v);
  const I want = reference_float_to_integer<I>(v);
  if (got != want) {
    std::printf("%.17g -> %d-byte integer: got %lld, want %lld\n", static_cast<double>(v), static_cast<int>(sizeof(I)),
                static_cast<long long>(got), static_cast<long long>(want));
    return 1;
  }
  return 0;
}

// The loop a CPU kernel runs; the compiler may vectorize it, and the
// vector code must give the same answers.
template <typename To, typename From>
__attribute__((noinline)) void convert_array(To* out, const From* in, size_t n) {
  for (size_t i = 0; i < n; ++i) out[i] = st::convert<To>(in[i]);
}

template <typename I, typename F>
int float_to_integer_cases(std::mt19937_64& rng) {
  std::vector<F> values;
  const F inf = std::numeric_limits<F>::infinity();
  const F lo = static_cast<F>(std::numeric_limits<I>::min());
  const F hi = static_cast<F>(static_cast<long double>(std::numeric_limits<I>::max()) + 1);  // a power of two
  // The range ends and their neighbours, and halves around them.
  for (F edge : {lo, hi, F(0), F(-1), F(1)}) {
    F x = edge;
    for (int i = 0; i < 4; ++i) x = std::nextafter(x, -inf);
    for (int i = 0; i < 9; ++i, x = std::nextafter(x, inf)) values.push_back(x);
    for (F d : {F(-1.5), F(-1), F(-0.5), F(0.5), F(1), F(1.5)}) values.push_back(edge + d);
  }
  for (F x : {inf, -inf, std::numeric_limits<F>::quiet_NaN(), -std::numeric_limits<F>::quiet_NaN(), F(-0.0),
              std::numeric_limits<F>::max(), std::numeric_limits<F>::lowest(), std::numeric_limits<F>::denorm_min()}) {
    values.push_back(x);
  }
  std::uniform_int_distribution<int> exp_dist(-3, 70);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t r = rng();
    const F mant = F(1) + static_cast<F>(std::ldexp(static_cast<double>(r >> 40), -24));
    values.push_back(std::ldexp((r & 1) ? -mant : mant, exp_dist(rng)));
  }
  int bad = 0;
  for (F x : values) bad += check_float_to_integer<I>(x);
  std::vector<I> out(values.size());
  convert_array(out.data(), values.data(), values.size());
  for (size_t i = 0; i < values.size(); ++i) bad += out[i] != reference_float_to_integer<I>(values[i]);
  return bad;
}

template <typename F>
int float_to_every_integer(std::mt19937_64& rng) {
  return float_to_integer_cases<uint8_t, F>(rng) + float_to_integer_cases<int8_t, F>(rng) +
         float_to_integer_cases<int16_t, F>(rng) + float_to_integer_cases<int32_t, F>(rng) +
         float_to_integer_cases<int64_t, F>(rng);
}

void floats_truncate_and_saturate_to_integers(void**) {
  std::mt19937_64 rng(test_seed());
  const int bad = float_to_every_integer<float>(rng) + float_to_every_integer<double>(rng);
  assert_int_equal(bad, 0);
  // The 2^63 boundary exactly: (double)INT64_MAX is 2^63.
  assert_true(st::convert<int64_t>(static_cast<double>(INT64_MAX)) == INT64_MAX);
  assert_true(st::convert<int64_t>(-0x1p63) == INT64_MIN);
  assert_true(st::convert<int64_t>(0x1p63 - 1024) == INT64_MAX - 1023);
  assert_true(st::convert<int32_t>(static_cast<float>(INT32_MAX)) == INT32_MAX);
  // float16 and bfloat16 go through their exact float value.
  assert_true(st::convert<int8_t>(st::Half{0x5BF8}) == 127);      // 255
  assert_true(st::convert<int64_t>(st::BFloat16{0x5F00}) == INT64_MAX);  // 2^63
  assert_true(st::convert<int64_t>(st::BFloat16{0xDF00}) == INT64_MIN);  // -2^63
}

// Two's-complement wrap: the value modulo 2^bits, in the signed range for
// signed targets.
template <typename I>
I reference_wrap(int64_t v) {
  constexpr int bits = 8 * sizeof(I);
  if (bits == 64) return static_cast<I>(v);
  const int64_t m = int64_t(1) << bits;
  int64_t r = ((v % m) + m) % m;
  if (std::numeric_limits<I>::is_signed && r >= m / 2) r -= m;
  return static_cast<I>(r);
}

template <typename From>
int check_wrap(From v) {
  const int64_t w = static_cast<int64_t>(v);
  int bad = 0;
  bad += st::convert<uint8_t>(v) != reference_wrap<uint8_t>(w);
  bad += st::convert<int8_t>(v) != reference_wrap<int8_t>(w);
  bad += st::convert<int16_t>(v) != reference_wrap<int16_t>(w);
  bad += st::convert<int32_t>(v) != reference_wrap<int32_t>(w);
  bad += st::convert<int64_t>(v) != w;
  bad += st::convert<bool>(v) != (w != 0);
  if (bad) std::printf("integer %" PRId64 " wraps wrongly\n", w);
  return bad;
}

void integers_wrap_around(void**) {
  int bad = 0;
  for (int v = INT16_MIN; v <= INT16_MAX; ++v) {
    bad += check_wrap(static_cast<int16_t>(v));
    bad += check_wrap(static_cast<int32_t>(v) * 3 + 7);
  }
  for (int v = 0; v < 256; ++v) {
    bad += check_wrap(static_cast<uint8_t>(v));
    bad += check_wrap(static_cast<int8_t>(v - 128));
  }
  std::mt19937_64 rng(test_seed());
  for (int i = 0; i < 100000; ++i) {
    const uint64_t r = rng();
    bad += check_wrap(static_cast<int64_t>(r));
    bad += check_wrap(static_cast<int32_t>(static_cast<uint32_t>(r)));
  }
  for (int64_t v : {INT64_MIN, INT64_MAX, int64_t(INT32_MIN) - 1, int64_t(INT32_MAX) + 1}) bad += check_wrap(v);
  assert_int_equal(bad, 0);
}

// Nonzero, every float16 and bfloat16 pattern: only ±0 are false (NaN is
// nonzero).
void reduced_floats_are_nonzero_unless_zero(void**) {
  int bad = 0;
  for (uint32_t b = 0; b <= 0xFFFFu; ++b) {
    const uint16_t bits = static_cast<uint16_t>(b);
    const double h = decode_half(bits);
    const double bf = decode_bfloat16(bits);
    bad += st::convert<bool>(st::Half{bits}) != (std::isnan(h) || h != 0);
    bad += st::convert<bool>(st::BFloat16{bits}) != (std::isnan(bf) || bf != 0);
  }
  assert_int_equal(bad, 0);
}

// float64 -> float32 (one IEEE conversion, Note [Which conversions the
// hardware may do]) against the two floats around d found with floor in
// double arithmetic: nearest, ties to the even significand, inf from the
// largest float plus half its ulp up.
double nearest_float_value(double d) {
  const int e = std::max(std::ilogb(d), -126);
  const double ulp = std::ldexp(1.0, e - 23);
  const double lo = std::floor(d / ulp) * ulp;  // exact: d / ulp < 2^24 is an exact scaling
  const double hi = lo + ulp;
  const double mid = lo + ulp / 2;
  const bool lo_even = std::fmod(lo / ulp, 2.0) == 0;
  const double r = d < mid ? lo : d > mid ? hi : (lo_even ? lo : hi);
  return r >= 0x1p128 ? kInf : r;
}

void doubles_round_to_nearest_float(void**) {
  std::mt19937_64 rng(test_seed());
  std::uniform_int_distribution<int> exp_dist(-152, 129);
  int bad = 0;
  for (int i = 0; i < 200000; ++i) {
    const uint64_t r = rng();
    double d = std::ldexp(1.0 + std::ldexp(static_cast<double>(r >> 12), -52), exp_dist(rng));
    if (i % 4 == 0) {
      // Move d onto the midpoint between its two floats: an exact tie.
      const int e = std::max(std::ilogb(d), -126);
      const double ulp = std::ldexp(1.0, e - 23);
      d = std::floor(d / ulp) * ulp + ulp / 2;
    }
    const double want = nearest_float_value(d);
    const double got = static_cast<double>(st::convert<float>(d));
    const double got_negative = static_cast<double>(st::convert<float>(-d));
    if (got != want || got_negative != -want) {
      if (bad++ < 10) std::printf("%.17g -> float32 %.17g, want %.17g\n", d, got, want);
    }
  }
  assert_int_equal(bad, 0);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(special_values_in_every_pair),
      cmocka_unit_test(large_integers_round_once_near_ties),
      cmocka_unit_test(floats_truncate_and_saturate_to_integers),
      cmocka_unit_test(integers_wrap_around),
      cmocka_unit_test(reduced_floats_are_nonzero_unless_zero),
      cmocka_unit_test(doubles_round_to_nearest_float),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
