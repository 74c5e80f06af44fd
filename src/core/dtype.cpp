#include "core/dtype.h"

namespace st {

const char* dtype_name(int32_t v) {
  static const char* const names[kNumScalarTypes] = {
      "bool",    "uint8",    "int8",    "int16",   "int32",     "int64",
      "float16", "bfloat16", "float32", "float64", "complex64", "complex128"};
  return is_valid_dtype(v) ? names[v] : "unknown";
}

}  // namespace st
