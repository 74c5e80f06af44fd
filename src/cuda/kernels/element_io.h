// Loads and stores of the copy kernels, as host/device code: on the device
// one access of the type's width; on the host (where tests run the kernels'
// thread bodies over host memory) memcpy, which compiles to the same move
// without a type-punned access.
//
// Three kinds of element:
//  - the dtypes' C++ types, for converting copies. A bool is read from its
//    byte (nonzero is true) and written as 0 or 1, as the CPU kernel does,
//    so a byte that is neither 0 nor 1 is never read as a C++ bool;
//  - Word<N>: N raw bytes at an N-aligned address, one access of N bytes,
//    for copies that keep the dtype (every bit moves as it is);
//  - Bytes<N>: N raw bytes at any address, for memory wrapped by the user
//    that is not aligned to its element size (byte accesses).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/error.h"
#include "core/macros.h"

namespace st {
namespace cuda {

struct alignas(16) Word16 {
  uint64_t lo;
  uint64_t hi;
};

template <int N>
struct WordOf;
template <>
struct WordOf<1> {
  using type = uint8_t;
};
template <>
struct WordOf<2> {
  using type = uint16_t;
};
template <>
struct WordOf<4> {
  using type = uint32_t;
};
template <>
struct WordOf<8> {
  using type = uint64_t;
};
template <>
struct WordOf<16> {
  using type = Word16;
};

template <int N>
using Word = typename WordOf<N>::type;

template <int N>
struct Bytes {
  unsigned char b[N];
};

static_assert(sizeof(Word<16>) == 16 && alignof(Word<16>) == 16, "a 16-byte word is one 128-bit access");

// Note [Alignment in the host emulation]
// On the device an access of T must sit at a multiple of alignof(T), or the
// kernel faults (cudaErrorMisalignedAddress) and takes the context with it.
// memcpy on the host would not notice, so the host path, which the tests
// run over host memory, checks each address and throws ST_ERROR_INTERNAL:
// a misaligned 16-byte access fails a test on a machine without a GPU.
// Header-only, as the emulation tests run in builds without CUDA too.
[[noreturn]] inline void misaligned_access(const void* p, size_t size, size_t alignment) {
  fail(ST_ERROR_INTERNAL,
       "a %zu-byte access at %p is not aligned to %zu bytes: on a GPU it would fault (cudaErrorMisalignedAddress)", size,
       p, alignment);
}

template <typename T>
inline void check_access_alignment(const void* p) {
  if (reinterpret_cast<uintptr_t>(p) % alignof(T) != 0) misaligned_access(p, sizeof(T), alignof(T));
}

// `p` is aligned to alignof(T) (Note [Alignment in the host emulation]).
template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE T load_as(const char* p) {
#if defined(__CUDA_ARCH__)
  return *reinterpret_cast<const T*>(p);
#else
  check_access_alignment<T>(p);
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
#endif
}

template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE void store_as(char* p, const T& v) {
#if defined(__CUDA_ARCH__)
  *reinterpret_cast<T*>(p) = v;
#else
  check_access_alignment<T>(p);
  std::memcpy(p, &v, sizeof(T));
#endif
}

// The memory representation of an element type: bool lives in a byte.
template <typename T>
struct MemoryOf {
  using type = T;
};
template <>
struct MemoryOf<bool> {
  using type = uint8_t;
};

template <typename T>
using memory_t = typename MemoryOf<T>::type;

// Element value <-> its memory representation.
template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE T from_memory(memory_t<T> m) {
  if constexpr (std::is_same<T, bool>::value) {
    return m != 0;
  } else {
    return m;
  }
}

template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE memory_t<T> to_memory(T v) {
  if constexpr (std::is_same<T, bool>::value) {
    return static_cast<uint8_t>(v ? 1 : 0);
  } else {
    return v;
  }
}

template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE T load_value(const char* p) {
  return from_memory<T>(load_as<memory_t<T>>(p));
}

template <typename T>
ST_HOST_DEVICE ST_FORCE_INLINE void store_value(char* p, T v) {
  store_as<memory_t<T>>(p, to_memory<T>(v));
}

// N elements of T in one 16-byte-aligned block: what one 128-bit access
// moves (N = 16 / sizeof(T)).
template <typename T>
struct alignas(16) Chunk16 {
  static constexpr int kCount = static_cast<int>(16 / sizeof(memory_t<T>));
  memory_t<T> v[kCount];
};

static_assert(sizeof(Chunk16<bool>) == 16 && sizeof(Chunk16<double>) == 16, "a chunk is 16 bytes");

}  // namespace cuda
}  // namespace st
