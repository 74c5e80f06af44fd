// What the library touches of the processor outside the per-level kernel
// files: the floating-point control register (Note [The caller's
// floating-point environment], core/numeric/float_env.h) and the fence that
// orders streaming stores. x86-64 and AArch64 here; another processor
// gets the rounding mode of <cfenv> and a C++ release fence.
#pragma once

#include <atomic>
#include <cstdint>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#elif !(defined(__aarch64__) && defined(__GNUC__))
#include <cfenv>
#endif

namespace st {
namespace platform {

#if defined(__x86_64__) || defined(_M_X64)
// MXCSR: every exception masked, round to nearest, no DAZ or FTZ; bits 0-5
// are the sticky exception flags, which do not count as a change.
using FloatControl = unsigned;
constexpr FloatControl kDefaultFloatControl = 0x1F80u;
constexpr FloatControl kFloatControlFlags = 0x3Fu;
inline FloatControl read_float_control() { return _mm_getcsr(); }
inline void write_float_control(FloatControl v) { _mm_setcsr(v); }

// Orders the streaming (non-temporal) stores before what follows.
inline void streaming_store_fence() { _mm_sfence(); }
#elif defined(__aarch64__) && defined(__GNUC__)
// FPCR: 0 is round to nearest, no flush-to-zero (FZ, FZ16), IEEE NaNs (no
// DN), IEEE half precision (no AHP) and no trapped exception; the sticky
// flags live in FPSR, not here.
using FloatControl = uint64_t;
constexpr FloatControl kDefaultFloatControl = 0;
constexpr FloatControl kFloatControlFlags = 0;
inline FloatControl read_float_control() {
  FloatControl v;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(v) : : "memory");
  return v;
}
inline void write_float_control(FloatControl v) { __asm__ __volatile__("msr fpcr, %0" : : "r"(v) : "memory"); }

// A data memory barrier orders the non-temporal stores (STNP) too.
inline void streaming_store_fence() { std::atomic_thread_fence(std::memory_order_release); }
#else
// Only the rounding mode, through <cfenv>.
using FloatControl = int;
constexpr FloatControl kDefaultFloatControl = FE_TONEAREST;
constexpr FloatControl kFloatControlFlags = 0;
inline FloatControl read_float_control() { return std::fegetround(); }
inline void write_float_control(FloatControl v) { std::fesetround(v); }

inline void streaming_store_fence() { std::atomic_thread_fence(std::memory_order_release); }
#endif

}  // namespace platform
}  // namespace st
