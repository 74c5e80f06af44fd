// One element converted by core's rules (core/numeric/convert.h): the reference
// the row kernels of the float8 and unsigned pairs are checked against
// (they restate those rules in cpu/levels/convert_rules.h and in vector steps).
#pragma once

#include <cstring>

#include "core/numeric/convert.h"
#include "core/numeric/scalar_types.h"

namespace test_support {

template <typename From, typename To>
void convert_by_core(char* dst, const char* src) {
  From v;
  std::memcpy(&v, src, sizeof v);
  const To r = st::convert<To>(v);
  std::memcpy(dst, &r, sizeof r);
}

using E4M3 = st::Float8_e4m3fn;
using E5M2 = st::Float8_e5m2;

}  // namespace test_support
