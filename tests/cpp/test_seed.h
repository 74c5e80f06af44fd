// The seed of a test's random cases: ST_TEST_SEED from the environment, or
// a fresh one. Printed either way, so any failure can be repeated.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

inline uint64_t test_seed(const char* test_name) {
  uint64_t seed;
  if (const char* env = std::getenv("ST_TEST_SEED")) {
    seed = std::strtoull(env, nullptr, 10);
  } else {
    std::random_device rd;
    seed = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  }
  std::printf("%s: seed %" PRIu64 " (ST_TEST_SEED=%" PRIu64 " repeats it)\n", test_name, seed, seed);
  std::fflush(stdout);
  return seed;
}
