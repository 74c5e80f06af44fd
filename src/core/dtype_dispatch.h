// Runs code with the C++ element type of a runtime ScalarType, in the spirit
// of PyTorch's AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3. Host code only (an
// unknown dtype throws); the code it runs may launch CUDA kernels.
//
// Two forms:
// - ST_DISPATCH_ALL_TYPES(type, "op", [&] { ... scalar_t ... }) expands the
//   lambda once per type with `scalar_t` defined, as PyTorch's macros do.
//   The lambda is not generic, so a __device__ lambda may be written inside
//   it (nvcc forbids extended lambdas inside generic lambdas).
//   ST_DISPATCH_PAIR(dst_type, src_type, "op", [&] { ... dst_t, src_t ... })
//   does the same for the 144 (dst, src) pairs.
// - dispatch_dtype(type, "op", [&](auto tag) { using T = typename
//   decltype(tag)::type; ... }) for host code that prefers a function.
#pragma once

#include "core/dtype.h"
#include "core/dtype_traits.h"
#include "core/error.h"

namespace st {

[[noreturn]] inline void fail_unsupported_dtype(const char* op, ScalarType t) {
  const int32_t v = static_cast<int32_t>(t);
  fail(ST_ERROR_UNSUPPORTED_DTYPE, "%s: dtype %s (%d) is not supported", op, dtype_name(v), static_cast<int>(v));
}

template <typename T>
struct TypeTag {
  using type = T;
};

template <typename F>
decltype(auto) dispatch_dtype(ScalarType t, const char* op, F&& f) {
  switch (t) {
#define ST_DISPATCH_TAG_CASE_(cpp_type, name) \
  case ScalarType::name:                      \
    return f(TypeTag<cpp_type>{});
    ST_FORALL_SCALAR_TYPES(ST_DISPATCH_TAG_CASE_)
#undef ST_DISPATCH_TAG_CASE_
  }
  fail_unsupported_dtype(op, t);
}

}  // namespace st

#define ST_DISPATCH_CASE_(ENUM, CPP_TYPE, ALIAS, ...) \
  case ::st::ScalarType::ENUM: {                      \
    using ALIAS [[maybe_unused]] = CPP_TYPE;          \
    return __VA_ARGS__();                             \
  }

// Runs the lambda with `ALIAS` naming the C++ type of TYPE.
#define ST_DISPATCH_ALL_TYPES_AS(TYPE, NAME, ALIAS, ...)                          \
  [&] {                                                                           \
    const ::st::ScalarType st_dispatch_type_ = (TYPE);                            \
    switch (st_dispatch_type_) {                                                  \
      ST_DISPATCH_CASE_(Bool, bool, ALIAS, __VA_ARGS__)                           \
      ST_DISPATCH_CASE_(UInt8, uint8_t, ALIAS, __VA_ARGS__)                       \
      ST_DISPATCH_CASE_(Int8, int8_t, ALIAS, __VA_ARGS__)                         \
      ST_DISPATCH_CASE_(Int16, int16_t, ALIAS, __VA_ARGS__)                       \
      ST_DISPATCH_CASE_(Int32, int32_t, ALIAS, __VA_ARGS__)                       \
      ST_DISPATCH_CASE_(Int64, int64_t, ALIAS, __VA_ARGS__)                       \
      ST_DISPATCH_CASE_(Float16, ::st::Half, ALIAS, __VA_ARGS__)                  \
      ST_DISPATCH_CASE_(BFloat16, ::st::BFloat16, ALIAS, __VA_ARGS__)             \
      ST_DISPATCH_CASE_(Float32, float, ALIAS, __VA_ARGS__)                       \
      ST_DISPATCH_CASE_(Float64, double, ALIAS, __VA_ARGS__)                      \
      ST_DISPATCH_CASE_(Complex64, ::st::complex<float>, ALIAS, __VA_ARGS__)      \
      ST_DISPATCH_CASE_(Complex128, ::st::complex<double>, ALIAS, __VA_ARGS__)    \
    }                                                                             \
    ::st::fail_unsupported_dtype((NAME), st_dispatch_type_);                      \
  }()

#define ST_DISPATCH_ALL_TYPES(TYPE, NAME, ...) ST_DISPATCH_ALL_TYPES_AS(TYPE, NAME, scalar_t, __VA_ARGS__)

// Runs the lambda with `dst_t` and `src_t` naming the C++ types of DST_TYPE
// and SRC_TYPE: 144 expansions, one per conversion pair.
#define ST_DISPATCH_PAIR(DST_TYPE, SRC_TYPE, NAME, ...)                                            \
  ST_DISPATCH_ALL_TYPES_AS(DST_TYPE, NAME, dst_t,                                                  \
                           [&] { return ST_DISPATCH_ALL_TYPES_AS(SRC_TYPE, NAME, src_t, __VA_ARGS__); })
