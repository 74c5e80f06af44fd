// Element types: the one table of stride's dtypes, and what core derives
// from it. ScalarType has the numbers of st_dtype, so the C boundary
// converts by a cast after validating the value.
//
// Note [The dtype table]
// ST_FORALL_DTYPES lists every dtype once, in st_dtype order:
//   _(Name, C++ type, st_dtype value, name string, item size in bytes,
//     DLPack type code, DLPack bits, kind, ...)
// and passes any further arguments of the macro on to `_` after the row.
// The enum below, itemsize, dtype_name, the kind predicates, the C++ type
// mappings (dtype_traits.h), the dtype switches (dtype_dispatch.h), DLPack's
// type codes (api/api_dlpack.cpp), the CUDA instantiations and the C++ tests
// all expand it; adding a dtype is its st_dtype value in the header, a row
// here and its conversion rules (core/numeric/convert.h), then tools/gen_bindings.py,
// which writes the bindings' dtype lists from the two. docs/contributing.md
// has the checklist.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/numeric/scalar_types.h"
#include "stride.h"

// DLPack 1.1's DLDataTypeCode numbers (kDLInt, kDLUInt, ...), kept here so
// that core does not depend on the installed dlpack.h, which may be older.
#define ST_DLPACK_INT 0
#define ST_DLPACK_UINT 1
#define ST_DLPACK_FLOAT 2
#define ST_DLPACK_BFLOAT 4
#define ST_DLPACK_COMPLEX 5
#define ST_DLPACK_BOOL 6
#define ST_DLPACK_FLOAT8_E4M3FN 10
#define ST_DLPACK_FLOAT8_E5M2 12
#define ST_DLPACK_FLOAT8_E8M0FNU 14
#define ST_DLPACK_FLOAT6_E2M3FN 15
#define ST_DLPACK_FLOAT6_E3M2FN 16
#define ST_DLPACK_FLOAT4_E2M1FN 17

#define ST_FORALL_DTYPES(_, ...)                                                                        \
  _(Bool, bool, ST_BOOL, "bool", 1, ST_DLPACK_BOOL, 8, Bool, __VA_ARGS__)                               \
  _(UInt8, uint8_t, ST_UINT8, "uint8", 1, ST_DLPACK_UINT, 8, Unsigned, __VA_ARGS__)                     \
  _(Int8, int8_t, ST_INT8, "int8", 1, ST_DLPACK_INT, 8, Signed, __VA_ARGS__)                            \
  _(Int16, int16_t, ST_INT16, "int16", 2, ST_DLPACK_INT, 16, Signed, __VA_ARGS__)                       \
  _(Int32, int32_t, ST_INT32, "int32", 4, ST_DLPACK_INT, 32, Signed, __VA_ARGS__)                       \
  _(Int64, int64_t, ST_INT64, "int64", 8, ST_DLPACK_INT, 64, Signed, __VA_ARGS__)                       \
  _(Float16, ::st::Half, ST_FLOAT16, "float16", 2, ST_DLPACK_FLOAT, 16, Float, __VA_ARGS__)             \
  _(BFloat16, ::st::BFloat16, ST_BFLOAT16, "bfloat16", 2, ST_DLPACK_BFLOAT, 16, Float, __VA_ARGS__)     \
  _(Float32, float, ST_FLOAT32, "float32", 4, ST_DLPACK_FLOAT, 32, Float, __VA_ARGS__)                  \
  _(Float64, double, ST_FLOAT64, "float64", 8, ST_DLPACK_FLOAT, 64, Float, __VA_ARGS__)                 \
  _(Complex64, ::st::complex<float>, ST_COMPLEX64, "complex64", 8, ST_DLPACK_COMPLEX, 64, Complex,      \
    __VA_ARGS__)                                                                                        \
  _(Complex128, ::st::complex<double>, ST_COMPLEX128, "complex128", 16, ST_DLPACK_COMPLEX, 128, Complex, \
    __VA_ARGS__)                                                                                        \
  _(UInt16, uint16_t, ST_UINT16, "uint16", 2, ST_DLPACK_UINT, 16, Unsigned, __VA_ARGS__)                 \
  _(UInt32, uint32_t, ST_UINT32, "uint32", 4, ST_DLPACK_UINT, 32, Unsigned, __VA_ARGS__)                 \
  _(UInt64, uint64_t, ST_UINT64, "uint64", 8, ST_DLPACK_UINT, 64, Unsigned, __VA_ARGS__)                 \
  _(Float8_e4m3fn, ::st::Float8_e4m3fn, ST_FLOAT8_E4M3FN, "float8_e4m3fn", 1, ST_DLPACK_FLOAT8_E4M3FN, 8, \
    Float, __VA_ARGS__)                                                                                 \
  _(Float8_e5m2, ::st::Float8_e5m2, ST_FLOAT8_E5M2, "float8_e5m2", 1, ST_DLPACK_FLOAT8_E5M2, 8, Float,   \
    __VA_ARGS__)                                                                                        \
  _(Float8_e8m0fnu, ::st::Float8_e8m0fnu, ST_FLOAT8_E8M0FNU, "float8_e8m0fnu", 1, ST_DLPACK_FLOAT8_E8M0FNU, \
    8, Float, __VA_ARGS__)                                                                              \
  _(Float4_e2m1fn_x2, ::st::Float4_e2m1fn_x2, ST_FLOAT4_E2M1FN_X2, "float4_e2m1fn_x2", 1,                \
    ST_DLPACK_FLOAT4_E2M1FN, 4, Packed, __VA_ARGS__)                                                    \
  _(Float6_e2m3fn, ::st::Float6_e2m3fn, ST_FLOAT6_E2M3FN, "float6_e2m3fn", 1, ST_DLPACK_FLOAT6_E2M3FN, 6, \
    Float, __VA_ARGS__)                                                                                 \
  _(Float6_e3m2fn, ::st::Float6_e3m2fn, ST_FLOAT6_E3M2FN, "float6_e3m2fn", 1, ST_DLPACK_FLOAT6_E3M2FN, 6, \
    Float, __VA_ARGS__)

