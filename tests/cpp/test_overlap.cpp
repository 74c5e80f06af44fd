// Overlap analysis on hand-written layouts: the self-overlap rule of
// st_copy (include/stride.h) at its exact boundary, with negative and extreme
// strides, and the overlap status of two tensors.
#include <climits>

#include "core/overlap.h"
#include "core/storage.h"
#include "iter_testing.h"

using namespace testing;
using st::is_non_overlapping;
using st::OverlapStatus;

static void dense_and_gapped_layouts_are_non_overlapping(void**) {
  assert_true(is_non_overlapping({3, 4}, {4, 1}));
  assert_true(is_non_overlapping({3, 4}, {1, 3}));
  assert_true(is_non_overlapping({3, 4}, {9, 2}));  // gaps are fine
  assert_true(is_non_overlapping({}, {}));
}

static void span_rule_boundary(void**) {
  // Dim of size 4 and stride 1 spans 3: the next stride must exceed 3.
  assert_false(is_non_overlapping({3, 4}, {3, 1}));
  assert_true(is_non_overlapping({3, 4}, {4, 1}));
  // Interleaved strides that never collide still fail: the rule is a proof, not a search.
  // (offsets 0, 2, 4, 3, 5, 7 are distinct, but stride 3 does not clear the span 4).
  assert_false(is_non_overlapping({2, 3}, {3, 2}));
  assert_true(is_non_overlapping({2, 2}, {2, 3}));  // span 2, then stride 3: proven
  // Three dims: spans add up. (2: stride 1) spans 1, (3: stride 2) spans 4 more → 5.
  assert_false(is_non_overlapping({2, 3, 2}, {5, 2, 1}));
  assert_true(is_non_overlapping({2, 3, 2}, {6, 2, 1}));
  // Equal strides always collide.
  assert_false(is_non_overlapping({2, 2}, {1, 1}));
}

static void stride_zero_fails_only_on_dims_that_repeat(void**) {
  assert_false(is_non_overlapping({2}, {0}));
  assert_false(is_non_overlapping({3, 4}, {0, 1}));
  assert_true(is_non_overlapping({1, 4}, {0, 1}));  // size 1: never stepped
  assert_true(is_non_overlapping({0, 4}, {0, 0}));  // no elements at all
}

static void negative_strides_count_by_magnitude(void**) {
  assert_true(is_non_overlapping({3, 4}, {-4, 1}));
  assert_true(is_non_overlapping({3, 4}, {4, -1}));
  assert_true(is_non_overlapping({3, 4}, {-4, -1}));
  assert_false(is_non_overlapping({3, 4}, {-3, 1}));
  assert_false(is_non_overlapping({3, 4}, {3, -1}));
  assert_false(is_non_overlapping({2, 2}, {1, -1}));
}

static void extreme_strides_do_not_overflow(void**) {
  // INT64_MAX/2 after a dim spanning 3·(INT64_MAX/2): the span saturates and nothing clears it.
  assert_false(is_non_overlapping({2, 4}, {INT64_MAX, INT64_MAX / 2}));
  assert_true(is_non_overlapping({2, 2}, {INT64_MAX, INT64_MAX / 2}));
  assert_true(is_non_overlapping({2}, {INT64_MIN}));
  assert_true(is_non_overlapping({2, 2}, {INT64_MIN, INT64_MAX / 2}));
  assert_true(is_non_overlapping({2, 2}, {INT64_MIN, INT64_MIN + 1}));   // 2^63 clears 2^63 − 1
  assert_false(is_non_overlapping({2, 3}, {INT64_MIN, INT64_MIN / 2}));  // 2^63 does not clear 2·2^62
  assert_false(is_non_overlapping({INT64_MAX, 2}, {2, INT64_MAX}));
}

static void tensors_use_the_same_rule(void**) {
  Tensor base = contiguous_tensor({3, 4}, ScalarType::Float32);
  assert_true(is_non_overlapping(base));
  assert_true(is_non_overlapping(st::flip(base, 1)));
  assert_false(is_non_overlapping(st::expand(contiguous_tensor({1, 4}, ScalarType::Float32), {3, 4})));
  assert_false(is_non_overlapping(st::as_strided(base, {3, 3}, {2, 1}, 0)));
  assert_true(is_non_overlapping(st::as_strided(base, {3, 3}, {3, 1}, 0)));
  assert_true(is_non_overlapping(st::as_strided(base, {2, 3}, {-3, 1}, 3)));
  std::string msg;
  assert_int_equal(status_of(
                       [&] {
                         st::assert_no_internal_overlap(st::as_strided(base, {3, 3}, {2, 1}, 0), "dst");
                       },
                       &msg),
                   ST_ERROR_OVERLAP);
  expect_contains(msg, "dst of sizes (3, 3) and strides (2, 1)");
}

