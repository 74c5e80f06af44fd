// TensorIterator on hand-computed cases: the dims and byte strides after
// reordering and coalescing, outputs allocated in the inputs' layout,
// flipped views, the 2-d blocks of serial_for_each, and every build error.
#include "core/storage.h"
#include "iter_testing.h"

using namespace testing;
using st::TensorIterator;
using st::TensorIteratorConfig;

namespace {

const ScalarType F32 = ScalarType::Float32;

TensorIterator copy_iter(const Tensor& out, const Tensor& in) {
  return TensorIteratorConfig().add_output(out, "dst").add_input(in, "src").resize_outputs(false).build();
}

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

// A CUDA tensor without elements: enough to test device checks on a machine without a GPU.
Tensor fake_cuda_tensor(const DimVector& sizes) {
  st::Storage storage = st::Storage::make(nullptr, 0, st::Device{st::DeviceType::CUDA, 0}, st::MemoryRelease{});
  return Tensor::make(storage, sizes, st::contiguous_strides(sizes), 0, F32);
}

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
  assert_true(it.is_trivial_1d());
  assert_true(it.data_ptr(0) == out.data());
  assert_true(it.data_ptr(1) == in.data());
  assert_int_equal(it.ntensors(), 2);
  assert_int_equal(it.noutputs(), 1);
  assert_int_equal(it.ninputs(), 1);
}

static void different_itemsizes_keep_their_own_strides(void**) {
  Tensor out = contiguous_tensor({2, 3}, ScalarType::Float64), in = contiguous_tensor({2, 3}, ScalarType::Int16);
  TensorIterator it = TensorIteratorConfig().add_output(out).add_input(in).check_all_same_dtype(false).build();
  expect_geometry(it, {6}, {8}, {2});
  assert_int_equal(it.element_size(0), 8);
  assert_int_equal(it.element_size(1), 2);
  assert_true(it.dtype(1) == ScalarType::Int16);
  assert_true(it.has_contiguous_first_dim());
}

