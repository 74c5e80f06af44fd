// TensorIterator on hand-computed cases: the dims and byte strides after
// reordering and coalescing, flipped views, a fill's broadcast dims, a
// scaled copy's scales and shifts, and the 2-d blocks of serial_for_each.
#include "core/dims.h"
#include "iter_testing.h"

using namespace testing;
using st::TensorIterator;

namespace {

const ScalarType F32 = ScalarType::Float32;

TensorIterator copy_iter(const Tensor& out, const Tensor& in) { return TensorIterator::copy(out, in); }

void expect_dims(const DimVector& got, const DimVector& want, const char* what) {
  if (got != want) {
    print_error("%s: got %s, expected %s\n", what, st::format_dims(got).c_str(), st::format_dims(want).c_str());
    fail();
  }
}

void expect_geometry(const TensorIterator& it, const DimVector& shape, const DimVector& out_strides,
                     const DimVector& in_strides) {
  expect_dims(it.shape(), shape, "shape");
  expect_dims(it.strides(0), out_strides, "strides(0)");
  expect_dims(it.strides(1), in_strides, "strides(1)");
}

char* byte_at(const Tensor& t, int64_t elements) { return static_cast<char*>(t.data()) + elements * 4; }

// Copies with the iterator and checks every element against a reference walk.
void expect_copy_matches_reference(const TensorIterator& it, const Tensor& out, const Tensor& in) {
  const std::vector<unsigned char> expected = expected_after_copy(out, in, snapshot(out));
  it.for_each(ByteCopyLoop{out.itemsize()});
  assert_true(snapshot(out) == expected);
}

}  // namespace

static void contiguous_pair_coalesces_to_one_dim(void**) {
  Tensor out = contiguous_tensor({2, 3, 4}, F32), in = contiguous_tensor({2, 3, 4}, F32);
  TensorIterator it = copy_iter(out, in);
  assert_int_equal(it.ndim(), 1);
  expect_geometry(it, {24}, {4}, {4});
  assert_true(it.is_contiguous());
  assert_true(it.data_ptr(0) == out.data());
  assert_true(it.data_ptr(1) == in.data());
  assert_int_equal(it.ntensors(), 2);
}

static void different_itemsizes_keep_their_own_strides(void**) {
  Tensor out = contiguous_tensor({2, 3}, ScalarType::Float64), in = contiguous_tensor({2, 3}, ScalarType::Int16);
  TensorIterator it = copy_iter(out, in);
  expect_geometry(it, {6}, {8}, {2});
  assert_int_equal(it.element_size(0), 8);
  assert_int_equal(it.element_size(1), 2);
  assert_true(it.dtype(1) == ScalarType::Int16);
  assert_true(it.is_contiguous());
}

static void transposed_input_gives_two_dims(void**) {
  // in = (4, 3) contiguous, transposed to (3, 4) with strides (1, 3).
  Tensor out = contiguous_tensor({3, 4}, F32), in = st::transpose(contiguous_tensor({4, 3}, F32), 0, 1);
  TensorIterator it = copy_iter(out, in);
  // The output decides: its last dim (size 4) moves fastest.
  expect_geometry(it, {4, 3}, {4, 16}, {12, 4});
  assert_false(it.is_contiguous());
  fill_iota_int32(in);
  expect_copy_matches_reference(it, out, in);
}

static void transposed_output_decides_the_order(void**) {
  Tensor out = st::transpose(contiguous_tensor({4, 3}, F32), 0, 1), in = contiguous_tensor({3, 4}, F32);
  TensorIterator it = copy_iter(out, in);
  expect_geometry(it, {3, 4}, {4, 12}, {16, 4});
}

static void channels_last_input_into_contiguous_output(void**) {
  // NCHW (2, 3, 4, 5); the input is NHWC: strides N 60, C 1, H 15, W 3.
  Tensor out = contiguous_tensor({2, 3, 4, 5}, F32);
  Tensor in = st::permute(contiguous_tensor({2, 4, 5, 3}, F32), {0, 3, 1, 2});
  TensorIterator it = copy_iter(out, in);
  // Fastest first: W·H merge (out 4, in 12), then C (out 80, in 4), then N.
  expect_geometry(it, {20, 3, 2}, {4, 80, 240}, {12, 4, 240});
  fill_iota_int32(in);
  expect_copy_matches_reference(it, out, in);
}

