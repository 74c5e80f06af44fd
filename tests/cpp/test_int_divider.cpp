// IntDivider against plain division: every edge divisor and dividend of the
// 32-bit range, and millions of random pairs.
#include <cinttypes>
#include <cstdint>
#include <random>
#include <vector>

#include "core/error.h"
#include "cuda/kernels/int_divider.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::cuda::DivMod;
using st::cuda::IntDivider;

namespace {

// Checks div, mod and divmod of n by d; returns false (after printing) on a mismatch.
bool check_one(const IntDivider<uint32_t>& divider, uint32_t n) {
  const uint32_t d = divider.divisor;
  const uint32_t q = n / d, r = n % d;
  const DivMod<uint32_t> qr = divider.divmod(n);
  if (divider.div(n) == q && divider.mod(n) == r && qr.div == q && qr.mod == r) return true;
  print_error("%" PRIu32 " / %" PRIu32 ": div %" PRIu32 " mod %" PRIu32 " divmod (%" PRIu32 ", %" PRIu32
              "), expected %" PRIu32 " rem %" PRIu32 "\n",
              n, d, divider.div(n), divider.mod(n), qr.div, qr.mod, q, r);
  return false;
}

// The dividends where an off-by-one in the magic number would show: around
// 0, around multiples of d at both ends of the range, around 2^31, and the top.
std::vector<uint32_t> edge_dividends(uint32_t d) {
  std::vector<uint32_t> ns = {0u, 1u, 2u, 0x7FFFFFFEu, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  const uint64_t top_multiple = (uint64_t{UINT32_MAX} / d) * d;
  for (uint64_t k : {uint64_t{1}, uint64_t{2}, uint64_t{3}, uint64_t{UINT32_MAX} / d / 2, uint64_t{UINT32_MAX} / d - 1,
                     uint64_t{UINT32_MAX} / d}) {
    const uint64_t m = k * d;
    if (k == 0 || m > top_multiple) continue;
    for (int64_t delta = -2; delta <= 2; ++delta) {
      const int64_t n = static_cast<int64_t>(m) + delta;
      if (n >= 0 && n <= static_cast<int64_t>(UINT32_MAX)) ns.push_back(static_cast<uint32_t>(n));
    }
  }
  return ns;
}

std::vector<uint32_t> edge_divisors() {
  std::vector<uint32_t> ds;
  for (uint32_t d = 1; d <= 1024; ++d) ds.push_back(d);
  for (int k = 1; k < 32; ++k) {
    const uint64_t p = uint64_t{1} << k;
    for (int64_t delta = -1; delta <= 1; ++delta) ds.push_back(static_cast<uint32_t>(static_cast<int64_t>(p) + delta));
  }
  // 2^32 - 1 = 3 * 5 * 17 * 257 * 65537, and the factors of 2^32 + 1.
  for (uint32_t d : {0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFDu, 0x7FFFFFFFu, 0x80000001u, 65537u, 65535u, 641u,
                     6700417u, 3u * 5u * 17u * 257u, 1000000007u, 2147483629u, 4294967291u})
    ds.push_back(d);
  return ds;
}

void edge_divisors_and_dividends(void**) {
  long checks = 0;
  for (uint32_t d : edge_divisors()) {
    const IntDivider<uint32_t> divider(d);
    for (uint32_t n : edge_dividends(d)) {
      if (!check_one(divider, n)) fail();
      ++checks;
    }
  }
  std::printf("edge_divisors_and_dividends: %ld checks\n", checks);
}

// Random divisors of every bit length, each with random dividends of every bit length.
void random_divisors_and_dividends(void**) {
  std::mt19937_64 rng(test_seed("random_divisors_and_dividends"));
  auto random_bits = [&](int max_bits) {
    const int bits = 1 + static_cast<int>(rng() % static_cast<uint64_t>(max_bits));
    return static_cast<uint32_t>(rng() >> (64 - bits));
  };
  long checks = 0;
  for (int i = 0; i < 4000; ++i) {
    uint32_t d = 0;
    while (d == 0) d = random_bits(32);
    const IntDivider<uint32_t> divider(d);
    for (int j = 0; j < 1000; ++j) {
      if (!check_one(divider, random_bits(32))) fail();
      ++checks;
    }
  }
  std::printf("random_divisors_and_dividends: %ld checks\n", checks);
}

// Consecutive dividends across whole runs of quotients, for small and large divisors.
void dense_runs(void**) {
  long checks = 0;
  for (uint32_t d : {3u, 7u, 10u, 641u, 65537u, 0x7FFFFFFFu, 0x80000001u, 0xFFFFFFFFu}) {
    const IntDivider<uint32_t> divider(d);
    for (uint32_t start : {0u, 0x7FFF0000u, 0xFFFF0000u}) {
      for (uint32_t k = 0; k < 0x10000u; ++k) {
        if (!check_one(divider, start + k)) fail();
        ++checks;
      }
    }
  }
  std::printf("dense_runs: %ld checks\n", checks);
}

void default_divides_by_one(void**) {
  const IntDivider<uint32_t> divider;
  for (uint32_t n : {0u, 1u, 12345u, 0xFFFFFFFFu}) assert_true(check_one(divider, n));
}

void zero_divisor_is_refused(void**) {
  bool threw = false;
  try {
    IntDivider<uint32_t> divider(0);
    (void)divider;
  } catch (const st::Error& e) {
    threw = e.code() == ST_ERROR_INTERNAL;
  }
  assert_true(threw);
}

// The generic divider (64-bit indexing) is plain division.
void wide_divider(void**) {
  for (uint64_t d : {uint64_t{1}, uint64_t{3}, uint64_t{0x100000000}, ~uint64_t{0}}) {
    const IntDivider<uint64_t> divider(d);
    for (uint64_t n : {uint64_t{0}, d - 1, d, ~uint64_t{0}}) {
      const DivMod<uint64_t> qr = divider.divmod(n);
      assert_true(qr.div == n / d && qr.mod == n % d && divider.div(n) == n / d && divider.mod(n) == n % d);
    }
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(edge_divisors_and_dividends), cmocka_unit_test(random_divisors_and_dividends),
      cmocka_unit_test(dense_runs),                  cmocka_unit_test(default_divides_by_one),
      cmocka_unit_test(zero_divisor_is_refused),     cmocka_unit_test(wide_divider),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
