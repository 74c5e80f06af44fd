// The fuzz target's input: a byte reader and the argument pickers, each
// drawing mostly from the valid range and sometimes from the invalid one
// (negative and huge sizes, dims out of range, unknown enum values).
#pragma once

#include <cstdint>

#include "stride.h"

namespace fuzz {

// ---- The input ----------------------------------------------------------

class Input {
 public:
  Input(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  uint8_t u8() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | u8();
    return v;
  }
  int64_t range(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(u8() % (hi - lo + 1)); }

 private:
  const uint8_t* p_;
  size_t n_;
};

const int64_t kHugeSizes[] = {-1, -2, INT64_MAX, INT64_MIN, int64_t{1} << 31, int64_t{1} << 40, int64_t{1} << 62, 4097};
const int64_t kHugeStrides[] = {INT64_MAX, INT64_MIN, int64_t{1} << 40, -(int64_t{1} << 40), int64_t{1} << 62, 1000};
const int32_t kBadDims[] = {INT32_MIN, INT32_MAX, 25, -26, 100};

template <typename T, size_t N>
inline T pick_from(Input& in, const T (&values)[N]) {
  return values[in.u8() % N];
}

inline int32_t pick_ndim(Input& in) {
  const int r = in.u8() % 20;
  if (r < 16) return r % 5;
  static const int32_t odd[4] = {25, -1, 26, INT32_MAX};
  return odd[r - 16];
}

inline int64_t pick_size(Input& in) {
  const uint8_t r = in.u8();
  return r < 232 ? r % 6 : pick_from(in, kHugeSizes);
}

inline int64_t pick_stride(Input& in) {
  const uint8_t r = in.u8();
  return r < 232 ? static_cast<int64_t>(r % 13) - 6 : pick_from(in, kHugeStrides);
}

inline int64_t pick_index(Input& in) {
  const uint8_t r = in.u8();
  if (r < 232) return static_cast<int64_t>(r % 17) - 8;
  static const int64_t odd[] = {INT64_MIN, INT64_MAX, INT64_MIN + 1, int64_t{1} << 40, -(int64_t{1} << 40)};
  return pick_from(in, odd);
}

inline int32_t pick_dim(Input& in, int ndim) {
  const uint8_t r = in.u8();
  return r < 240 ? static_cast<int32_t>(r % (2 * ndim + 3)) - (ndim + 1) : pick_from(in, kBadDims);
}

inline int32_t pick_dtype(Input& in) {
  const uint8_t r = in.u8();
  if (r < 248) return r % 21;
  static const int32_t odd[] = {21, -1, 255, INT32_MIN};
  return pick_from(in, odd);
}

inline int32_t pick_format(Input& in) {
  const uint8_t r = in.u8();
  if (r < 248) return r % 4;
  static const int32_t odd[] = {4, -1, INT32_MAX};
  return pick_from(in, odd);
}

inline st_device pick_device(Input& in) {
  const uint8_t r = in.u8();
  if (r < 236) return st_device{ST_DEVICE_CPU, 0};
  static const st_device odd[] = {
      {ST_DEVICE_CPU, 1},    {ST_DEVICE_CUDA, 0}, {ST_DEVICE_CUDA_HOST, 0}, {ST_DEVICE_CUDA, -1}, {0, 0}, {7, 0},
      {ST_DEVICE_CUDA, 1000}};
  return pick_from(in, odd);
}

inline bool valid_dtype(int32_t d) { return d >= 0 && d < 21; }

}  // namespace fuzz
