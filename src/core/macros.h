// Compiler helpers shared by every layer, host and device code alike: the
// one home of the compiler's builtins and attributes, spelled for GCC and
// Clang (clang-cl included) and for MSVC. Only the GCC and Clang spellings
// are built and tested; the MSVC ones are kept to this file and small.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(_MSC_VER) && !defined(__clang__)
#define ST_COMPILER_MSVC 1
#else
#define ST_COMPILER_MSVC 0
#endif

#if defined(__CUDACC__)
#define ST_HOST_DEVICE __host__ __device__
#define ST_FORCE_INLINE __forceinline__
#elif ST_COMPILER_MSVC
#define ST_HOST_DEVICE
#define ST_FORCE_INLINE __forceinline
#else
#define ST_HOST_DEVICE
#define ST_FORCE_INLINE inline __attribute__((always_inline))
#endif

// Unrolls the loop that follows in device code; nothing on the host, where
// g++ (also as nvcc's host compiler) would warn about an unknown pragma.
#if defined(__CUDA_ARCH__)
#define ST_UNROLL _Pragma("unroll")
#else
#define ST_UNROLL
#endif

// C99's restrict on a pointer: while it is in scope, what is written
// through it is reached through it alone, so the compiler may keep loads
// from other pointers in flight across its stores (and, on the device, read
// through the non-coherent cache).
#if ST_COMPILER_MSVC
#define ST_RESTRICT __restrict
#else
#define ST_RESTRICT __restrict__
#endif

#if ST_COMPILER_MSVC
#define ST_LIKELY(x) (x)
#define ST_UNLIKELY(x) (x)
#define ST_NOINLINE __declspec(noinline)
#define ST_PRINTF_FORMAT(format_arg, first_arg)
// A hint only; MSVC builds go without it.
#define ST_PREFETCH_TO_L2(p) ((void)(p))
#define ST_PREFETCH(p) ((void)(p))
#else
#define ST_LIKELY(x) __builtin_expect(!!(x), 1)
#define ST_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ST_NOINLINE __attribute__((noinline))
// The function takes a printf format at argument format_arg (1-based) and
// its values from first_arg on: the compiler checks the calls. MinGW's C++
// runtime formats as C99 says (__USE_MINGW_ANSI_STDIO), which GCC calls
// gnu_printf there; its plain printf is Microsoft's, without %zu.
#if defined(__MINGW32__)
#define ST_PRINTF_FORMAT(format_arg, first_arg) __attribute__((format(gnu_printf, format_arg, first_arg)))
#else
#define ST_PRINTF_FORMAT(format_arg, first_arg) __attribute__((format(printf, format_arg, first_arg)))
#endif
// Prefetches the line at p for reading, with low temporal locality (x86:
// prefetcht2, into L2).
#define ST_PREFETCH_TO_L2(p) __builtin_prefetch((p), 0, 1)
// Prefetches the line at p for reading, into every level (x86: prefetcht0).
#define ST_PREFETCH(p) __builtin_prefetch((p), 0, 3)
#endif

// MinGW-w64's C library rounds fmaf twice (core/numeric/scaled_convert.h rounds
// once in its place).
#if defined(__MINGW32__) && !defined(__CUDA_ARCH__)
#define ST_LIBC_FMAF_ROUNDS_TWICE 1
#else
#define ST_LIBC_FMAF_ROUNDS_TWICE 0
#endif

// Whether C++ thread_local storage may be freed before the library's
// thread-exit hooks run (core/runtime/platform/platform.h's ThreadExitHook): GCC
// for MinGW emulates thread_local (emutls), and winpthreads frees a
// thread's emulated storage when its start function returns, before
// Windows runs the fiber-local storage callbacks. Per-thread state that a
// hook must finish then lives in a heap block that the hook owns
// (core/runtime/platform/thread_exit_state.h). Elsewhere thread_local storage
// outlives the hooks.
#if defined(__MINGW32__) && defined(__GNUC__) && !defined(__clang__)
#define ST_THREAD_LOCAL_FREED_BEFORE_EXIT_HOOKS 1
#else
#define ST_THREAD_LOCAL_FREED_BEFORE_EXIT_HOOKS 0
#endif

// The general-dynamic TLS model for a thread_local of the shared library:
// the one GCC gives the library's other thread_locals. Left to itself it
// gives a static member of a class template instantiated from inside
// another one (core/runtime/platform/thread_exit_state.h) the local-dynamic model,
// as fast, but other code for every access.
#if ST_COMPILER_MSVC
#define ST_TLS_GLOBAL_DYNAMIC
#else
#define ST_TLS_GLOBAL_DYNAMIC __attribute__((tls_model("global-dynamic")))
#endif

namespace st {

// Leading zero bits of a nonzero 64-bit value.
#if !ST_COMPILER_MSVC
constexpr int leading_zeros64(uint64_t x) { return __builtin_clzll(x); }
#else
constexpr int leading_zeros64(uint64_t x) {
  int n = 0;
  for (uint64_t bit = uint64_t{1} << 63; bit != 0 && (x & bit) == 0; bit >>= 1) ++n;
  return n;
}
#endif

}  // namespace st
