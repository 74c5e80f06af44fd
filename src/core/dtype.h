// Element types. ScalarType has the numbers of st_dtype so the C boundary
// converts by a cast after validating the value.
#pragma once

#include <cstddef>
#include <cstdint>

#include "stride.h"

namespace st {

enum class ScalarType : int32_t {
  Bool = ST_BOOL,
  UInt8 = ST_UINT8,
  Int8 = ST_INT8,
  Int16 = ST_INT16,
  Int32 = ST_INT32,
  Int64 = ST_INT64,
  Float16 = ST_FLOAT16,
  BFloat16 = ST_BFLOAT16,
  Float32 = ST_FLOAT32,
  Float64 = ST_FLOAT64,
  Complex64 = ST_COMPLEX64,
  Complex128 = ST_COMPLEX128,
};

constexpr int kNumScalarTypes = 12;

constexpr bool is_valid_dtype(int32_t v) { return v >= 0 && v < kNumScalarTypes; }

constexpr size_t itemsize(ScalarType t) {
  switch (t) {
    case ScalarType::Bool:
    case ScalarType::UInt8:
    case ScalarType::Int8:
      return 1;
    case ScalarType::Int16:
    case ScalarType::Float16:
    case ScalarType::BFloat16:
      return 2;
    case ScalarType::Int32:
    case ScalarType::Float32:
      return 4;
    case ScalarType::Int64:
    case ScalarType::Float64:
    case ScalarType::Complex64:
      return 8;
    case ScalarType::Complex128:
      return 16;
  }
  return 0;
}

// "float32"; "unknown" for a value outside the enum.
const char* dtype_name(int32_t v);

inline bool is_complex(ScalarType t) { return t == ScalarType::Complex64 || t == ScalarType::Complex128; }
inline bool is_floating(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::BFloat16 || t == ScalarType::Float32 ||
         t == ScalarType::Float64;
}

}  // namespace st
