// The text of each value NumPy shows of an array: its formatters for bool,
// integers, floats and complex numbers (numpy/core/arrayprint.py's
// BoolFormat, IntegerFormat, FloatingFormat and ComplexFloatingFormat with
// the default floatmode 'maxprec'), which pad every value of one array to
// a common width and write all its floats in one notation.
#pragma once

#include <string>
#include <vector>

#include "core/tensor.h"

namespace st {
namespace ops {

// The texts of `values` in memory order. `values` is contiguous, on the CPU,
// and bool, int64, uint64, float16, float32, float64, complex64 or
// complex128 (what format_tensor copies the shown values into); `precision`
// is NumPy's, at most that many digits after the point.
std::vector<std::string> element_texts(const Tensor& values, int32_t precision);

}  // namespace ops
}  // namespace st
