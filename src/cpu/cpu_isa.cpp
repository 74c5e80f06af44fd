#include "cpu/cpu_isa.h"

#include <atomic>
#include <cstring>
#include <string>

#include "core/runtime/environment.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace st {
namespace cpu {
namespace {

#if defined(__x86_64__) || defined(__i386__)
// XCR0 says which register states the OS saves; AVX needs XMM|YMM (bits
// 1-2), AVX-512 also opmask|ZMM_Hi256|Hi16_ZMM (bits 5-7).
unsigned long long read_xcr0() {
  unsigned eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<unsigned long long>(edx) << 32) | eax;
}

CpuIsa detect() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return CpuIsa::Scalar;
  const bool osxsave = c & (1u << 27), fma = c & (1u << 12), f16c = c & (1u << 29);
  if (!osxsave || !fma || !f16c) return CpuIsa::Scalar;
  const unsigned long long xcr0 = read_xcr0();
  if ((xcr0 & 0x6) != 0x6) return CpuIsa::Scalar;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return CpuIsa::Scalar;
  const bool avx2 = b & (1u << 5), bmi2 = b & (1u << 8);
  if (!avx2 || !bmi2) return CpuIsa::Scalar;
  const bool f = b & (1u << 16), dq = b & (1u << 17), bw = b & (1u << 30), vl = b & (1u << 31);
  if (f && dq && bw && vl && (xcr0 & 0xe0) == 0xe0) return CpuIsa::Avx512;
  return CpuIsa::Avx2;
}

// Leaf 7 subleaf 1 (which leaf 7 subleaf 0 lists in eax), eax bit 5; it
// uses the AVX-512 register state, checked with the level.
bool detect_avx512_bf16() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (detected_cpu_isa() < CpuIsa::Avx512 || !__get_cpuid_count(7, 0, &a, &b, &c, &d) || a < 1) return false;
  return __get_cpuid_count(7, 1, &a, &b, &c, &d) && (a & (1u << 5)) != 0;
}

#elif ST_CPU_NEON_LEVEL
// Advanced SIMD is part of every AArch64 processor (cpu/vec/vec_neon.h says
// why nothing further is read at run time).
CpuIsa detect() { return CpuIsa::Neon; }
bool detect_avx512_bf16() { return false; }
#else
CpuIsa detect() { return CpuIsa::Scalar; }
bool detect_avx512_bf16() { return false; }
#endif

// The levels' names, by CpuIsa value, as ST_CPU_CAPABILITY spells them.
#if ST_CPU_X86_LEVELS
constexpr const char* kLevelNames[] = {"scalar", "avx2", "avx512"};
constexpr const char* kLevelList = "scalar, avx2 or avx512";
#elif ST_CPU_NEON_LEVEL
constexpr const char* kLevelNames[] = {"scalar", "neon"};
constexpr const char* kLevelList = "scalar or neon";
#else
constexpr const char* kLevelNames[] = {"scalar"};
constexpr const char* kLevelList = "scalar";
#endif
constexpr int kNumLevels = static_cast<int>(sizeof(kLevelNames) / sizeof(kLevelNames[0]));

// ST_CPU_CAPABILITY's cap, read once (Note [Reading the environment]): a
// level's name; one above the CPU's is ignored too, as PyTorch's
// ATEN_CPU_CAPABILITY is.
CpuIsa environment_cap() {
  static const CpuIsa cap = [] {
    const int level = env::read_word("ST_CPU_CAPABILITY", kLevelNames, kNumLevels, kLevelList);
    if (level < 0) return kHighestCpuIsa;
    const CpuIsa detected = detected_cpu_isa();
    if (level > static_cast<int>(detected)) {
      env::note_ignored("ST_CPU_CAPABILITY", kLevelNames[level],
                        std::string("this CPU's highest level is ") + kLevelNames[static_cast<int>(detected)]);
      return kHighestCpuIsa;
    }
    return static_cast<CpuIsa>(level);
  }();
  return cap;
}

std::atomic<int> g_cap{-1};  // -1: ST_CPU_CAPABILITY not read yet

}  // namespace

CpuIsa detected_cpu_isa() {
  static const CpuIsa isa = detect();
  return isa;
}

CpuIsa cpu_isa() {
  const int detected = static_cast<int>(detected_cpu_isa());
  int cap = g_cap.load(std::memory_order_relaxed);
  if (cap < 0) {
    // A setter's cap stays; else the environment's.
    g_cap.compare_exchange_strong(cap, static_cast<int>(environment_cap()), std::memory_order_relaxed);
    cap = g_cap.load(std::memory_order_relaxed);
  }
  return static_cast<CpuIsa>(cap < detected ? cap : detected);
}

bool cpu_has_avx512_bf16() {
  static const bool has = detect_avx512_bf16();
  return has;
}

void set_cpu_isa_cap(CpuIsa cap) { g_cap.store(static_cast<int>(cap), std::memory_order_relaxed); }

const char* cpu_isa_name(CpuIsa isa) {
  const int i = static_cast<int>(isa);
  return i >= 0 && i < kNumLevels ? kLevelNames[i] : "unknown";
}

bool cpu_isa_from_name(const char* name, CpuIsa* out) {
  for (int i = 0; name && i < kNumLevels; ++i) {
    if (std::strcmp(name, kLevelNames[i]) == 0) {
      *out = static_cast<CpuIsa>(i);
      return true;
    }
  }
  return false;
}

}  // namespace cpu
}  // namespace st
