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
//   does the same for every (dst, src) pair.
// - dispatch_dtype(type, "op", [&](auto tag) { using T = typename
//   decltype(tag)::type; ... }) for host code that prefers a function.
#pragma once

#include <type_traits>

#include "core/error.h"
#include "core/numeric/dtype.h"
#include "core/numeric/dtype_traits.h"

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
#define ST_DISPATCH_TAG_CASE_(name, cpp_type, ...) \
  case ScalarType::name:                           \
    return f(TypeTag<cpp_type>{});
    ST_FORALL_DTYPES(ST_DISPATCH_TAG_CASE_, )
#undef ST_DISPATCH_TAG_CASE_
  }
  fail_unsupported_dtype(op, t);
}

}  // namespace st

// One case of the switch below: a row of the table (Note [The dtype table])
// followed by the alias name and the lambda.
#define ST_DISPATCH_CASE_(NAME_, CPP_TYPE, VALUE, STR, SIZE, CODE, BITS, KIND, ALIAS, ...) \
  case ::st::ScalarType::NAME_: {                                                          \
    using ALIAS [[maybe_unused]] = CPP_TYPE;                                               \
    return __VA_ARGS__();                                                                  \
  }

// Runs the lambda with `ALIAS` naming the C++ type of TYPE.
#define ST_DISPATCH_ALL_TYPES_AS(TYPE, NAME, ALIAS, ...)               \
  [&] {                                                                \
    const ::st::ScalarType st_dispatch_type_ = (TYPE);                 \
    switch (st_dispatch_type_) { ST_FORALL_DTYPES(ST_DISPATCH_CASE_, ALIAS, __VA_ARGS__) } \
    ::st::fail_unsupported_dtype((NAME), st_dispatch_type_);           \
  }()

#define ST_DISPATCH_ALL_TYPES(TYPE, NAME, ...) ST_DISPATCH_ALL_TYPES_AS(TYPE, NAME, scalar_t, __VA_ARGS__)

namespace st {

[[noreturn]] inline void fail_no_conversion(const char* op, ScalarType dst, ScalarType src) {
  fail(ST_ERROR_UNSUPPORTED_DTYPE, "%s: no conversion between %s and %s (float4_e2m1fn_x2 copies only to itself)", op,
       dtype_name(static_cast<int32_t>(src)), dtype_name(static_cast<int32_t>(dst)));
}

// The source type a pair's expansion is compiled with: S itself when the
// conversion rules take D <- S (converts()), else D, whose same-type
// expansion exists anyway, so that no code is compiled for a pair that
// never runs.
template <typename D, typename S>
using conversion_source_t =
    typename std::conditional<converts(scalar_type_of<D>, scalar_type_of<S>), S, D>::type;

}  // namespace st

// One case of the source switch of ST_DISPATCH_PAIR: ALIAS names the row's
// type, or the destination's for a pair without a conversion.
#define ST_DISPATCH_SOURCE_CASE_(NAME_, CPP_TYPE, VALUE, STR, SIZE, CODE, BITS, KIND, DST_ALIAS, ALIAS, ...) \
  case ::st::ScalarType::NAME_: {                                                                            \
    using ALIAS [[maybe_unused]] = ::st::conversion_source_t<DST_ALIAS, CPP_TYPE>;                           \
    return __VA_ARGS__();                                                                                    \
  }

// Runs the lambda with `dst_t` and `src_t` naming the C++ types of DST_TYPE
// and SRC_TYPE: one expansion per pair the conversion rules take
// (converts()); any other pair fails with ST_ERROR_UNSUPPORTED_DTYPE.
#define ST_DISPATCH_PAIR(DST_TYPE, SRC_TYPE, NAME, ...)                                                   \
  [&] {                                                                                                   \
    const ::st::ScalarType st_pair_dst_ = (DST_TYPE), st_pair_src_ = (SRC_TYPE);                          \
    if (::st::is_valid_dtype(static_cast<int32_t>(st_pair_dst_)) &&                                      \
        ::st::is_valid_dtype(static_cast<int32_t>(st_pair_src_)) && !::st::converts(st_pair_dst_, st_pair_src_)) \
      ::st::fail_no_conversion((NAME), st_pair_dst_, st_pair_src_);                                       \
    return ST_DISPATCH_ALL_TYPES_AS(st_pair_dst_, NAME, dst_t, [&] {                                      \
      switch (st_pair_src_) { ST_FORALL_DTYPES(ST_DISPATCH_SOURCE_CASE_, dst_t, src_t, __VA_ARGS__) }     \
      ::st::fail_unsupported_dtype((NAME), st_pair_src_);                                                 \
    });                                                                                                   \
  }()
