// Printing a tensor's values as NumPy prints an array (include/stride.h,
// st_tensor_format).
#pragma once

#include <cstdint>
#include <string>

#include "core/tensor.h"

namespace st {
namespace ops {

// NumPy's print options that st_format_options sets, with NumPy's defaults.
struct FormatOptions {
  int32_t precision = 8;     // at most this many digits after the point
  int64_t edgeitems = 3;     // items kept at each end of a summarized dim
  int64_t threshold = 1000;  // more elements than this are summarized
  int32_t linewidth = 75;    // the widest a line may be
};

// numpy.array2string(a, max_line_width, precision, threshold=, edgeitems=)
// for an array `a` of t's values (bfloat16, float8 and other narrower
// floats as float32 arrays), with the default separator ' ' and no prefix:
// the text str() gives for arrays of one or more dims. The values shown
// are copied to the host first, whatever t's device.
std::string format_tensor(const Tensor& t, const FormatOptions& o);

}  // namespace ops
}  // namespace st
