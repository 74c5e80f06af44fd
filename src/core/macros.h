// Compiler helpers shared by every layer, host and device code alike.
#pragma once

#if defined(__CUDACC__)
#define ST_HOST_DEVICE __host__ __device__
#define ST_FORCE_INLINE __forceinline__
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

#define ST_LIKELY(x) __builtin_expect(!!(x), 1)
#define ST_UNLIKELY(x) __builtin_expect(!!(x), 0)
