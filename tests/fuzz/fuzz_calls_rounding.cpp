// The conversions whose results hang on the floating-point environment,
// probed under the one op_fp_env has just set: int32/int64/uint64 ->
// float32/float64 (ties at 2^24 + 1, 2^53 + 1, near 2^64), float64 ->
// float32 (ties, overflow, subnormal results), float32 -> float64 and
// float -> bool (subnormals, which DAZ would read as zero). The values the
// fuzzer's model keeps (fuzz_values.h) are exact in every dtype, so they
// cannot show a wrong rounding; these can. The expected element is the
// host's own conversion in the default environment (one IEEE operation,
// rounding to nearest even), computed after the call, outside it.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "fuzz_calls.h"
#include "fuzz_checks.h"

namespace fuzz {
namespace {

struct Pair {
  st_dtype dst, src;
};
const Pair kPairs[] = {
    {ST_FLOAT32, ST_INT32},  {ST_FLOAT32, ST_INT64},   {ST_FLOAT64, ST_INT64},  {ST_FLOAT32, ST_UINT64},
    {ST_FLOAT64, ST_UINT64}, {ST_FLOAT32, ST_FLOAT64}, {ST_FLOAT64, ST_FLOAT32}, {ST_BOOL, ST_FLOAT32},
    {ST_BOOL, ST_FLOAT64},
};

// Starting points near the rounding-sensitive cases; element i adds i to
// the integer, or to the float's bits.
const uint64_t kIntStarts[] = {(1u << 24) - 3, (uint64_t{1} << 53) - 3, UINT64_MAX - 1500, uint64_t{1} << 63,
                               (uint64_t{1} << 63) + (uint64_t{1} << 39) - 2, 0x7FFFFF80u, 0};
const double kDoubleStarts[] = {0x1.000001p0, -1e300, 0x1p-140, 1e-310, 0x1.fffffefffffffp127, -0x1p-149, 65520.0};
const float kFloatStarts[] = {0x1p-130f, -0x1p-149f, 0x1p-126f, 1.0f};

template <typename T>
T from_bits_plus(uint64_t bits, int64_t i) {
  T v;
  if constexpr (sizeof(T) == 4) {
    const uint32_t b = static_cast<uint32_t>(bits) + static_cast<uint32_t>(i);
    std::memcpy(&v, &b, 4);
  } else {
    const uint64_t b = bits + static_cast<uint64_t>(i);
    std::memcpy(&v, &b, 8);
  }
  return v;
}

// Element i of a source of dtype `src`, starting at `start` (an integer, or a float's bits).
void put_source(st_dtype src, unsigned char* p, uint64_t start, int64_t i) {
  switch (src) {
    case ST_INT32: {
      const int32_t v = static_cast<int32_t>(static_cast<uint32_t>(start) + static_cast<uint32_t>(i));
      std::memcpy(p, &v, 4);
      return;
    }
    case ST_FLOAT32: {
      const float v = from_bits_plus<float>(start, i);
      std::memcpy(p, &v, 4);
      return;
    }
    default: {  // int64, uint64, float64: eight bytes
      const uint64_t v = start + static_cast<uint64_t>(i);
      std::memcpy(p, &v, 8);
      return;
    }
  }
}

// The source element as a double or float, and the reference conversion.
bool expected_bool(st_dtype src, const unsigned char* p) {
  if (src == ST_FLOAT32) {
    float v;
    std::memcpy(&v, p, 4);
    return v != 0.0f;  // NaN is nonzero
  }
  double v;
  std::memcpy(&v, p, 8);
  return v != 0.0;
}

template <typename F>
F expected_float(st_dtype src, const unsigned char* p) {
  switch (src) {
    case ST_INT32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return static_cast<F>(v);
    }
    case ST_INT64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<F>(v);
    }
    case ST_UINT64: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return static_cast<F>(v);
    }
    case ST_FLOAT32: {
      float v;
      std::memcpy(&v, p, 4);
      return static_cast<F>(v);
    }
    default: {
      double v;
      std::memcpy(&v, p, 8);
      return static_cast<F>(v);
    }
  }
}

template <typename F>
bool same_float(const unsigned char* got, F want) {
  F g;
  std::memcpy(&g, got, sizeof g);
  if (std::isnan(want)) return std::isnan(g);
  return std::memcmp(&g, &want, sizeof g) == 0;
}

}  // namespace

