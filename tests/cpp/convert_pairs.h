// Every pair of cpu/levels/convert_kernel_table.h with its dtypes, its name and
// one element of it converted by an independent rule: the reference the
// row converters of every level are checked against (test_kernel_tables,
// test_copy_convert). The first pairs go by cpu/levels/convert_rules.h's
// functions, which test_copy_convert checks equal to core's on every
// input class; the others by core's rules (core/numeric/convert.h).
#pragma once

#include <cstdint>
#include <cstring>

#include "core/numeric/scalar_types.h"
#include "core_convert_reference.h"
#include "cpu/levels/convert_kernel_table.h"
#include "cpu/levels/convert_rules.h"

namespace test_support {

struct ConvertPairCase {
  st::cpu::ConvertPair pair;
  st::ScalarType dst, src;
  const char* name;
  void (*one)(char* dst, const char* src);  // one element, by the rule
};

// One element by a scalar rule of cpu/convert_rules.h.
template <typename From, typename To, To (*F)(From)>
void by_rule(char* dst, const char* src) {
  From v;
  std::memcpy(&v, src, sizeof v);
  const To r = F(v);
  std::memcpy(dst, &r, sizeof r);
}
inline float u8_to_float(uint8_t v) { return static_cast<float>(v); }

using st::ScalarType;
using st::cpu::ConvertPair;

// In ConvertPair order.
inline const ConvertPairCase kConvertPairs[] = {
    {ConvertPair::Float32ToFloat16, ScalarType::Float16, ScalarType::Float32, "float32->float16",
     by_rule<float, uint16_t, st::cpu::float_to_half_bits>},
    {ConvertPair::Float32ToBFloat16, ScalarType::BFloat16, ScalarType::Float32, "float32->bfloat16",
     by_rule<float, uint16_t, st::cpu::float_to_bfloat16_bits>},
    {ConvertPair::Int64ToFloat64, ScalarType::Float64, ScalarType::Int64, "int64->float64",
     by_rule<int64_t, double, st::cpu::int64_to_double>},
    {ConvertPair::UInt8ToFloat32, ScalarType::Float32, ScalarType::UInt8, "uint8->float32",
     by_rule<uint8_t, float, u8_to_float>},
    {ConvertPair::Float16ToFloat32, ScalarType::Float32, ScalarType::Float16, "float16->float32",
     by_rule<uint16_t, float, st::cpu::half_bits_to_float>},
    {ConvertPair::BFloat16ToFloat32, ScalarType::Float32, ScalarType::BFloat16, "bfloat16->float32",
     by_rule<uint16_t, float, st::cpu::bfloat16_bits_to_float>},
    {ConvertPair::Float32ToFloat8E4M3FN, ScalarType::Float8_e4m3fn, ScalarType::Float32, "float32->float8_e4m3fn",
     convert_by_core<float, E4M3>},
    {ConvertPair::Float32ToFloat8E5M2, ScalarType::Float8_e5m2, ScalarType::Float32, "float32->float8_e5m2",
     convert_by_core<float, E5M2>},
    {ConvertPair::Float8E4M3FNToFloat32, ScalarType::Float32, ScalarType::Float8_e4m3fn, "float8_e4m3fn->float32",
     convert_by_core<E4M3, float>},
    {ConvertPair::Float8E5M2ToFloat32, ScalarType::Float32, ScalarType::Float8_e5m2, "float8_e5m2->float32",
     convert_by_core<E5M2, float>},
    {ConvertPair::Float16ToFloat8E4M3FN, ScalarType::Float8_e4m3fn, ScalarType::Float16, "float16->float8_e4m3fn",
     convert_by_core<st::Half, E4M3>},
    {ConvertPair::Float16ToFloat8E5M2, ScalarType::Float8_e5m2, ScalarType::Float16, "float16->float8_e5m2",
     convert_by_core<st::Half, E5M2>},
    {ConvertPair::BFloat16ToFloat8E4M3FN, ScalarType::Float8_e4m3fn, ScalarType::BFloat16, "bfloat16->float8_e4m3fn",
     convert_by_core<st::BFloat16, E4M3>},
    {ConvertPair::BFloat16ToFloat8E5M2, ScalarType::Float8_e5m2, ScalarType::BFloat16, "bfloat16->float8_e5m2",
     convert_by_core<st::BFloat16, E5M2>},
    {ConvertPair::Float8E4M3FNToFloat16, ScalarType::Float16, ScalarType::Float8_e4m3fn, "float8_e4m3fn->float16",
     convert_by_core<E4M3, st::Half>},
    {ConvertPair::Float8E5M2ToFloat16, ScalarType::Float16, ScalarType::Float8_e5m2, "float8_e5m2->float16",
     convert_by_core<E5M2, st::Half>},
    {ConvertPair::Float8E4M3FNToBFloat16, ScalarType::BFloat16, ScalarType::Float8_e4m3fn, "float8_e4m3fn->bfloat16",
     convert_by_core<E4M3, st::BFloat16>},
    {ConvertPair::Float8E5M2ToBFloat16, ScalarType::BFloat16, ScalarType::Float8_e5m2, "float8_e5m2->bfloat16",
     convert_by_core<E5M2, st::BFloat16>},
    {ConvertPair::UInt16ToFloat32, ScalarType::Float32, ScalarType::UInt16, "uint16->float32",
     convert_by_core<uint16_t, float>},
    {ConvertPair::UInt32ToFloat32, ScalarType::Float32, ScalarType::UInt32, "uint32->float32",
     convert_by_core<uint32_t, float>},
    {ConvertPair::UInt64ToFloat32, ScalarType::Float32, ScalarType::UInt64, "uint64->float32",
     convert_by_core<uint64_t, float>},
    {ConvertPair::UInt16ToFloat64, ScalarType::Float64, ScalarType::UInt16, "uint16->float64",
     convert_by_core<uint16_t, double>},
    {ConvertPair::UInt32ToFloat64, ScalarType::Float64, ScalarType::UInt32, "uint32->float64",
     convert_by_core<uint32_t, double>},
    {ConvertPair::UInt64ToFloat64, ScalarType::Float64, ScalarType::UInt64, "uint64->float64",
     convert_by_core<uint64_t, double>},
    {ConvertPair::Int8ToFloat32, ScalarType::Float32, ScalarType::Int8, "int8->float32",
     convert_by_core<int8_t, float>},
    {ConvertPair::Int16ToFloat32, ScalarType::Float32, ScalarType::Int16, "int16->float32",
     convert_by_core<int16_t, float>},
    {ConvertPair::Int32ToFloat32, ScalarType::Float32, ScalarType::Int32, "int32->float32",
     convert_by_core<int32_t, float>},
    {ConvertPair::Int32ToFloat64, ScalarType::Float64, ScalarType::Int32, "int32->float64",
     convert_by_core<int32_t, double>},
    {ConvertPair::Float32ToInt32, ScalarType::Int32, ScalarType::Float32, "float32->int32",
     convert_by_core<float, int32_t>},
    {ConvertPair::Float32ToUInt8, ScalarType::UInt8, ScalarType::Float32, "float32->uint8",
     convert_by_core<float, uint8_t>},
    {ConvertPair::Float32ToFloat64, ScalarType::Float64, ScalarType::Float32, "float32->float64",
     convert_by_core<float, double>},
    {ConvertPair::Float64ToFloat32, ScalarType::Float32, ScalarType::Float64, "float64->float32",
     convert_by_core<double, float>},
    {ConvertPair::Int32ToInt64, ScalarType::Int64, ScalarType::Int32, "int32->int64",
     convert_by_core<int32_t, int64_t>},
    {ConvertPair::Int64ToInt32, ScalarType::Int32, ScalarType::Int64, "int64->int32",
     convert_by_core<int64_t, int32_t>},
};
static_assert(sizeof(kConvertPairs) / sizeof(kConvertPairs[0]) == st::cpu::kNumConvertPairs, "every pair is listed");

}  // namespace test_support
