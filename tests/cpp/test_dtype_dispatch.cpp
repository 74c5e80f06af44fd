// ScalarType <-> C++ type, and the dispatch from a runtime dtype (and a
// runtime pair of dtypes) to code instantiated with the C++ types.
#include <cstring>
#include <type_traits>

#include "core/error.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/numeric/dtype_traits.h"

// After the project headers: cmocka defines a function-like macro fail().
#include "cmocka_cxx.h"

namespace {

// The st_dtype number of each C++ element type, as include/stride.h lists them.
template <typename T>
int expected_dtype_number() {
  if (std::is_same<T, bool>::value) return 0;
  if (std::is_same<T, uint8_t>::value) return 1;
  if (std::is_same<T, int8_t>::value) return 2;
  if (std::is_same<T, int16_t>::value) return 3;
  if (std::is_same<T, int32_t>::value) return 4;
  if (std::is_same<T, int64_t>::value) return 5;
  if (std::is_same<T, st::Half>::value) return 6;
  if (std::is_same<T, st::BFloat16>::value) return 7;
  if (std::is_same<T, float>::value) return 8;
  if (std::is_same<T, double>::value) return 9;
  if (std::is_same<T, st::complex<float>>::value) return 10;
  if (std::is_same<T, st::complex<double>>::value) return 11;
  if (std::is_same<T, uint16_t>::value) return 12;
  if (std::is_same<T, uint32_t>::value) return 13;
  if (std::is_same<T, uint64_t>::value) return 14;
  if (std::is_same<T, st::Float8_e4m3fn>::value) return 15;
  if (std::is_same<T, st::Float8_e5m2>::value) return 16;
  if (std::is_same<T, st::Float8_e8m0fnu>::value) return 17;
  if (std::is_same<T, st::Float4_e2m1fn_x2>::value) return 18;
  if (std::is_same<T, st::Float6_e2m3fn>::value) return 19;
  if (std::is_same<T, st::Float6_e3m2fn>::value) return 20;
  return -1;
}

const size_t kItemsizes[21] = {1, 1, 1, 2, 4, 8, 2, 2, 4, 8, 8, 16, 2, 4, 8, 1, 1, 1, 1, 1, 1};
constexpr int kFloat4 = 18;

void traits_map_both_ways(void**) {
  static_assert(std::is_same<st::cpp_type_t<st::ScalarType::Float16>, st::Half>::value, "float16 is Half");
  static_assert(std::is_same<st::cpp_type_t<st::ScalarType::Complex128>, st::complex<double>>::value, "");
  static_assert(st::scalar_type_of<int16_t> == st::ScalarType::Int16, "int16_t is Int16");
  static_assert(st::scalar_type_of<st::BFloat16> == st::ScalarType::BFloat16, "");
  static_assert(st::IsComplex<st::complex<float>>::value && !st::IsComplex<float>::value, "");
  assert_int_equal(static_cast<int>(st::scalar_type_of<bool>), ST_BOOL);
  assert_int_equal(static_cast<int>(st::scalar_type_of<double>), ST_FLOAT64);
  static_assert(st::scalar_type_of<uint64_t> == st::ScalarType::UInt64, "uint64_t is UInt64");
  static_assert(std::is_same<st::cpp_type_t<st::ScalarType::Float8_e5m2>, st::Float8_e5m2>::value, "");
  assert_int_equal(st::kNumScalarTypes, 21);
  static_assert(std::is_same<st::cpp_type_t<st::ScalarType::Float4_e2m1fn_x2>, st::Float4_e2m1fn_x2>::value, "");
  assert_int_equal(static_cast<int>(st::scalar_type_of<st::Float8_e4m3fn>), ST_FLOAT8_E4M3FN);
}

void macro_dispatch_picks_the_type_of_every_dtype(void**) {
  for (int d = 0; d < st::kNumScalarTypes; ++d) {
    const auto t = static_cast<st::ScalarType>(d);
    const int got = ST_DISPATCH_ALL_TYPES(t, "test", [&] {
      assert_int_equal(sizeof(scalar_t), kItemsizes[d]);
      assert_true(st::scalar_type_of<scalar_t> == t);
      return expected_dtype_number<scalar_t>();
    });
    assert_int_equal(got, d);
  }
}

void function_dispatch_picks_the_type_of_every_dtype(void**) {
  for (int d = 0; d < st::kNumScalarTypes; ++d) {
    const auto t = static_cast<st::ScalarType>(d);
    const int got = st::dispatch_dtype(t, "test", [&](auto tag) {
      using T = typename decltype(tag)::type;
      assert_int_equal(sizeof(T), kItemsizes[d]);
      return expected_dtype_number<T>();
    });
    assert_int_equal(got, d);
  }
}

// Every pair the conversion rules take (all but float4_e2m1fn_x2 with
// another dtype: 21 · 21 - 2 · 20 = 401) runs with its own types; the others
// are refused before any code runs.
void pair_dispatch_covers_all_401_converting_pairs(void**) {
  int ran = 0, refused = 0;
  for (int dst = 0; dst < st::kNumScalarTypes; ++dst) {
    for (int src = 0; src < st::kNumScalarTypes; ++src) {
      const bool converts = dst == src || (dst != kFloat4 && src != kFloat4);
      try {
        const int code = ST_DISPATCH_PAIR(static_cast<st::ScalarType>(dst), static_cast<st::ScalarType>(src), "test", [&] {
          return expected_dtype_number<dst_t>() * 100 + expected_dtype_number<src_t>();
        });
        assert_true(converts);
        assert_int_equal(code, dst * 100 + src);
        ++ran;
      } catch (const st::Error& e) {
        assert_false(converts);
        assert_int_equal(e.code(), ST_ERROR_UNSUPPORTED_DTYPE);
        assert_non_null(std::strstr(e.what(), "float4_e2m1fn_x2"));
        ++refused;
      }
    }
  }
  assert_int_equal(ran, 401);
  assert_int_equal(refused, 40);
}

// The table's columns agree with the C++ types they describe, and no two
// rows share a name or a DLPack (code, bits) pair.
void dtype_table_rows_are_consistent_and_distinct(void**) {
  for (int d = 0; d < st::kNumScalarTypes; ++d) {
    const st::DTypeInfo& row = st::kDTypes[d];
    assert_int_equal(static_cast<int>(row.type), d);
    // DLPack's bits times lanes: the whole element, but for the float6
    // dtypes, 6 bits padded to their byte.
    const bool float6 = row.type == st::ScalarType::Float6_e2m3fn || row.type == st::ScalarType::Float6_e3m2fn;
    assert_int_equal(row.dlpack_bits * st::dlpack_lanes(row.type), float6 ? 6 : 8 * row.itemsize);
    assert_int_equal(st::dlpack_padded(row.type), float6);
    assert_int_equal(st::dlpack_lanes(row.type), d == kFloat4 ? 2 : 1);
    const st::DTypeKind kind = ST_DISPATCH_ALL_TYPES(row.type, "test", [&] {
      if (std::is_same<scalar_t, bool>::value) return st::DTypeKind::Bool;
      if (st::IsComplex<scalar_t>::value) return st::DTypeKind::Complex;
      if (st::IsPacked<scalar_t>::value) return st::DTypeKind::Packed;
      if (std::is_integral<scalar_t>::value) {
        return std::is_signed<scalar_t>::value ? st::DTypeKind::Signed : st::DTypeKind::Unsigned;
      }
      return st::DTypeKind::Float;
    });
    assert_true(kind == row.kind);
    for (int e = 0; e < d; ++e) {
      assert_true(std::strcmp(row.name, st::kDTypes[e].name) != 0);
      assert_false(row.dlpack_code == st::kDTypes[e].dlpack_code && row.dlpack_bits == st::kDTypes[e].dlpack_bits);
    }
  }
}

// Catches the st::Error of f and checks its status and that the message
// contains each of the given fragments.
template <typename F>
void expect_unsupported(F&& f, const char* fragment1, const char* fragment2) {
  try {
    f();
  } catch (const st::Error& e) {
    assert_int_equal(e.code(), ST_ERROR_UNSUPPORTED_DTYPE);
    assert_non_null(std::strstr(e.what(), fragment1));
    assert_non_null(std::strstr(e.what(), fragment2));
    return;
  }
  fail_msg("no st::Error thrown");
}

void unknown_dtypes_are_unsupported(void**) {
  int ran = 0;
  expect_unsupported([&] { ST_DISPATCH_ALL_TYPES(static_cast<st::ScalarType>(21), "copy_", [&] { ++ran; }); },
                     "copy_", "21");
  expect_unsupported([&] { st::dispatch_dtype(static_cast<st::ScalarType>(-1), "fill_", [&](auto) { ++ran; }); },
                     "fill_", "-1");
  expect_unsupported(
      [&] { ST_DISPATCH_PAIR(st::ScalarType::Float32, static_cast<st::ScalarType>(99), "copy_", [&] { ++ran; }); },
      "copy_", "99");
  expect_unsupported(
      [&] { ST_DISPATCH_PAIR(static_cast<st::ScalarType>(21), st::ScalarType::Float32, "copy_", [&] { ++ran; }); },
      "copy_", "unknown");
  assert_int_equal(ran, 0);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(traits_map_both_ways),
      cmocka_unit_test(macro_dispatch_picks_the_type_of_every_dtype),
      cmocka_unit_test(function_dispatch_picks_the_type_of_every_dtype),
      cmocka_unit_test(pair_dispatch_covers_all_401_converting_pairs),
      cmocka_unit_test(unknown_dtypes_are_unsupported),
      cmocka_unit_test(dtype_table_rows_are_consistent_and_distinct),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
