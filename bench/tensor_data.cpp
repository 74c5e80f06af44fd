#include "tensor_data.h"

#include <cmath>
#include <cstring>

#include "bench.h"

namespace bench {
namespace {

int64_t pattern(int64_t i) { return (7 * i + 3) % 251; }

template <typename T>
void fill_as(char* data, int64_t numel) {
  T* p = reinterpret_cast<T*>(data);
  for (int64_t i = 0; i < numel; ++i) p[i] = static_cast<T>(pattern(i));
}

// The pattern's integers (below 2^8, so exact in both) as float16 or
// bfloat16 bits, encoded here from their fields.
void fill_16bit_floats(char* data, int64_t numel, bool half) {
  const int mantissa_bits = half ? 10 : 7, bias = half ? 15 : 127;
  for (int64_t i = 0; i < numel; ++i) {
    const uint32_t v = static_cast<uint32_t>(pattern(i));
    uint16_t bits = 0;
    if (v != 0) {
      const int e = 31 - __builtin_clz(v);  // v = 1.m * 2^e
      const uint32_t m = (v << mantissa_bits >> e) & ((1u << mantissa_bits) - 1);
      bits = static_cast<uint16_t>((static_cast<uint32_t>(e + bias) << mantissa_bits) | m);
    }
    std::memcpy(data + 2 * i, &bits, 2);
  }
}

// float8 bit patterns 0x00-0x77: positive finite numbers in both formats.
void fill_float8(char* data, int64_t numel) {
  for (int64_t i = 0; i < numel; ++i) data[i] = static_cast<char>(pattern(i) % 0x78);
}

template <typename T>
double read_as(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return static_cast<double>(v);
}

// IEEE 754 binary16, decoded from its fields (written here, independent of
// the library's conversions).
double half_to_double(uint16_t h) {
  const int exponent = (h >> 10) & 0x1f;
  const int mantissa = h & 0x3ff;
  double v;
  if (exponent == 0) {
    v = std::ldexp(mantissa, -24);
  } else if (exponent == 31) {
    v = mantissa ? NAN : INFINITY;
  } else {
    v = std::ldexp(mantissa + 1024, exponent - 25);
  }
  return (h & 0x8000) ? -v : v;
}

// An 8-bit float with `mantissa_bits` (3: e4m3fn, 2: e5m2), decoded from
// its fields; e4m3fn's only NaN is S.1111.111, e5m2 is IEEE-like.
double float8_to_double(uint8_t b, int mantissa_bits) {
  const int exponent_bits = 7 - mantissa_bits, bias = (1 << (exponent_bits - 1)) - 1;
  const int exponent = (b & 0x7f) >> mantissa_bits, mantissa = b & ((1 << mantissa_bits) - 1);
  double v;
  if (mantissa_bits == 3 && (b & 0x7f) == 0x7f) {
    v = NAN;
  } else if (mantissa_bits == 2 && exponent == 31) {
    v = mantissa ? NAN : INFINITY;
  } else if (exponent == 0) {
    v = std::ldexp(mantissa, 1 - bias - mantissa_bits);
  } else {
    v = std::ldexp(mantissa + (1 << mantissa_bits), exponent - bias - mantissa_bits);
  }
  return (b & 0x80) ? -v : v;
}

double element_as_double(st_dtype dtype, const char* p) {
  switch (dtype) {
    case ST_UINT16:
      return read_as<uint16_t>(p);
    case ST_UINT32:
      return read_as<uint32_t>(p);
    case ST_UINT64:
      return read_as<uint64_t>(p);
    case ST_FLOAT8_E4M3FN:
      return float8_to_double(static_cast<uint8_t>(*p), 3);
    case ST_FLOAT8_E5M2:
      return float8_to_double(static_cast<uint8_t>(*p), 2);
    case ST_UINT8:
      return read_as<uint8_t>(p);
    case ST_INT8:
      return read_as<int8_t>(p);
    case ST_INT16:
      return read_as<int16_t>(p);
    case ST_INT32:
      return read_as<int32_t>(p);
    case ST_INT64:
      return read_as<int64_t>(p);
    case ST_FLOAT32:
      return read_as<float>(p);
    case ST_FLOAT64:
      return read_as<double>(p);
    case ST_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, p, sizeof h);
      return half_to_double(h);
    }
    case ST_BFLOAT16: {  // the upper half of a float32
      uint16_t h;
      std::memcpy(&h, p, sizeof h);
      const uint32_t bits = static_cast<uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return f;
    }
    default:
      die("check_copy: no reader for dtype %s", st_dtype_name(dtype));
  }
}