static void shared_dense_layouts_take_the_fast_set_up(void**) {
  Tensor out = st::permute(contiguous_tensor({2, 4, 5, 3}, F32), {0, 3, 1, 2});
  Tensor in = st::permute(contiguous_tensor({2, 4, 5, 3}, F32), {0, 3, 1, 2});
  expect_geometry(copy_iter(out, in), {120}, {4}, {4});
  // The same permuted dense layout that is no named format: (3, 4) stored column-major.
  Tensor a = st::transpose(contiguous_tensor({4, 3}, F32), 0, 1),
         b = st::transpose(contiguous_tensor({4, 3}, F32), 0, 1);
  expect_geometry(copy_iter(a, b), {12}, {4}, {4});
}

static void size_one_dims_never_block_coalescing(void**) {
  // A size-1 dim with an odd stride is still contiguous; so is the pair.
  Tensor base = contiguous_tensor({3, 1, 4}, F32);
  Tensor out = st::as_strided(base, {3, 1, 4}, {4, 999, 1}, 0);
  Tensor in = contiguous_tensor({3, 1, 4}, F32);
  expect_geometry(copy_iter(out, in), {12}, {4}, {4});
  // On the slow path: a stepped slice is still one uniform dim...
  Tensor stepped = st::slice(contiguous_tensor({3, 1, 8}, F32), 2, 0, 8, 2);  // strides (8, 8, 2)
  expect_geometry(copy_iter(out, stepped), {12}, {4}, {8});
  // ...while a row slice leaves a gap between rows: two dims.
  Tensor rows = st::slice(contiguous_tensor({3, 1, 8}, F32), 2, 0, 4, 1);  // strides (8, 8, 1)
  expect_geometry(copy_iter(out, rows), {4, 3}, {4, 16}, {4, 32});
}

static void broadcast_dims_get_stride_zero(void**) {
  Tensor out = contiguous_tensor({2, 3}, F32);
  expect_geometry(copy_iter(out, contiguous_tensor({3}, F32)), {3, 2}, {4, 12}, {4, 0});
  expect_geometry(copy_iter(out, contiguous_tensor({2, 1}, F32)), {3, 2}, {4, 12}, {0, 4});
  // A 0-d input broadcasts everywhere; the output stays one flat dim.
  expect_geometry(copy_iter(out, contiguous_tensor({}, F32)), {6}, {4}, {0});
}

static void inputs_break_ties_the_output_leaves(void**) {
  // The output is broadcast along dim 1 (stride 0: it abstains there), so
  // the transposed input decides: its dim 0 (stride 1) moves fastest.
  Tensor out = st::expand(contiguous_tensor({3, 1}, F32), {3, 4});
  Tensor in = st::transpose(contiguous_tensor({4, 3}, F32), 0, 1);
  expect_geometry(copy_iter(out, in), {3, 4}, {4, 0}, {4, 12});
}

static void flipped_input_walks_backwards(void**) {
  Tensor out = contiguous_tensor({3, 4}, F32), base = contiguous_tensor({3, 4}, F32);
  Tensor in = st::flip(base, 1);  // strides (4, -1), element (0, 0) is base element 3
  TensorIterator it = copy_iter(out, in);
  expect_geometry(it, {4, 3}, {4, 16}, {-4, 16});
  assert_true(it.data_ptr(1) == byte_at(base, 3));
  fill_iota_int32(base);
  expect_copy_matches_reference(it, out, in);
}

static void fully_flipped_input_coalesces(void**) {
  Tensor out = contiguous_tensor({3, 4}, F32), base = contiguous_tensor({3, 4}, F32);
  Tensor in = st::flip(st::flip(base, 0), 1);
  TensorIterator it = copy_iter(out, in);
  expect_geometry(it, {12}, {4}, {-4});
  assert_true(it.data_ptr(1) == byte_at(base, 11));
  fill_iota_int32(base);
  expect_copy_matches_reference(it, out, in);
}

