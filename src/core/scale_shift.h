// The scale and shift of a scaled copy (include/stride.h, st_copy_scaled),
// checked against the copy's operands and rounded to the compute type once:
// what every backend's kernel (and a copy plan, which keeps one) needs to run
// it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/numeric/dtype.h"
#include "core/tensor.h"

namespace st {

// The type the fused multiply-add runs in (Note [The scaled copy's
// arithmetic]; scaled_compute_t in core/numeric/scaled_convert.h): Float64 when
// either dtype is float64, int32, int64, uint32 or uint64; Float32 otherwise.
ScalarType scaled_compute_type(ScalarType dst, ScalarType src);

struct ScaleShift {
  ScalarType compute = ScalarType::Float32;  // Float32 or Float64
  bool saturate = false;
  int dim = -1;    // the dst dim the values vary along; -1: one value for every element
  int64_t n = 1;   // values of each array
  // n scales, then n shifts, as `compute` values (float or double).
  std::vector<double> storage;

  const char* scale_data() const { return reinterpret_cast<const char*>(storage.data()); }
  const char* shift_data() const { return scale_data() + n * static_cast<int64_t>(itemsize(compute)); }
  int64_t value_size() const { return static_cast<int64_t>(itemsize(compute)); }
};

// Checks the arguments of a scaled copy of src into dst, in this order:
// a dst or src dtype scaled copies do not take (complex, float8_e8m0fnu,
// float6, float4_e2m1fn_x2: ST_ERROR_UNSUPPORTED_DTYPE), saturate not 0 or 1,
// then when n != 1 dim out of range for dst and n not dst's size along
// dim (ST_ERROR_INVALID_ARGUMENT, naming the field and its value). NULL
// arrays stand for scales of 1 and shifts of 0.
ScaleShift prepare_scale_shift(const Tensor& dst, const Tensor& src, const double* scale, const double* shift,
                               int64_t n, int32_t dim, int32_t saturate);

}  // namespace st
