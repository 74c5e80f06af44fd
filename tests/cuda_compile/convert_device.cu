// Proves that the element types, convert<To, From> for all 400 pairs of the
// dtypes that hold one number (float4_e2m1fn_x2 holds two and converts only
// to itself) and the dispatch macros compile as CUDA device code. Not part of the CMake
// build; compile it by hand from the repository root:
//
//   nvcc -std=c++17 -arch=sm_80 -Isrc -Iinclude -c tests/cuda_compile/convert_device.cu -o /tmp/convert_device.o
//   nvcc -std=c++17 -arch=sm_80 --extended-lambda -Isrc -Iinclude -c tests/cuda_compile/convert_device.cu -o /tmp/convert_device.o
//
// (the second also compiles a __device__ lambda written inside ST_DISPATCH_PAIR).
#include <cstdint>

#include "core/numeric/convert.h"
#include "core/numeric/dtype_dispatch.h"

namespace {

template <typename... Ts>
struct TypeList {};

using AllElementTypes =
    TypeList<bool, uint8_t, int8_t, int16_t, int32_t, int64_t, st::Half, st::BFloat16, float, double,
             st::complex<float>, st::complex<double>, uint16_t, uint32_t, uint64_t, st::Float8_e4m3fn, st::Float8_e5m2,
             st::Float8_e8m0fnu, st::Float6_e2m3fn, st::Float6_e3m2fn>;

// Each source element sits in its own 16-byte slot; each pair writes its
// own 16-byte slot of out.
template <typename To, typename From>
__device__ void convert_slot(unsigned char* out, const unsigned char* in, int& slot) {
  const From v = *reinterpret_cast<const From*>(in + 16 * static_cast<int>(st::scalar_type_of<From>));
  *reinterpret_cast<To*>(out + 16 * slot) = st::convert<To>(v);
  ++slot;
}

template <typename To, typename... Froms>
__device__ void convert_row(unsigned char* out, const unsigned char* in, int& slot, TypeList<Froms...>) {
  (convert_slot<To, Froms>(out, in, slot), ...);
}

template <typename... Tos>
__device__ void convert_all(unsigned char* out, const unsigned char* in, TypeList<Tos...>) {
  int slot = 0;
  (convert_row<Tos>(out, in, slot, AllElementTypes{}), ...);
}

// One kernel, all 400 instantiations.
__global__ void convert_all_pairs(unsigned char* out, const unsigned char* in) {
  convert_all(out, in, AllElementTypes{});
}

template <typename To, typename From>
__global__ void convert_elementwise(To* out, const From* in, int64_t n) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = st::convert<To>(in[i]);
  }
}

}  // namespace

// Host side: the runtime dtype pair picks one of 401 kernel instantiations.
void launch_convert(st::ScalarType dst_type, void* out, st::ScalarType src_type, const void* in, int64_t n) {
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  ST_DISPATCH_PAIR(dst_type, src_type, "convert_device", [&] {
    convert_elementwise<dst_t, src_t><<<blocks, 256>>>(static_cast<dst_t*>(out), static_cast<const src_t*>(in), n);
  });
}

void launch_convert_all_pairs(unsigned char* out, const unsigned char* in) { convert_all_pairs<<<1, 1>>>(out, in); }

#if defined(__CUDACC_EXTENDED_LAMBDA__)
template <typename F>
__global__ void apply_lambda(int64_t n, F f) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    f(i);
  }
}

void launch_convert_with_lambda(st::ScalarType dst_type, void* out, st::ScalarType src_type, const void* in,
                                int64_t n) {
  const unsigned blocks = static_cast<unsigned>((n + 255) / 256);
  ST_DISPATCH_PAIR(dst_type, src_type, "convert_device", [&] {
    dst_t* o = static_cast<dst_t*>(out);
    const src_t* s = static_cast<const src_t*>(in);
    apply_lambda<<<blocks, 256>>>(n, [=] __device__(int64_t i) { o[i] = st::convert<dst_t>(s[i]); });
  });
}
#endif