static void flipped_pair_iterates_in_memory_order(void**) {
  Tensor out_base = contiguous_tensor({12}, F32), in_base = contiguous_tensor({12}, F32);
  Tensor out = st::flip(out_base, 0), in = st::flip(in_base, 0);
  TensorIterator it = copy_iter(out, in);
  expect_geometry(it, {12}, {4}, {4});
  assert_true(it.data_ptr(0) == out_base.data());
  assert_true(it.data_ptr(1) == in_base.data());
  fill_iota_int32(in_base);
  expect_copy_matches_reference(it, out, in);
}

static void flipped_output_decides_the_direction(void**) {
  Tensor out_base = contiguous_tensor({3, 4}, F32), in = contiguous_tensor({3, 4}, F32);
  Tensor out = st::flip(out_base, 1);
  TensorIterator it = copy_iter(out, in);
  expect_geometry(it, {4, 3}, {4, 16}, {-4, 16});
  assert_true(it.data_ptr(0) == out_base.data());
  assert_true(it.data_ptr(1) == byte_at(in, 3));
  fill_iota_int32(in);
  expect_copy_matches_reference(it, out, in);
}

static void scalar_iterates_once(void**) {
  Tensor out = contiguous_tensor({}, F32), in = contiguous_tensor({}, F32);
  TensorIterator it = copy_iter(out, in);
  assert_int_equal(it.ndim(), 0);
  assert_int_equal(it.numel(), 1);
  assert_true(it.is_contiguous());
  int calls = 0;
  it.for_each([&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
    ++calls;
    assert_true(data[0] == out.data() && data[1] == in.data());
    assert_int_equal(n0, 1);
    assert_int_equal(n1, 1);
    assert_int_equal(strides[0], 0);
    assert_int_equal(strides[3], 0);
  });
  assert_int_equal(calls, 1);
}

static void empty_tensors_never_call_the_loop(void**) {
  Tensor out = contiguous_tensor({3, 0, 2}, F32), in = st::transpose(contiguous_tensor({2, 0, 3}, F32), 0, 2);
  TensorIterator it = copy_iter(out, in);
  assert_int_equal(it.numel(), 0);
  it.for_each([&](char**, const int64_t*, int64_t, int64_t) { fail(); });
  it.serial_for_each([&](char**, const int64_t*, int64_t, int64_t) { fail(); }, st::Range{0, 0});
}

static void serial_for_each_steps_in_2d_blocks(void**) {
  // Shape (3, 4, 2), range [5, 20): the rest of a row, whole rows of the
  // first plane, whole rows of the second, then the start of a row. One
  // operand whose byte offset is the linear index.
  st::Geometry g;
  g.noperands = 1;
  g.shape = DimVector{3, 4, 2};
  g.strides[0] = DimVector{1, 3, 12};
  char base[24];
  g.data[0] = base;
  const int64_t want[][3] = {{5, 1, 1}, {6, 3, 2}, {12, 3, 2}, {18, 2, 1}};  // offset, n0, n1
  int n = 0;
  st::serial_for_each(
      g,
      [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
        assert_true(n < 4);
        assert_int_equal(data[0] - base, want[n][0]);
        assert_int_equal(n0, want[n][1]);
        assert_int_equal(n1, want[n][2]);
        assert_int_equal(strides[0], 1);
        assert_int_equal(strides[1], 3);
        ++n;
      },
      st::Range{5, 20});
  assert_int_equal(n, 4);
}

static void serial_for_each_runs_exactly_its_range(void**) {
  // A transposed input keeps 2 dims; mark which output elements a sub-range writes.
  Tensor out = contiguous_tensor({5, 7}, F32), in = st::transpose(contiguous_tensor({7, 5}, F32), 0, 1);
  TensorIterator it = copy_iter(out, in);
  assert_int_equal(it.ndim(), 2);
  std::vector<int> hits(35, 0);
  auto* base = static_cast<char*>(out.data());
  it.serial_for_each(
      [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
        for (int64_t j = 0; j < n1; ++j)
          for (int64_t i = 0; i < n0; ++i) ++hits[(data[0] + (i * strides[0] + j * strides[2]) - base) / 4];
      },
      st::Range{3, 29});
  // Iteration index k is output element (k % 7 along dim 1, k / 7 along dim 0): row-major here.
  for (int e = 0; e < 35; ++e) assert_int_equal(hits[e], (e >= 3 && e < 29) ? 1 : 0);
}

