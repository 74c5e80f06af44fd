// ScalarType <-> C++ element type, both ways, at compile time.
#pragma once

#include <cstdint>

#include "core/dtype.h"
#include "core/scalar_types.h"

// _(C++ type, ScalarType enumerator) for every dtype, in dtype order, as
// PyTorch's AT_FORALL_SCALAR_TYPES.
#define ST_FORALL_SCALAR_TYPES(_) \
  _(bool, Bool)                   \
  _(uint8_t, UInt8)               \
  _(int8_t, Int8)                 \
  _(int16_t, Int16)               \
  _(int32_t, Int32)               \
  _(int64_t, Int64)               \
  _(::st::Half, Float16)          \
  _(::st::BFloat16, BFloat16)     \
  _(float, Float32)               \
  _(double, Float64)              \
  _(::st::complex<float>, Complex64) \
  _(::st::complex<double>, Complex128)

namespace st {

template <ScalarType S>
struct CppTypeOf;  // ::type

template <typename T>
struct ScalarTypeOf;  // ::value

#define ST_DEFINE_SCALAR_TYPE_MAPPING_(cpp_type, name)                                \
  template <>                                                                         \
  struct CppTypeOf<ScalarType::name> {                                                \
    using type = cpp_type;                                                            \
  };                                                                                  \
  template <>                                                                         \
  struct ScalarTypeOf<cpp_type> {                                                     \
    static constexpr ScalarType value = ScalarType::name;                             \
  };                                                                                  \
  static_assert(sizeof(cpp_type) == itemsize(ScalarType::name), #name " has its size");
ST_FORALL_SCALAR_TYPES(ST_DEFINE_SCALAR_TYPE_MAPPING_)
#undef ST_DEFINE_SCALAR_TYPE_MAPPING_

template <ScalarType S>
using cpp_type_t = typename CppTypeOf<S>::type;

template <typename T>
constexpr ScalarType scalar_type_of = ScalarTypeOf<T>::value;

template <typename T>
struct IsComplex {
  static constexpr bool value = false;
};
template <typename T>
struct IsComplex<complex<T>> {
  static constexpr bool value = true;
};

}  // namespace st
