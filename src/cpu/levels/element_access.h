// Loads and stores of elements in caller memory. Tensors wrap foreign memory
// (st_tensor_from_data, DLPack) that need not be aligned to the element's
// C++ type, and a bool byte that is neither 0 nor 1 must not be read as
// bool, so every element goes through memcpy (which compiles to one move).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace st {
namespace cpu {

template <typename T>
inline T load(const char* p) {
  if constexpr (std::is_same<T, bool>::value) {
    return *reinterpret_cast<const uint8_t*>(p) != 0;
  } else {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
}

template <typename T>
inline void store(char* p, T v) {
  if constexpr (std::is_same<T, bool>::value) {
    *reinterpret_cast<uint8_t*>(p) = v ? 1 : 0;
  } else {
    std::memcpy(p, &v, sizeof(T));
  }
}

}  // namespace cpu
}  // namespace st
