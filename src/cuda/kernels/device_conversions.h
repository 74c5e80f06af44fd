// Which (dst, src) dtype pairs the device copies as bits and which it
// converts with which kernels. Host code, constexpr, so that the launches
// (device_copy.cpp), the explicit instantiations (copy_convert.cuh) and the
// host emulation tests take the same decisions.
//
// Note [Integer conversions on the device]
// Two's-complement wrap (core/numeric/convert.h) makes an integer -> integer
// conversion a function of the source's type and the destination's width
// alone: int8 -1 becomes the same 32 bits in int32 and in uint32, and
// int32 <-> uint32 keeps the bits as they are. So the device copies two
// integer dtypes of one width as raw bytes, with the same-dtype kernels, and
// converts the other integer pairs with the kernels of the unsigned dtype of
// the destination's width: for the 8 integer dtypes, 24 sets of converting
// kernels instead of 56, each a vectorized, a strided and a tiled transpose
// kernel compiled for every architecture. The CPU converts each pair as it
// is; the host emulation of the device kernels is compared with it byte for
// byte on every pair (tests/cpp/test_cuda_copy_emulation.cpp).
#pragma once

#include "core/numeric/dtype.h"

namespace st {
namespace cuda {

constexpr bool is_integer_dtype(ScalarType t) {
  return kind_of(t) == DTypeKind::Signed || kind_of(t) == DTypeKind::Unsigned;
}

// dst and src hold the same bits for every element: one dtype, or two
// integer dtypes of one width.
constexpr bool copies_bits(ScalarType dst, ScalarType src) {
  return dst == src || (is_integer_dtype(dst) && is_integer_dtype(src) && itemsize(dst) == itemsize(src));
}

constexpr ScalarType unsigned_dtype_of_size(size_t n) {
  return n == 1 ? ScalarType::UInt8 : n == 2 ? ScalarType::UInt16 : n == 4 ? ScalarType::UInt32 : ScalarType::UInt64;
}

// The dtype the converting kernels write for a conversion into dst: dst
// itself, or for an integer pair the unsigned dtype of dst's width.
constexpr ScalarType conversion_kernel_dst(ScalarType dst, ScalarType src) {
  return is_integer_dtype(dst) && is_integer_dtype(src) ? unsigned_dtype_of_size(itemsize(dst)) : dst;
}

// The pairs copy_convert_part*.cu instantiate converting kernels for: the
// pairs the conversion rules take (converts(): float4_e2m1fn_x2 has none)
// that do not copy bits.
constexpr bool has_converting_kernels(ScalarType dst, ScalarType src) {
  return converts(dst, src) && !copies_bits(dst, src) && conversion_kernel_dst(dst, src) == dst;
}

}  // namespace cuda
}  // namespace st
