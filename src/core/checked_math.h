// Overflow-checked int64 arithmetic for sizes, spans and byte counts.
// Every size that reaches an allocation or an index computation passes
// through these, so overflow is reported instead of wrapping.
#pragma once

#include <cstdint>

#include "core/macros.h"

namespace st {

// Each returns false (and leaves *out unspecified) when the result overflows.
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) { return !mul_overflows(a, b, out); }
inline bool checked_add(int64_t a, int64_t b, int64_t* out) { return !add_overflows(a, b, out); }
inline bool checked_sub(int64_t a, int64_t b, int64_t* out) { return !sub_overflows(a, b, out); }

}  // namespace st
