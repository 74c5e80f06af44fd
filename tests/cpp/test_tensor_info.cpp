// collapse_dims, TensorInfo and IndexToOffset against hand-computed
// collapses and a reference offset walk over random layouts.
#include <cstdint>
#include <random>
#include <vector>

#include "core/error.h"
#include "cuda/collapse_dims.h"
#include "cuda/index_width.h"
#include "cuda/tensor_info.h"
#include "layout_reference.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::cuda::CollapsedDims;
using st::cuda::IndexToOffset;
using st::cuda::make_tensor_info;
using st::cuda::TensorInfo;

namespace {

struct Collapse {
  std::vector<int64_t> sizes, strides;
  int excluded;
};

Collapse collapse(std::vector<int64_t> sizes, std::vector<int64_t> strides, int excluded = -1) {
  const int dims = static_cast<int>(sizes.size());
  sizes.resize(std::max(sizes.size(), size_t{1}));  // a 0-d collapse writes one dim
  strides.resize(sizes.size());
  const CollapsedDims r = st::cuda::collapse_dims(sizes.data(), strides.data(), dims, excluded);
  sizes.resize(static_cast<size_t>(r.dims));
  strides.resize(static_cast<size_t>(r.dims));
  return {sizes, strides, r.excluded_dim};
}

void expect_collapse(std::vector<int64_t> sizes, std::vector<int64_t> strides, int excluded,
                     std::vector<int64_t> want_sizes, std::vector<int64_t> want_strides, int want_excluded) {
  const Layout before{sizes, strides};
  const Collapse got = collapse(sizes, strides, excluded);
  const Layout after{got.sizes, got.strides};
  if (got.sizes != want_sizes || got.strides != want_strides || got.excluded != want_excluded) {
    print_error("collapse of %s excluding %d gave %s excluding %d, expected %s excluding %d\n", before.str().c_str(),
                excluded, after.str().c_str(), got.excluded, Layout{want_sizes, want_strides}.str().c_str(),
                want_excluded);
    fail();
  }
}

// Hand-computed by PyTorch's rule: dim i merges into the kept dim before it
// when stride[before] == size[i] * stride[i]; size-1 dims vanish.
void collapse_hand_cases(void**) {
  expect_collapse({2, 3, 4}, {12, 4, 1}, -1, {24}, {1}, -1);
  expect_collapse({2, 3, 4}, {12, 4, 1}, 1, {2, 3, 4}, {12, 4, 1}, 1);
  expect_collapse({2, 3, 4, 5}, {60, 20, 5, 1}, 2, {6, 4, 5}, {20, 5, 1}, 1);
  expect_collapse({4, 1, 3}, {3, 99, 1}, -1, {12}, {1}, -1);
  expect_collapse({2, 3}, {1, 2}, -1, {2, 3}, {1, 2}, -1);          // transposed: nothing merges
  expect_collapse({3, 4}, {-4, -1}, -1, {12}, {-1}, -1);             // flipped both ways: still one run
  expect_collapse({3, 4}, {4, -1}, -1, {3, 4}, {4, -1}, -1);         // flipped inner dim only
  expect_collapse({3, 4}, {0, 1}, -1, {3, 4}, {0, 1}, -1);           // broadcast outer dim
  expect_collapse({3, 4}, {0, 0}, -1, {12}, {0}, -1);                // broadcast scalar
  expect_collapse({2, 0, 3}, {0, 3, 1}, -1, {0}, {1}, -1);           // empty
  expect_collapse({5, 1, 1}, {1, 7, 7}, 2, {5, 1}, {1, 7}, 1);       // a size-1 excluded dim is kept
  expect_collapse({2, 2, 3}, {6, 3, 1}, 0, {2, 6}, {6, 1}, 0);       // nothing merges into the excluded dim
  expect_collapse({1, 1, 1}, {5, 6, 7}, -1, {1}, {1}, 0);            // a point
  expect_collapse({1, 1, 1}, {5, 6, 7}, 1, {1}, {1}, 0);             // a point, even with an excluded dim
  expect_collapse({}, {}, -1, {1}, {1}, 0);                          // 0-d
}

void collapse_refuses_a_bad_excluded_dim(void**) {
  for (int excluded : {-2, 3}) {
    int64_t sizes[3] = {2, 3, 4}, strides[3] = {12, 4, 1};
    bool threw = false;
    try {
      st::cuda::collapse_dims(sizes, strides, 3, excluded);
    } catch (const st::Error& e) {
      threw = e.code() == ST_ERROR_INTERNAL;
    }
    assert_true(threw);
  }
}

template <typename IndexType>
bool offsets_match(const TensorInfo<char, IndexType>& info, const std::vector<int64_t>& want, const char* what,
                   const Layout& l, int excluded) {
  for (size_t k = 0; k < want.size(); ++k) {
    const IndexType linear = static_cast<IndexType>(k);
    int64_t got = IndexToOffset<char, IndexType, -1>::get(linear, info);
    int64_t got_static = got;
    if (info.dims == 1) got_static = IndexToOffset<char, IndexType, 1>::get(linear, info);
    if (info.dims == 2) got_static = IndexToOffset<char, IndexType, 2>::get(linear, info);
    if (info.dims == 3) got_static = IndexToOffset<char, IndexType, 3>::get(linear, info);
    if (got != want[k] || got_static != want[k]) {
      print_error("%s, %d-bit, excluded %d, %s: element %zu at offset %lld (static dims: %lld), expected %lld\n",
                  l.str().c_str(), static_cast<int>(8 * sizeof(IndexType)), excluded, what, k,
                  static_cast<long long>(got), static_cast<long long>(got_static), static_cast<long long>(want[k]));
      return false;
    }
  }
  return true;
}

// The collapsed info must still be a collapse: fewest dims, no size-1 dim
// but the excluded one, and the excluded dim where its elements were.
template <typename IndexType>
bool collapse_is_minimal(const TensorInfo<char, IndexType>& info, int new_excluded, const Layout& l, int excluded) {
  const int n = info.dims;
  bool ok = n >= 1 && n <= std::max(l.ndim(), 1);
  const bool point = l.numel() == 1 && n == 1 && info.sizes[0] == 1;
  if (excluded >= 0 && !point) {
    int64_t outer_before = 1, outer_after = 1;
    for (int d = 0; d < excluded; ++d) outer_before *= l.sizes[d];
    for (int d = 0; d < new_excluded; ++d) outer_after *= info.sizes[d];
    ok = ok && new_excluded >= 0 && new_excluded < n && info.sizes[new_excluded] == static_cast<IndexType>(l.sizes[excluded]) &&
         (info.strides[new_excluded] == l.strides[excluded] || l.sizes[excluded] == 1) && outer_before == outer_after;
  }
  if (excluded < 0) ok = ok && new_excluded == (point ? 0 : -1);
  for (int d = 0; d < n && !point; ++d) {
    if (d != new_excluded && info.sizes[d] == 1) ok = false;
    if (d + 1 < n && d != new_excluded && d + 1 != new_excluded &&
        static_cast<int64_t>(info.strides[d]) == static_cast<int64_t>(info.sizes[d + 1]) * info.strides[d + 1])
      ok = false;
  }
  if (!ok) print_error("%s excluding %d: collapse to %d dims (excluded %d) is not minimal\n", l.str().c_str(), excluded, n, new_excluded);
  return ok;
}

template <typename IndexType>
bool check_layout(const Layout& l) {
  const std::vector<int64_t> want = reference_offsets(l);
  for (int excluded = -1; excluded < l.ndim(); ++excluded) {
    TensorInfo<char, IndexType> info =
        make_tensor_info<char, IndexType>(nullptr, l.sizes.data(), l.strides.data(), l.ndim());
    if (!offsets_match(info, want, "as given", l, excluded)) return false;
    const int new_excluded = info.collapse_dims(excluded);
    if (!collapse_is_minimal(info, new_excluded, l, excluded)) return false;
    if (!offsets_match(info, want, "collapsed", l, excluded)) return false;
  }
  return true;
}

// 32-bit when the layout allows it, as the kernels choose; 64-bit always.
bool check_layout_both_widths(const Layout& l) {
  const bool fits = st::cuda::fits_32bit_indexing(l.sizes.data(), l.strides.data(), l.ndim());
  return (!fits || check_layout<uint32_t>(l)) && check_layout<uint64_t>(l);
}

void random_layouts_keep_their_offsets(void**) {
  std::mt19937_64 rng(test_seed("random_layouts_keep_their_offsets"));
  int cases = 0;
  for (int i = 0; i < 3000; ++i) {
    const int ndim = static_cast<int>(rng() % 7);
    const Layout l = random_layout(rng, ndim, 4096);
    if (!check_layout_both_widths(l)) fail();
    ++cases;
  }
  for (int i = 0; i < 100; ++i) {  // the most dims a tensor may have
    const Layout l = random_layout(rng, st::cuda::kMaxTensorInfoDims, 2048);
    if (!check_layout_both_widths(l)) fail();
    ++cases;
  }
  std::printf("random_layouts_keep_their_offsets: %d layouts, every excluded dim\n", cases);
}

// Note [Wrapping offsets]: partial sums may leave int32 as long as the total
// does not. Offsets here reach ±(2^31 - 1).
void offsets_at_the_ends_of_int32(void**) {
  const Layout l{{2, 2}, {-INT32_MAX, INT32_MAX}};
  assert_true(st::cuda::fits_32bit_indexing(l.sizes.data(), l.strides.data(), 2));
  const std::vector<int64_t> want = {0, INT32_MAX, -INT32_MAX, 0};
  assert_true(reference_offsets(l) == want);
  const auto info = make_tensor_info<char, uint32_t>(nullptr, l.sizes.data(), l.strides.data(), 2);
  assert_true(offsets_match(info, want, "as given", l, -1));
}

void make_tensor_info_checks_its_input(void**) {
  const auto scalar = make_tensor_info<float, uint32_t>(nullptr, nullptr, nullptr, 0);
  assert_int_equal(scalar.dims, 1);
  assert_true(scalar.sizes[0] == 1 && scalar.strides[0] == 1 && scalar.is_contiguous());
  const int64_t big_size[1] = {int64_t{1} << 32}, big_stride[1] = {int64_t{1} << 31}, one[1] = {1}, two[1] = {2};
  const int64_t sizes26[26] = {}, strides26[26] = {};
  for (int which = 0; which < 3; ++which) {
    bool threw = false;
    try {
      if (which == 0) make_tensor_info<float, uint32_t>(nullptr, big_size, one, 1);
      if (which == 1) make_tensor_info<float, uint32_t>(nullptr, two, big_stride, 1);
      if (which == 2) make_tensor_info<float, uint64_t>(nullptr, sizes26, strides26, 26);
    } catch (const st::Error& e) {
      threw = e.code() == ST_ERROR_INTERNAL;
    }
    assert_true(threw);
  }
}

// A dim of size 1 never moves, so its stride need not fit the offset type.
void size_one_dims_take_any_stride(void**) {
  const int64_t sizes[3] = {3, 1, 2}, strides[3] = {2, int64_t{1} << 40, 1};
  assert_true(st::cuda::fits_32bit_indexing(sizes, strides, 3));
  const auto info = make_tensor_info<char, uint32_t>(nullptr, sizes, strides, 3);
  const Layout l{{3, 1, 2}, {2, int64_t{1} << 40, 1}};
  assert_true(offsets_match(info, reference_offsets(l), "as given", l, -1));
}

void fits_32bit_indexing_at_its_limits(void**) {
  using st::cuda::fits_32bit_indexing;
  const int64_t max = INT32_MAX;
  const int64_t a[2] = {max, 1}, unit[2] = {1, 1};
  assert_true(fits_32bit_indexing(a, unit, 2));                  // numel 2^31 - 1, offsets up to 2^31 - 2
  const int64_t b[2] = {max + 1, 1};
  assert_false(fits_32bit_indexing(b, unit, 2));                 // numel 2^31
  const int64_t two[1] = {2}, reach_max[1] = {max}, reach_over[1] = {max + 1};
  assert_true(fits_32bit_indexing(two, reach_max, 1));           // offset 2^31 - 1
  assert_false(fits_32bit_indexing(two, reach_over, 1));         // offset 2^31
  const int64_t reach_min[1] = {-max - 1}, reach_under[1] = {-max - 2};
  assert_true(fits_32bit_indexing(two, reach_min, 1));           // offset -2^31
  assert_false(fits_32bit_indexing(two, reach_under, 1));
  const int64_t empty[2] = {INT64_MAX, 0}, huge[2] = {INT64_MAX, INT64_MAX};
  assert_true(fits_32bit_indexing(empty, huge, 2));              // nothing to index
  assert_true(fits_32bit_indexing(nullptr, nullptr, 0));         // a scalar
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(collapse_hand_cases),
      cmocka_unit_test(collapse_refuses_a_bad_excluded_dim),
      cmocka_unit_test(random_layouts_keep_their_offsets),
      cmocka_unit_test(offsets_at_the_ends_of_int32),
      cmocka_unit_test(make_tensor_info_checks_its_input),
      cmocka_unit_test(size_one_dims_take_any_stride),
      cmocka_unit_test(fits_32bit_indexing_at_its_limits),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
