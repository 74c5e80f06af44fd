// Layout flags and stride builders against hand-computed PyTorch answers.
#include "cmocka_cxx.h"
#include "core/contiguity.h"

using st::DimVector;

static void contiguous_ignores_size_one_dims(void**) {
  assert_true(st::compute_contiguous({2, 1, 3}, {3, 99, 1}, 6));
  assert_false(st::compute_contiguous({2, 3}, {1, 2}, 6));
  assert_true(st::compute_contiguous({0, 3}, {7, 5}, 0));  // empty: contiguous whatever the strides
}

static void channels_last_rule_applies_even_when_empty(void**) {
  // NCHW (2,3,4,5) in NHWC order: C stride 1, W 3, H 15, N 60.
  assert_true(st::compute_channels_last_2d({2, 3, 4, 5}, {60, 1, 15, 3}));
  assert_false(st::compute_channels_last_2d({2, 3, 4, 5}, {60, 20, 5, 1}));
  assert_false(st::compute_channels_last_2d({0, 3, 4, 5}, {60, 20, 5, 1}));
  assert_true(st::compute_channels_last_2d({0, 3, 4, 5}, {60, 1, 15, 3}));
  assert_false(st::compute_channels_last_2d({2, 3, 4}, {12, 4, 1}));
}

static void dense_layouts_in_any_order(void**) {
  assert_true(st::compute_non_overlapping_and_dense({3, 4}, {1, 3}));
  assert_false(st::compute_non_overlapping_and_dense({3, 4}, {1, 2}));   // overlap
  assert_false(st::compute_non_overlapping_and_dense({3, 4}, {-4, 1}));  // negative stride
  assert_false(st::compute_non_overlapping_and_dense({3, 4}, {8, 1}));   // gap
}

static void infer_dense_strides_keeps_the_order(void**) {
  // A transposed (4,3) view of a (3,4) tensor: strides (1,4) -> dense (1,4).
  assert_true((st::infer_dense_strides({4, 3}, {1, 4}) == DimVector{1, 4}));
  // A sliced view (2,3) with strides (8,2): order kept, gaps closed.
  assert_true((st::infer_dense_strides({2, 3}, {8, 2}) == DimVector{3, 1}));
  // Negative strides count by absolute value.
  assert_true((st::infer_dense_strides({4, 3}, {-1, 4}) == DimVector{1, 4}));
  // PyTorch's own example: (6,5,4,3,2) strides (6,0,120,0,1) -> perm (4,3,0,1,2).
  assert_true((st::infer_dense_strides({6, 5, 4, 3, 2}, {6, 0, 120, 0, 1}) == DimVector{6, 36, 180, 2, 1}));
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contiguous_ignores_size_one_dims),
      cmocka_unit_test(channels_last_rule_applies_even_when_empty),
      cmocka_unit_test(dense_layouts_in_any_order),
      cmocka_unit_test(infer_dense_strides_keeps_the_order),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
