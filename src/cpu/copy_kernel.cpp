#include "cpu/copy_kernel.h"

#include <cstring>

#include "core/convert.h"
#include "core/dtype_dispatch.h"
#include "cpu/element_access.h"
#include "cpu/parallel.h"

namespace st {
namespace cpu {
namespace {

// Bytes below which a contiguous copy is not worth splitting across threads.
constexpr int64_t kParallelCopyBytes = int64_t{1} << 20;

void copy_contiguous_bytes(char* dst, const char* src, int64_t nbytes) {
  if (nbytes < kParallelCopyBytes) {
    std::memcpy(dst, src, static_cast<size_t>(nbytes));
    return;
  }
  constexpr int64_t kBlock = 64 * 1024;  // split at cache-line-aligned byte offsets
  const int64_t blocks = (nbytes + kBlock - 1) / kBlock;
  parallel_for(0, blocks, 16, [&](int64_t b0, int64_t b1) {
    const int64_t begin = b0 * kBlock, end = b1 * kBlock < nbytes ? b1 * kBlock : nbytes;
    std::memcpy(dst + begin, src + begin, static_cast<size_t>(end - begin));
  });
}

// Same dtype, any layout: fixed-size moves, or one memcpy per row when the
// inner dim is contiguous for both.
template <int kSize>
void copy_same_dtype_strided(const TensorIterator& iter) {
  iter.for_each([](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    char* dst = data[0];
    const char* src = data[1];
    const int64_t ds0 = strides[0], ss0 = strides[1], ds1 = strides[2], ss1 = strides[3];
    for (int64_t j = 0; j < n1; ++j) {
      char* d = dst + j * ds1;
      const char* s = src + j * ss1;
      if (ds0 == kSize && ss0 == kSize) {
        std::memcpy(d, s, static_cast<size_t>(n0) * kSize);
      } else {
        for (int64_t i = 0; i < n0; ++i) std::memcpy(d + i * ds0, s + i * ss0, kSize);
      }
    }
  });
}

template <typename dst_t, typename src_t>
void convert_loop(const TensorIterator& iter) {
  iter.for_each([](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    const int64_t ds0 = strides[0], ss0 = strides[1], ds1 = strides[2], ss1 = strides[3];
    for (int64_t j = 0; j < n1; ++j) {
      char* d = data[0] + j * ds1;
      const char* s = data[1] + j * ss1;
      if (ds0 == static_cast<int64_t>(sizeof(dst_t)) && ss0 == static_cast<int64_t>(sizeof(src_t))) {
        for (int64_t i = 0; i < n0; ++i)  // contiguous rows: a loop the compiler can vectorize
          store<dst_t>(d + i * static_cast<int64_t>(sizeof(dst_t)),
                       convert<dst_t>(load<src_t>(s + i * static_cast<int64_t>(sizeof(src_t)))));
      } else {
        for (int64_t i = 0; i < n0; ++i) store<dst_t>(d + i * ds0, convert<dst_t>(load<src_t>(s + i * ss0)));
      }
    }
  });
}

}  // namespace

void copy_kernel(const TensorIterator& iter) {
  const ScalarType dt = iter.dtype(0), st = iter.dtype(1);
  if (dt == st) {
    if (iter.is_contiguous()) {
      copy_contiguous_bytes(iter.data_ptr(0), iter.data_ptr(1), iter.numel() * iter.element_size(0));
      return;
    }
    switch (iter.element_size(0)) {
      case 1: return copy_same_dtype_strided<1>(iter);
      case 2: return copy_same_dtype_strided<2>(iter);
      case 4: return copy_same_dtype_strided<4>(iter);
      case 8: return copy_same_dtype_strided<8>(iter);
      case 16: return copy_same_dtype_strided<16>(iter);
    }
    fail(ST_ERROR_INTERNAL, "copy: no kernel for elements of %lld bytes",
         static_cast<long long>(iter.element_size(0)));
  }
  ST_DISPATCH_PAIR(dt, st, "copy", [&] { convert_loop<dst_t, src_t>(iter); });
}

}  // namespace cpu
}  // namespace st
