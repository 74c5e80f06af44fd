// The portable level of the vector traits (vec_base.h): 16-byte vectors of
// plain bytes, shuffled by element loops; no streaming stores, tiles
// element by element, conversions by the scalar rules. The fallback on
// every machine, and the level the tests check the others against.
#pragma once

#include <cstdint>
#include <cstring>

#include "cpu/vec/vec_base.h"

namespace st {
namespace cpu {
namespace {

// 16 bytes, moved with memcpy (SSE2 or NEON moves once optimized).
struct Bytes16 {
  unsigned char b[16];
};

struct VecScalar : VecBase, BytewiseParts<16> {
  static constexpr const char* kName = "scalar";
  static constexpr int64_t kBytes = 16;

  using Vec = Bytes16;
  static Vec load(const char* p) {
    Vec v;
    std::memcpy(v.b, p, kBytes);
    return v;
  }
  static void store(char* p, Vec v) { std::memcpy(p, v.b, kBytes); }
  static void stream(char* p, Vec v) { store(p, v); }
  static void fence() {}
  static Vec zero() { return Vec{}; }

  static Vec splat8(uint64_t v) {
    Vec r;
    std::memcpy(r.b, &v, 8);
    std::memcpy(r.b + 8, &v, 8);
    return r;
  }
  static Vec splat16(const char* p) { return load(p); }
  template <int E>
  static Vec reverse(Vec v) {
    Vec r;
    for (int o = 0; o < kBytes; o += E) std::memcpy(r.b + o, v.b + kBytes - E - o, E);
    return r;
  }
  // Elements 0, 2, 4, ... of the 2 * kBytes bytes at p.
  template <int E>
  static Vec every_second(const char* p) {
    Vec r;
    for (int o = 0; o < kBytes; o += E) std::memcpy(r.b + o, p + 2 * o, E);
    return r;
  }
};

#if !defined(__x86_64__)
// The x86 levels are never selected here; their files build these kernels.
using VecAvx2 = VecScalar;
using VecAvx512 = VecScalar;
#endif

}  // namespace
}  // namespace cpu
}  // namespace st
