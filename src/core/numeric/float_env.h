// The default floating-point environment for the span of a conversion,
// whatever the calling thread's (Note [The caller's floating-point
// environment]).
#pragma once

#include "core/macros.h"
#include "core/runtime/platform/processor.h"

namespace st {

// Note [The caller's floating-point environment]
// The conversion rules hold for every caller, but the instructions that
// convert (int -> float, float64 -> float32, the vector conversions, the
// float arithmetic of the float16 and float8 roundings, comparisons with
// zero for -> bool) follow the thread's floating-point environment: its
// rounding mode (fesetround), and on x86 the MXCSR's denormals-are-zero
// and flush-to-zero bits (bits 6 and 15, set by game engines and audio
// hosts) and its exception masks (an unmasked overflow would trap). Each
// conversion could be made exact by construction with integer bit
// manipulation instead, but that would give up the one-instruction
// conversions and the vector kernels built on them. So the library runs
// its conversions in the default environment: where a conversion is about
// to run on a thread (the entry of the CPU copy and fill kernels, the host
// side of the CUDA fill, the start of each parallel chunk, on OpenMP
// workers and on a host job system's threads alike), a
// DefaultFloatEnvironment reads the control register once (stmxcsr, a
// nanosecond), and only when it differs from the default (0x1F80: every
// exception masked, round to nearest, no DAZ or FTZ; the six exception
// flags, bits 0-5, do not count) sets the default for its scope and puts
// the caller's register back, flags included, at its end. In the default
// environment a call costs that one read and may raise exception flags,
// as any floating-point work does; it never clears one. A job system's own
// function, called from inside a kernel, sees the default environment on
// the calling thread. x87 is not involved: float and double use SSE on
// x86-64, and the library has no long double. On AArch64 the same rules
// hold through FPCR (default 0: round to nearest, no FZ, FZ16 or DN, no
// trapped exception; its flags live in FPSR, which is never written).
// Elsewhere only the rounding mode is reset (through <cfenv>). The
// registers' access is core/platform/processor.h.
class DefaultFloatEnvironment {
 public:
  DefaultFloatEnvironment() noexcept : saved_(platform::read_float_control()) {
    if (ST_UNLIKELY(changed())) platform::write_float_control(platform::kDefaultFloatControl);
  }
  ~DefaultFloatEnvironment() {
    if (ST_UNLIKELY(changed())) platform::write_float_control(saved_);
  }
  DefaultFloatEnvironment(const DefaultFloatEnvironment&) = delete;
  DefaultFloatEnvironment& operator=(const DefaultFloatEnvironment&) = delete;

 private:
  bool changed() const { return (saved_ & ~platform::kFloatControlFlags) != platform::kDefaultFloatControl; }
  platform::FloatControl saved_;
};

}  // namespace st
