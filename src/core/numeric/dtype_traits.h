// ScalarType <-> C++ element type, both ways, at compile time.
#pragma once

#include <cstdint>

#include "core/numeric/dtype.h"
#include "core/numeric/scalar_types.h"

namespace st {

template <ScalarType S>
struct CppTypeOf;  // ::type

template <typename T>
struct ScalarTypeOf;  // ::value

#define ST_DEFINE_SCALAR_TYPE_MAPPING_(name, cpp_type, c_value, str, size, ...) \
  template <>                                                                 \
  struct CppTypeOf<ScalarType::name> {                                        \
    using type = cpp_type;                                                    \
  };                                                                          \
  template <>                                                                 \
  struct ScalarTypeOf<cpp_type> {                                             \
    static constexpr ScalarType value = ScalarType::name;                     \
  };                                                                          \
  static_assert(sizeof(cpp_type) == size, #name " has its size");
ST_FORALL_DTYPES(ST_DEFINE_SCALAR_TYPE_MAPPING_, )
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