void probe_rounding(Input& in) {
  const Pair pair = pick_from(in, kPairs);
  const uint8_t how = in.u8();
  uint64_t start;
  if (how % 4 == 0) {
    start = in.u64();  // any bits
  } else if (pair.src == ST_FLOAT64) {
    const double d = pick_from(in, kDoubleStarts);
    std::memcpy(&start, &d, 8);
  } else if (pair.src == ST_FLOAT32) {
    const float f = pick_from(in, kFloatStarts);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    start = b;
  } else {
    start = pick_from(in, kIntStarts);
  }
  static const int64_t kCounts[] = {1, 3, 16, 65, 200, 1000};
  const int64_t n = pick_from(in, kCounts);
  int64_t stride = (how / 4) % 3 == 2 ? -1 : (how / 4) % 3 + 1;  // 1, 2 or -1 (backwards)
  const size_t se = item_size(pair.src), de = item_size(pair.dst);
  const int64_t span = (n - 1) * (stride < 0 ? -stride : stride) + 1;
  static std::vector<unsigned char> src_buf, dst_buf;  // reused, see snapshot()
  src_buf.assign(static_cast<size_t>(span) * se, 0);
  dst_buf.assign(static_cast<size_t>(n) * de, 0);
  unsigned char* first = src_buf.data() + (stride < 0 ? static_cast<size_t>(span - 1) * se : 0);
  for (int64_t i = 0; i < n; ++i) put_source(pair.src, first + i * stride * static_cast<int64_t>(se), start, i);

  const st_device cpu{ST_DEVICE_CPU, 0};
  st_tensor src{0}, dst{0};
  int64_t count = n;
  const st_status made_src = st_tensor_from_data(first, &count, &stride, 1, pair.src, cpu, nullptr, nullptr, &src);
  const st_status made_dst =
      st_tensor_from_data(dst_buf.data(), &count, nullptr, 1, pair.dst, cpu, nullptr, nullptr, &dst);
  if (made_src != ST_OK || made_dst != ST_OK) {  // only an allocation the input refused may fail
    FUZZ_CHECK(made_src != ST_OK ? made_src == ST_ERROR_OUT_OF_MEMORY : made_dst == ST_ERROR_OUT_OF_MEMORY,
               "st_tensor_from_data of a probe failed: %s", st_status_name(made_src != ST_OK ? made_src : made_dst));
    if (src.id) FUZZ_CHECK(st_tensor_release(src) == ST_OK, "releasing a probe");
    if (dst.id) FUZZ_CHECK(st_tensor_release(dst) == ST_OK, "releasing a probe");
    return;
  }
  const Frame f = begin_call();
  st_status s;
  {
    HostileFpEnv fp;
    s = st_copy(dst, src, 0);
  }
  check_status("st_copy", s);
  FUZZ_CHECK(st_tensor_release(src) == ST_OK && st_tensor_release(dst) == ST_OK, "releasing a probe");
  if (s == ST_ERROR_INTERNAL) return;  // the job system broke its contract: dst may be partly written
  FUZZ_CHECK(s == ST_OK || (s == ST_ERROR_OUT_OF_MEMORY && allocation_refused(f)), "st_copy of a probe returned %s",
             st_status_name(s));
  if (s != ST_OK) return;
  for (int64_t i = 0; i < n; ++i) {
    const unsigned char* sp = first + i * stride * static_cast<int64_t>(se);
    const unsigned char* dp = dst_buf.data() + static_cast<size_t>(i) * de;
    bool ok;
    if (pair.dst == ST_BOOL) {
      ok = *dp == (expected_bool(pair.src, sp) ? 1 : 0);
    } else if (pair.dst == ST_FLOAT32) {
      ok = same_float(dp, expected_float<float>(pair.src, sp));
    } else {
      ok = same_float(dp, expected_float<double>(pair.src, sp));
    }
    FUZZ_CHECK(ok, "st_copy %s -> %s of %lld elements under rounding %d%s: element %lld differs from the rule",
               st_dtype_name(pair.src), st_dtype_name(pair.dst), (long long)n, g_fp_env.rounding,
               g_fp_env.flush_denormals ? " with DAZ/FTZ" : "", (long long)i);
  }
}

}  // namespace fuzz