namespace st {

enum class ScalarType : int32_t {
#define ST_DTYPE_ENUMERATOR_(Name, Cpp, Value, ...) Name = Value,
  ST_FORALL_DTYPES(ST_DTYPE_ENUMERATOR_, )
#undef ST_DTYPE_ENUMERATOR_
};

// What kind of number an element is; conversions and DLPack follow it.
// Packed: several numbers to an element (float4_e2m1fn_x2), which copies
// move as bytes and no conversion reads.
enum class DTypeKind : int32_t { Bool, Unsigned, Signed, Float, Complex, Packed };

// One row of the table, for code that looks dtypes up at run time.
struct DTypeInfo {
  ScalarType type;
  const char* name;
  size_t itemsize;
  uint8_t dlpack_code;
  uint8_t dlpack_bits;
  DTypeKind kind;
};

constexpr DTypeInfo kDTypes[] = {
#define ST_DTYPE_INFO_(Name, Cpp, Value, Str, Size, Code, Bits, Kind, ...) \
  {ScalarType::Name, Str, Size, Code, Bits, DTypeKind::Kind},
    ST_FORALL_DTYPES(ST_DTYPE_INFO_, )
#undef ST_DTYPE_INFO_
};

constexpr int kNumScalarTypes = static_cast<int>(sizeof(kDTypes) / sizeof(kDTypes[0]));

// Row i describes dtype value i: the values are 0, 1, 2, ... with no gap.
constexpr bool dtype_rows_in_order() {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (static_cast<int>(kDTypes[i].type) != i) return false;
  }
  return true;
}
static_assert(dtype_rows_in_order(), "ST_FORALL_DTYPES lists the dtypes in st_dtype order, without gaps");

// Row X's name string is its st_dtype constant lower-cased without "ST_"
// (ST_FLOAT8_E4M3FN: "float8_e4m3fn"), the name every binding shows.
// tools/stride_header.py checks that the rows list every constant of the header.
constexpr bool names_its_constant(const char* name, const char* constant) {
  for (constant += 3; *name != '\0' && *constant != '\0'; ++name, ++constant) {
    const char c = (*constant >= 'A' && *constant <= 'Z') ? static_cast<char>(*constant - 'A' + 'a') : *constant;
    if (*name != c) return false;
  }
  return *name == *constant;
}
#define ST_DTYPE_NAME_CHECK_(Name, Cpp, Value, Str, ...) \
  static_assert(names_its_constant(Str, #Value), #Value " is not named " Str);
ST_FORALL_DTYPES(ST_DTYPE_NAME_CHECK_, )
#undef ST_DTYPE_NAME_CHECK_

constexpr bool is_valid_dtype(int32_t v) { return v >= 0 && v < kNumScalarTypes; }

constexpr const DTypeInfo& dtype_info(ScalarType t) { return kDTypes[static_cast<int>(t)]; }

constexpr size_t itemsize(ScalarType t) { return dtype_info(t).itemsize; }

// "float32"; "unknown" for a value outside the enum.
constexpr const char* dtype_name(int32_t v) { return is_valid_dtype(v) ? kDTypes[v].name : "unknown"; }

constexpr DTypeKind kind_of(ScalarType t) { return dtype_info(t).kind; }
constexpr bool is_complex(ScalarType t) { return kind_of(t) == DTypeKind::Complex; }
constexpr bool is_packed(ScalarType t) { return kind_of(t) == DTypeKind::Packed; }

// Whether the conversion rules take dst <- src: every pair but those of a
// packed dtype with another (include/stride.h: float4_e2m1fn_x2 copies
// only to itself).
constexpr bool converts(ScalarType dst, ScalarType src) {
  return dst == src || (!is_packed(dst) && !is_packed(src));
}

// DLPack's lanes: the values an element holds (float4_e2m1fn_x2: 2 of 4
// bits, as PyTorch exports it), 1 for the others.
constexpr int dlpack_lanes(ScalarType t) {
  return is_packed(t) ? static_cast<int>(8 * itemsize(t) / dtype_info(t).dlpack_bits) : 1;
}

// Whether each value sits in a byte of its own with bits to spare (the
// float6 dtypes): DLPack 1.1 marks such tensors with
// DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED.
constexpr bool dlpack_padded(ScalarType t) {
  return dtype_info(t).dlpack_bits * dlpack_lanes(t) < static_cast<int>(8 * itemsize(t));
}

}  // namespace st