// The byte offset of flat (row-major) index `flat` of `l`'s shape.
int64_t byte_offset(const Layout& l, int64_t flat) {
  int64_t offset = 0;
  for (size_t d = l.sizes.size(); d-- > 0;) {
    const int64_t index = flat % l.sizes[d];
    flat /= l.sizes[d];
    offset += index * l.strides[d];
  }
  return offset * static_cast<int64_t>(st_dtype_itemsize(l.dtype));
}

}  // namespace

st_tensor make_tensor(const std::vector<int64_t>& sizes, st_dtype dtype) {
  st_tensor t;
  check(st_tensor_create(sizes.data(), static_cast<int32_t>(sizes.size()), dtype, st_device{ST_DEVICE_CPU, 0}, &t),
        "st_tensor_create");
  return t;
}

Layout layout_of(st_tensor t) {
  Layout l;
  int32_t ndim = 0;
  check(st_tensor_ndim(t, &ndim), "st_tensor_ndim");
  l.sizes.resize(static_cast<size_t>(ndim));
  l.strides.resize(static_cast<size_t>(ndim));
  check(st_tensor_sizes(t, l.sizes.data(), ndim), "st_tensor_sizes");
  check(st_tensor_strides(t, l.strides.data(), ndim), "st_tensor_strides");
  check(st_tensor_dtype(t, &l.dtype), "st_tensor_dtype");
  check(st_tensor_numel(t, &l.numel), "st_tensor_numel");
  void* data = nullptr;
  check(st_tensor_data_ptr(t, &data), "st_tensor_data_ptr");
  l.data = static_cast<char*>(data);
  return l;
}

void fill_pattern(st_tensor t) {
  const Layout l = layout_of(t);
  int32_t contiguous = 0;
  check(st_tensor_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &contiguous), "st_tensor_is_contiguous");
  if (!contiguous) die("fill_pattern: the tensor must be contiguous");
  switch (l.dtype) {
    case ST_UINT8:
      return fill_as<uint8_t>(l.data, l.numel);
    case ST_INT8:
      return fill_as<int8_t>(l.data, l.numel);  // 0..250 wraps to -128..127: both signs
    case ST_INT32:
      return fill_as<int32_t>(l.data, l.numel);
    case ST_INT64:
      return fill_as<int64_t>(l.data, l.numel);
    case ST_FLOAT32:
      return fill_as<float>(l.data, l.numel);
    case ST_FLOAT64:
      return fill_as<double>(l.data, l.numel);
    case ST_UINT16:
      return fill_as<uint16_t>(l.data, l.numel);
    case ST_UINT32:
      return fill_as<uint32_t>(l.data, l.numel);
    case ST_UINT64:
      return fill_as<uint64_t>(l.data, l.numel);
    case ST_FLOAT16:
    case ST_BFLOAT16:
      return fill_16bit_floats(l.data, l.numel, l.dtype == ST_FLOAT16);
    case ST_FLOAT8_E4M3FN:
    case ST_FLOAT8_E5M2:
      return fill_float8(l.data, l.numel);
    default:
      die("fill_pattern: no writer for dtype %s", st_dtype_name(l.dtype));
  }
}

void touch(st_tensor t) {
  const Layout l = layout_of(t);
  int32_t contiguous = 0;
  check(st_tensor_is_contiguous(t, ST_MEMORY_FORMAT_CONTIGUOUS, &contiguous), "st_tensor_is_contiguous");
  if (!contiguous) die("touch: the tensor must be contiguous");
  std::memset(l.data, 0, static_cast<size_t>(l.numel) * st_dtype_itemsize(l.dtype));
}

void check_copy(st_tensor copy, st_tensor source, const char* what) {
  const Layout c = layout_of(copy), s = layout_of(source);
  if (c.sizes != s.sizes) die("%s: the copy's shape differs from the source's", what);
  if (c.numel == 0) return;
  constexpr int64_t kSamples = 256;
  uint64_t state = 0x9e3779b97f4a7c15ull;  // a fixed sequence: the same samples every run
  for (int64_t k = 0; k <= kSamples; ++k) {
    int64_t flat;
    if (k == 0) {
      flat = 0;
    } else if (k == kSamples) {
      flat = c.numel - 1;
    } else {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      flat = static_cast<int64_t>((state >> 11) % static_cast<uint64_t>(c.numel));
    }
    const double got = element_as_double(c.dtype, c.data + byte_offset(c, flat));
    const double want = element_as_double(s.dtype, s.data + byte_offset(s, flat));
    // A float8 copy holds the source rounded: within half its ulp.
    const int mantissa_bits = c.dtype == ST_FLOAT8_E4M3FN ? 3 : c.dtype == ST_FLOAT8_E5M2 ? 2 : 0;
    if (mantissa_bits != 0 ? !(std::fabs(got - want) <= std::ldexp(std::fabs(want), -mantissa_bits - 1))
                           : got != want)
      die("%s: element %lld (row-major) is %g, the source holds %g", what, static_cast<long long>(flat), got, want);
  }
}

}  // namespace bench