static void transposed_input_gives_two_dims(void**) {
  // in = (4, 3) contiguous, transposed to (3, 4) with strides (1, 3).
  Tensor out = contiguous_tensor({3, 4}, F32), in = st::transpose(contiguous_tensor({4, 3}, F32), 0, 1);
  TensorIterator it = copy_iter(out, in);
  // The output decides: its last dim (size 4) moves fastest.
  expect_geometry(it, {4, 3}, {4, 16}, {12, 4});
  assert_false(it.has_contiguous_first_dim());
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
  TensorIterator it =
      TensorIteratorConfig().add_output(out).add_input(in).resize_outputs(false).check_mem_overlap(false).build();
  expect_geometry(it, {3, 4}, {4, 0}, {4, 12});
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

static void undefined_output_takes_the_input_layout(void**) {
  Tensor in = st::transpose(contiguous_tensor({4, 3}, F32), 0, 1);  // (3, 4), strides (1, 3)
  TensorIterator it = TensorIteratorConfig().add_output(Tensor()).add_input(in).build();
  const Tensor& out = it.output();
  assert_true(out.defined());
  expect_dims(out.sizes(), {3, 4}, "sizes");
  expect_dims(out.strides(), {1, 3}, "allocated strides");
  assert_true(it.dtype(0) == F32);
  fill_iota_int32(in);
  expect_copy_matches_reference(it, out, in);
}

static void undefined_output_of_flipped_input_is_positive(void**) {
  Tensor in = st::flip(contiguous_tensor({3, 4}, F32), 1);
  TensorIterator it = TensorIteratorConfig().add_output(Tensor()).add_input(in).build();
  expect_dims(it.output().strides(), {4, 1}, "allocated strides");
  Tensor in2 = st::flip(st::transpose(contiguous_tensor({4, 3}, F32), 0, 1), 0);  // strides (-1, 3)
  TensorIterator it2 = TensorIteratorConfig().add_output(Tensor()).add_input(in2).build();
  expect_dims(it2.output().strides(), {1, 3}, "allocated strides");
}

static void undefined_output_fast_paths(void**) {
  Tensor cl = st::permute(contiguous_tensor({2, 4, 5, 3}, F32), {0, 3, 1, 2});
  TensorIterator it = TensorIteratorConfig().add_output(Tensor()).add_input(cl).build();
  expect_dims(it.output().strides(), {60, 1, 15, 3}, "channels-last output");
  TensorIterator it2 = TensorIteratorConfig()
                           .add_output(Tensor())
                           .add_input(contiguous_tensor({3, 1}, F32))
                           .add_input(contiguous_tensor({4}, F32))
                           .build();
  expect_dims(it2.output().sizes(), {3, 4}, "broadcast sizes");
  expect_dims(it2.output().strides(), {4, 1}, "broadcast output");
  TensorIterator it3 = TensorIteratorConfig()
                           .add_output(Tensor())
                           .add_input(contiguous_tensor({2}, ScalarType::Int8))
                           .declare_static_dtype(ScalarType::Float64)
                           .check_all_same_dtype(false)
                           .build();
  assert_true(it3.output().dtype() == ScalarType::Float64);
}

namespace {
int g_allocations = 0;
Tensor recording_allocator(const DimVector& sizes, const DimVector& strides, ScalarType dtype, st::Device device) {
  ++g_allocations;
  assert_true(device.type == st::DeviceType::CUDA);
  return st::empty_cpu(sizes, strides, dtype);
}
}  // namespace

static void outputs_on_other_devices_need_an_allocator(void**) {
  Tensor in = fake_cuda_tensor({0, 3});
  std::string msg;
  assert_int_equal(status_of([&] { TensorIteratorConfig().add_output(Tensor()).add_input(in).build(); }, &msg),
                   ST_ERROR_NOT_IMPLEMENTED);
  expect_contains(msg, "allocate_outputs_with");
  g_allocations = 0;
  TensorIterator it =
      TensorIteratorConfig().add_output(Tensor()).add_input(in).allocate_outputs_with(recording_allocator).build();
  assert_int_equal(g_allocations, 1);
  expect_dims(it.output().sizes(), {0, 3}, "sizes");
  assert_int_equal(it.numel(), 0);
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

static void expanded_output_is_overlap(void**) {
  Tensor out = st::expand(contiguous_tensor({1, 4}, F32), {3, 4});
  std::string msg;
  assert_int_equal(status_of([&] { copy_iter(out, contiguous_tensor({3, 4}, F32)); }, &msg), ST_ERROR_OVERLAP);
  expect_contains(msg, "dst of sizes (3, 4) and strides (0, 1)");
  // Without the check the iterator builds (fill_ writes one value everywhere).
  TensorIteratorConfig().add_output(out).add_input(contiguous_tensor({}, F32)).check_mem_overlap(false).build();
}

static void partial_overlap_between_output_and_input(void**) {
  Tensor base = contiguous_tensor({12}, F32);
  Tensor out = st::slice(base, 0, 0, 6, 1), in = st::slice(base, 0, 3, 9, 1);
  std::string msg;
  assert_int_equal(status_of([&] { copy_iter(out, in); }, &msg), ST_ERROR_OVERLAP);
  expect_contains(msg, "dst (sizes (6), strides (1)) and src (sizes (6), strides (1))");
  TensorIteratorConfig().add_output(out).add_input(in).check_mem_overlap(false).build();
  // The very same elements are fine (an in-place operation).
  copy_iter(out, st::slice(base, 0, 0, 6, 1));
  // Disjoint halves too.
  copy_iter(out, st::slice(base, 0, 6, 12, 1));
}

static void broadcast_errors_name_both_shapes(void**) {
  std::string msg;
  assert_int_equal(status_of(
                       [&] {
                         copy_iter(contiguous_tensor({2, 3}, F32), contiguous_tensor({2, 4}, F32));
                       },
                       &msg),
                   ST_ERROR_SHAPE_MISMATCH);
  expect_contains(msg, "src of sizes (2, 4) cannot be broadcast to dst's sizes (2, 3)");
  expect_contains(msg, "at dim 1 the size is 4, not 3 or 1");
  // Never the reverse: an input with more dims fails even when they are 1.
  assert_int_equal(status_of(
                       [&] {
                         copy_iter(contiguous_tensor({3}, F32), contiguous_tensor({1, 3}, F32));
                       },
                       &msg),
                   ST_ERROR_SHAPE_MISMATCH);
  expect_contains(msg, "src of sizes (1, 3) cannot be broadcast to dst's sizes (3)");
  // Inputs broadcast among themselves when no output gives the shape.
  assert_int_equal(status_of(
                       [&] {
                         TensorIteratorConfig()
                             .add_output(Tensor())
                             .add_input(contiguous_tensor({2, 3}, F32))
                             .add_input(contiguous_tensor({4, 3}, F32))
                             .build();
                       },
                       &msg),
                   ST_ERROR_SHAPE_MISMATCH);
  expect_contains(msg, "input 1 of sizes (4, 3) cannot be broadcast with sizes (2, 3)");
  expect_contains(msg, "at dim 0 the sizes are 4 and 2");
  // Two outputs of different shapes.
  assert_int_equal(status_of(
                       [&] {
                         TensorIteratorConfig()
                             .add_output(contiguous_tensor({2}, F32))
                             .add_output(contiguous_tensor({3}, F32))
                             .build();
                       },
                       &msg),
                   ST_ERROR_SHAPE_MISMATCH);
  expect_contains(msg, "output 1 has sizes (3) but output 0 has sizes (2)");
}

static void dtype_and_device_checks(void**) {
  Tensor f = contiguous_tensor({2}, F32), d = contiguous_tensor({2}, ScalarType::Float64);
  std::string msg;
  assert_int_equal(status_of([&] { TensorIteratorConfig().add_output(f).add_input(d).build(); }, &msg),
                   ST_ERROR_UNSUPPORTED_DTYPE);
  expect_contains(msg, "input 0 has dtype float64 but output 0 has dtype float32");
  TensorIteratorConfig().add_output(f).add_input(d).check_all_same_dtype(false).build();

  Tensor cuda = fake_cuda_tensor({0}), cpu = contiguous_tensor({0}, F32);
  assert_int_equal(status_of([&] { TensorIteratorConfig().add_output(cpu).add_input(cuda).build(); }, &msg),
                   ST_ERROR_INVALID_ARGUMENT);
  expect_contains(msg, "input 0 is on cuda:0 but output 0 is on cpu:0");
  TensorIterator it = TensorIteratorConfig().add_output(cpu).add_input(cuda).check_all_same_device(false).build();
  assert_true(it.device(1).type == st::DeviceType::CUDA);
}

static void undefined_operands_are_refused(void**) {
  std::string msg;
  assert_int_equal(status_of([&] { copy_iter(Tensor(), contiguous_tensor({2}, F32)); }, &msg),
                   ST_ERROR_INVALID_ARGUMENT);
  expect_contains(msg, "dst is undefined, but its shape is fixed");
  assert_int_equal(status_of([&] { copy_iter(contiguous_tensor({2}, F32), Tensor()); }, &msg),
                   ST_ERROR_INVALID_ARGUMENT);
  expect_contains(msg, "src is undefined");
  assert_int_equal(
      status_of([&] { TensorIteratorConfig().add_input(contiguous_tensor({2}, F32)).add_output(Tensor()); }, &msg),
      ST_ERROR_INTERNAL);
  expect_contains(msg, "add every output before the inputs");
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
      cmocka_unit_test(undefined_output_takes_the_input_layout),
      cmocka_unit_test(undefined_output_of_flipped_input_is_positive),
      cmocka_unit_test(undefined_output_fast_paths),
      cmocka_unit_test(outputs_on_other_devices_need_an_allocator),
      cmocka_unit_test(scalar_iterates_once),
      cmocka_unit_test(empty_tensors_never_call_the_loop),
      cmocka_unit_test(serial_for_each_steps_in_2d_blocks),
      cmocka_unit_test(serial_for_each_runs_exactly_its_range),
      cmocka_unit_test(expanded_output_is_overlap),
      cmocka_unit_test(partial_overlap_between_output_and_input),
      cmocka_unit_test(broadcast_errors_name_both_shapes),
      cmocka_unit_test(dtype_and_device_checks),
      cmocka_unit_test(undefined_operands_are_refused),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
