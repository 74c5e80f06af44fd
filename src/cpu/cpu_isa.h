// The instruction-set level the CPU kernels run at, detected once (cpuid on
// x86-64). Kernels compiled for a level live in its folder of cpu/levels/
// (avx2/, avx512/, avx512bf16/, neon/: built with that level's flags, see
// src/CMakeLists.txt), and are only called when cpu_isa() reports that
// level or higher.
#pragma once

// Which levels the target has: the x86 ones' files are compiled for x86-64
// targets only and the NEON one's for AArch64 only (src/CMakeLists.txt); a
// level's tables do not exist on another target, and on a target with
// neither cpu_isa() is Scalar.
#if defined(__x86_64__) || defined(_M_X64)
#define ST_CPU_X86_LEVELS 1
#else
#define ST_CPU_X86_LEVELS 0
#endif
#if defined(__aarch64__) || defined(_M_ARM64)
#define ST_CPU_NEON_LEVEL 1
#else
#define ST_CPU_NEON_LEVEL 0
#endif

namespace st {
namespace cpu {

// The target's levels, in order: a higher one has everything of those below.
enum class CpuIsa : int {
  Scalar = 0,  // portable C++: the fallback on every machine
#if ST_CPU_X86_LEVELS
  Avx2 = 1,    // AVX2 + FMA + F16C + BMI2
  Avx512 = 2,  // AVX-512 F, BW, VL, DQ (plus the Avx2 set)
#elif ST_CPU_NEON_LEVEL
  Neon = 1,  // Advanced SIMD, in every AArch64 processor (cpu/vec/vec_neon.h)
#endif
};

// The target's highest level: the cap that lowers nothing.
#if ST_CPU_X86_LEVELS
constexpr CpuIsa kHighestCpuIsa = CpuIsa::Avx512;
#elif ST_CPU_NEON_LEVEL
constexpr CpuIsa kHighestCpuIsa = CpuIsa::Neon;
#else
constexpr CpuIsa kHighestCpuIsa = CpuIsa::Scalar;
#endif

// The highest level this CPU (and its OS, for the register state) supports.
CpuIsa detected_cpu_isa();

// The level kernels use now: the detected one, lowered by the cap:
// ST_CPU_CAPABILITY's level (a name of cpu_isa_name, read at the first call;
// docs/tuning.md) until set_cpu_isa_cap sets another.
CpuIsa cpu_isa();

// For tests and stride-bench's --level: run kernels at `cap` or lower, so every level available on the
// machine can be checked against the portable one. Raising the cap above
// the detected level has no effect; kHighestCpuIsa lifts it.
void set_cpu_isa_cap(CpuIsa cap);

// "scalar", "avx2", "avx512" or "neon": the names ST_CPU_CAPABILITY and
// stride-bench's --level take.
const char* cpu_isa_name(CpuIsa isa);
// The target's level called `name`, if it has one.
bool cpu_isa_from_name(const char* name, CpuIsa* out);

// AVX512_BF16 (float32 -> bfloat16 in one instruction) on a CPU at the
// AVX-512 level: one row converter uses it (cpu/levels/avx512bf16/).
bool cpu_has_avx512_bf16();

// The one of the target's per-level things (the kernel tables) that
// cpu_isa() selects. Only that one's function is called: a level's code
// must not run on a CPU without it.
#if ST_CPU_X86_LEVELS
template <typename T>
const T& for_cpu_isa(const T& (*scalar)(), const T& (*avx2)(), const T& (*avx512)()) {
  switch (cpu_isa()) {
    case CpuIsa::Avx512: return avx512();
    case CpuIsa::Avx2: return avx2();
    case CpuIsa::Scalar: break;
  }
  return scalar();
}
#elif ST_CPU_NEON_LEVEL
template <typename T>
const T& for_cpu_isa(const T& (*scalar)(), const T& (*neon)()) {
  return cpu_isa() == CpuIsa::Neon ? neon() : scalar();
}
#endif

}  // namespace cpu
}  // namespace st
