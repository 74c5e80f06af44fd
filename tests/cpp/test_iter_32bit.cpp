// with_32bit_indexing under a lowered limit: the parts cover every element
// exactly once, each fits the limit, and copying part by part gives the
// reference result.
#include "iter_testing.h"

using namespace testing;
using st::TensorIterator;
using st::TensorIteratorConfig;

namespace {

// Copies through every part and counts how often each output element is written.
void copy_in_parts(const TensorIterator& it, const Tensor& out, int64_t limit, int* parts, std::vector<int>* hits) {
  const char* base = static_cast<const char*>(out.storage()->base());
  hits->assign(out.storage()->nbytes() / out.itemsize(), 0);
  *parts = 0;
  it.with_32bit_indexing(
      [&](const TensorIterator& part) {
        ++*parts;
        if (!part.can_use_32bit_indexing(limit)) {
          print_error("part %d of shape %s does not fit %lld bytes\n", *parts, st::format_dims(part.shape()).c_str(),
                      static_cast<long long>(limit));
          fail();
        }
        part.serial_for_each(
            [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
              ByteCopyLoop{out.itemsize()}(data, strides, n0, n1);
              for (int64_t j = 0; j < n1; ++j)
                for (int64_t i = 0; i < n0; ++i)
                  ++(*hits)[(data[0] + (i * strides[0] + j * strides[2]) - base) / out.itemsize()];
            },
            st::Range{0, part.numel()});
      },
      limit);
}

void expect_each_element_once(const Tensor& out, const std::vector<int>& hits) {
  // out is contiguous from the storage start here: element e of the storage is element e of out.
  for (int64_t e = 0; e < static_cast<int64_t>(hits.size()); ++e) {
    if (hits[e] != (e < out.numel() ? 1 : 0)) {
      print_error("element %lld written %d times\n", static_cast<long long>(e), hits[e]);
      fail();
    }
  }
}

}  // namespace

static void fitting_iterators_are_not_split(void**) {
  Tensor out = contiguous_tensor({6, 5, 7}, ScalarType::Int32), in = contiguous_tensor({6, 5, 7}, ScalarType::Int32);
  TensorIterator it = TensorIteratorConfig().add_output(out).add_input(in).build();
  assert_true(it.can_use_32bit_indexing());
  int parts = 0;
  it.with_32bit_indexing([&](const TensorIterator& part) {
    ++parts;
    assert_true(&part == &it);
  });
  assert_int_equal(parts, 1);
  // 210 elements of 4 bytes, one flat dim: 1 + 209 × 4 = 837 (PyTorch's max_offset).
  assert_true(it.can_use_32bit_indexing(837));
  assert_false(it.can_use_32bit_indexing(836));
  assert_false(it.can_use_32bit_indexing(209));  // fewer than numel
}

static void split_parts_cover_each_element_once(void**) {
  // A permuted, flipped input keeps three dims; 64 bytes forces many splits.
  Tensor out = contiguous_tensor({6, 5, 7}, ScalarType::Int32);
  Tensor in = st::flip(st::permute(contiguous_tensor({5, 7, 6}, ScalarType::Int32), {2, 0, 1}), 1);
  fill_iota_int32(in);
  TensorIterator it = TensorIteratorConfig().add_output(out).add_input(in).build();
  assert_int_equal(it.ndim(), 3);
  const std::vector<unsigned char> expected = expected_after_copy(out, in, snapshot(out));
  for (int64_t limit : {64, 100, 333, 4096}) {
    std::fill(storage_bytes(out), storage_bytes(out) + out.storage()->nbytes(), 0);
    int parts = 0;
    std::vector<int> hits;
    copy_in_parts(it, out, limit, &parts, &hits);
    assert_true(limit >= 840 || parts > 1);
    expect_each_element_once(out, hits);
    assert_true(snapshot(out) == expected);
  }
}

static void split_handles_broadcast_inputs(void**) {
  // The input is broadcast along two dims: extents come from the output.
  Tensor out = contiguous_tensor({9, 4, 11}, ScalarType::Float64), in = contiguous_tensor({4, 1}, ScalarType::Float64);
  fill_iota_int32(in);
  TensorIterator it = TensorIteratorConfig().add_output(out).add_input(in).build();
  const std::vector<unsigned char> expected = expected_after_copy(out, in, snapshot(out));
  int parts = 0;
  std::vector<int> hits;
  copy_in_parts(it, out, 50, &parts, &hits);
  assert_true(parts >= 9 * 4 * 11 * 8 / 50);
  expect_each_element_once(out, hits);
  assert_true(snapshot(out) == expected);
}

static void narrow_moves_data_and_coalesces(void**) {
  Tensor out = contiguous_tensor({3, 4}, ScalarType::Float32),
         in = st::transpose(contiguous_tensor({4, 3}, ScalarType::Float32), 0, 1);
  TensorIterator it = TensorIteratorConfig().add_output(out).add_input(in).build();
  // Shape (4, 3): out strides (4, 16), in strides (12, 4). Keep row 2 only.
  it.narrow(1, 2, 1);
  assert_int_equal(it.ndim(), 1);
  assert_int_equal(it.shape()[0], 4);
  assert_true(it.data_ptr(0) == static_cast<char*>(out.data()) + 32);
  assert_true(it.data_ptr(1) == static_cast<char*>(in.data()) + 8);
  assert_int_equal(it.strides(1)[0], 12);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fitting_iterators_are_not_split),
      cmocka_unit_test(split_parts_cover_each_element_once),
      cmocka_unit_test(split_handles_broadcast_inputs),
      cmocka_unit_test(narrow_moves_data_and_coalesces),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