static void fill_walks_broadcast_dims_once(void**) {
  // (3, 4) expanded from (3, 1): each of the 3 addresses once.
  Tensor base = contiguous_tensor({3, 1}, F32);
  TensorIterator it = TensorIterator::fill(st::expand(base, {3, 4}));
  assert_int_equal(it.ntensors(), 1);
  expect_dims(it.shape(), {3}, "shape");
  expect_dims(it.strides(0), {4}, "strides(0)");
  assert_true(it.data_ptr(0) == base.data());
  assert_true(it.dtype(0) == F32);
  // A flipped, stepped view is walked forwards in memory order.
  Tensor wide = contiguous_tensor({4, 7}, F32);
  TensorIterator flipped = TensorIterator::fill(st::flip(st::slice(wide, 1, 0, 6, 2), 0));
  expect_dims(flipped.shape(), {3, 4}, "shape");
  expect_dims(flipped.strides(0), {8, 28}, "strides(0)");
  assert_true(flipped.data_ptr(0) == wide.data());
}

static void scaled_copy_values_follow_their_dim(void**) {
  // dst (2, 3, 5), src NHWC-like: (2, 5, 3) permuted to (2, 3, 5). Channel
  // dim 1 (3 values): scales stride 4 bytes along it, 0 elsewhere.
  Tensor dst = contiguous_tensor({2, 3, 5}, F32);
  Tensor src = st::permute(contiguous_tensor({2, 5, 3}, F32), {0, 2, 1});
  const std::vector<float> values{1, 2, 3, 10, 20, 30};
  st::ScaleShift ss;
  ss.dim = 1;
  ss.n = 3;
  TensorIterator it = TensorIterator::scaled_copy(dst, src, ss, values.data());
  assert_int_equal(it.ntensors(), 4);
  expect_dims(it.shape(), {5, 3, 2}, "shape");
  expect_dims(it.strides(1), {12, 4, 60}, "strides(1)");
  expect_dims(it.strides(2), {0, 4, 0}, "strides(2)");
  expect_dims(it.strides(3), {0, 4, 0}, "strides(3)");
  assert_true(it.data_ptr(2) == reinterpret_cast<const char*>(values.data()));
  assert_true(it.data_ptr(3) == reinterpret_cast<const char*>(values.data() + 3));
  assert_true(it.dtype(3) == F32);
  // One value for every element rides along the one-dim shortcut.
  ss.dim = -1;
  ss.n = 1;
  TensorIterator flat = TensorIterator::scaled_copy(dst, contiguous_tensor({2, 3, 5}, F32), ss, values.data());
  expect_dims(flat.shape(), {30}, "shape");
  expect_dims(flat.strides(2), {0}, "strides(2)");
  assert_true(flat.data_ptr(3) == reinterpret_cast<const char*>(values.data() + 1));
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contiguous_pair_coalesces_to_one_dim),
      cmocka_unit_test(different_itemsizes_keep_their_own_strides),
      cmocka_unit_test(transposed_input_gives_two_dims),
      cmocka_unit_test(transposed_output_decides_the_order),
      cmocka_unit_test(channels_last_input_into_contiguous_output),
      cmocka_unit_test(shared_dense_layouts_take_the_fast_set_up),
      cmocka_unit_test(size_one_dims_never_block_coalescing),
      cmocka_unit_test(broadcast_dims_get_stride_zero),
      cmocka_unit_test(inputs_break_ties_the_output_leaves),
      cmocka_unit_test(flipped_input_walks_backwards),
      cmocka_unit_test(fully_flipped_input_coalesces),
      cmocka_unit_test(flipped_pair_iterates_in_memory_order),
      cmocka_unit_test(flipped_output_decides_the_direction),
      cmocka_unit_test(scalar_iterates_once),
      cmocka_unit_test(empty_tensors_never_call_the_loop),
      cmocka_unit_test(serial_for_each_steps_in_2d_blocks),
      cmocka_unit_test(serial_for_each_runs_exactly_its_range),
      cmocka_unit_test(fill_walks_broadcast_dims_once),
      cmocka_unit_test(scaled_copy_values_follow_their_dim),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
