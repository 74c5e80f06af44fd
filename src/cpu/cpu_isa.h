// The instruction-set level the CPU kernels run at, detected once from
// cpuid. Kernels compiled for a level live in files named *_avx2.cpp and
// *_avx512.cpp (built with per-file flags, see src/CMakeLists.txt) and are
// only called when cpu_isa() reports that level or higher.
#pragma once

// Whether the target has the x86 levels at all: their files are compiled
// for x86-64 targets only (src/CMakeLists.txt), and on any other target
// cpu_isa() is Scalar and the AVX2 and AVX-512 tables do not exist.
#if defined(__x86_64__) || defined(_M_X64)
#define ST_CPU_X86_LEVELS 1
#else
#define ST_CPU_X86_LEVELS 0
#endif

namespace st {
namespace cpu {

enum class CpuIsa : int {
  Scalar = 0,  // portable C++: the fallback on every machine
  Avx2 = 1,    // AVX2 + FMA + F16C + BMI2
  Avx512 = 2,  // AVX-512 F, BW, VL, DQ (plus the Avx2 set)
};

// The highest level this CPU (and its OS, for the register state) supports.
CpuIsa detected_cpu_isa();

// The level kernels use now: the detected one, lowered by set_cpu_isa_cap.
CpuIsa cpu_isa();

// For tests: run kernels at `cap` or lower, so every level available on the
// machine can be checked against the portable one. Raising the cap above
// the detected level has no effect.
void set_cpu_isa_cap(CpuIsa cap);

const char* cpu_isa_name(CpuIsa isa);

// Who designed the CPU: the memory systems of the two x86 vendors want
// their long streaming copies written differently (stream_tuning.h).
enum class CpuVendor : int { Other = 0, Intel, Amd };

CpuVendor detected_cpu_vendor();

// The one of three per-level things (the kernel tables) that cpu_isa()
// selects. Only that one's function is called: a level's code must not run
// on a CPU without it.
template <typename T>
const T& for_cpu_isa(const T& (*scalar)(), const T& (*avx2)(), const T& (*avx512)()) {
  switch (cpu_isa()) {
    case CpuIsa::Avx512: return avx512();
    case CpuIsa::Avx2: return avx2();
    case CpuIsa::Scalar: break;
  }
  return scalar();
}

}  // namespace cpu
}  // namespace st