static void overlap_status_of_views(void**) {
  Tensor base = contiguous_tensor({4, 4}, ScalarType::Float32);
  assert_true(st::get_overlap_status(base, base) == OverlapStatus::Full);
  // Another TensorImpl with the very same layout.
  assert_true(st::get_overlap_status(base, st::transpose(st::transpose(base, 0, 1), 0, 1)) == OverlapStatus::Full);
  // Same memory, another order.
  assert_true(st::get_overlap_status(base, st::transpose(base, 0, 1)) == OverlapStatus::Partial);
  assert_true(st::get_overlap_status(base, st::flip(base, 0)) == OverlapStatus::Partial);
  // Disjoint rows; then rows that share one element's bytes.
  assert_true(st::get_overlap_status(st::slice(base, 0, 0, 2, 1), st::slice(base, 0, 2, 4, 1)) == OverlapStatus::No);
  assert_true(st::get_overlap_status(st::slice(base, 0, 0, 3, 1), st::slice(base, 0, 2, 4, 1)) ==
              OverlapStatus::Partial);
  // Interleaved columns share no element but their byte ranges meet: conservatively Partial.
  assert_true(st::get_overlap_status(st::slice(base, 1, 0, 4, 2), st::slice(base, 1, 1, 4, 2)) ==
              OverlapStatus::Partial);
  // Size-1 dims with other strides still describe the same elements.
  assert_true(st::get_overlap_status(st::as_strided(base, {1, 4}, {4, 1}, 0),
                                     st::as_strided(base, {1, 4}, {7, 1}, 0)) == OverlapStatus::Full);
  // Empty tensors and different storages never overlap.
  assert_true(st::get_overlap_status(st::slice(base, 0, 0, 0, 1), base) == OverlapStatus::No);
  assert_true(st::get_overlap_status(base, contiguous_tensor({4, 4}, ScalarType::Float32)) == OverlapStatus::No);
}

static void overlap_status_compares_bytes_and_dtypes(void**) {
  Tensor base = contiguous_tensor({4}, ScalarType::Float32);
  // Another dtype over the same bytes is not a no-op copy.
  Tensor as_int = Tensor::make(base.storage(), {4}, {1}, 0, ScalarType::Int32);
  assert_true(st::get_overlap_status(base, as_int) == OverlapStatus::Partial);
  // int16 elements 2..3 are the bytes of float32 element 1.
  Tensor halves = Tensor::make(base.storage(), {2}, {1}, 2, ScalarType::Int16);
  assert_true(st::get_overlap_status(st::slice(base, 0, 1, 2, 1), halves) == OverlapStatus::Partial);
  assert_true(st::get_overlap_status(st::slice(base, 0, 2, 4, 1), halves) == OverlapStatus::No);
  // Two storages that wrap the same memory (borrowed memory, as
  // st_tensor_from_data and DLPack make) are compared by address.
  st::Storage alias = st::Storage::make(base.storage()->base(), base.storage()->nbytes(), st::cpu_device(),
                                        st::MemoryRelease{}, false, true);
  Tensor twin = Tensor::make(alias, {4}, {1}, 0, ScalarType::Float32);
  assert_true(st::get_overlap_status(base, twin) == OverlapStatus::Full);
  assert_true(st::get_overlap_status(base, st::flip(twin, 0)) == OverlapStatus::Partial);
  std::string msg;
  assert_int_equal(status_of([&] { st::assert_no_partial_overlap(base, st::flip(twin, 0), "dst", "src"); }, &msg),
                   ST_ERROR_OVERLAP);
  expect_contains(msg, "dst (sizes (4), strides (1)) and src (sizes (4), strides (-1))");
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(dense_and_gapped_layouts_are_non_overlapping),
      cmocka_unit_test(span_rule_boundary),
      cmocka_unit_test(stride_zero_fails_only_on_dims_that_repeat),
      cmocka_unit_test(negative_strides_count_by_magnitude),
      cmocka_unit_test(extreme_strides_do_not_overflow),
      cmocka_unit_test(tensors_use_the_same_rule),
      cmocka_unit_test(overlap_status_of_views),
      cmocka_unit_test(overlap_status_compares_bytes_and_dtypes),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
