// with_32bit_indexing under a lowered limit: the parts cover every element
// exactly once, each fits the limit, and copying part by part gives the
// reference result.
#include "core/dims.h"
#include "iter_testing.h"

using namespace testing;
using st::TensorIterator;

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
  TensorIterator it = TensorIterator::copy(out, in);
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
  TensorIterator it = TensorIterator::copy(out, in);
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
  TensorIterator it = TensorIterator::copy(out, in);
  const std::vector<unsigned char> expected = expected_after_copy(out, in, snapshot(out));
  int parts = 0;
  std::vector<int> hits;
  copy_in_parts(it, out, 50, &parts, &hits);
  assert_true(parts >= 9 * 4 * 11 * 8 / 50);
  expect_each_element_once(out, hits);
  assert_true(snapshot(out) == expected);
}

static void split_halves_the_widest_dim_and_coalesces(void**) {
  // int32 (2, 3) <- a transposed (3, 2): shape (3, 2), dst strides (4, 12),
  // src strides (8, 4); 21 bytes of reach each, so a limit of 12 splits.
  Tensor out = contiguous_tensor({2, 3}, ScalarType::Int32),
         in = st::transpose(contiguous_tensor({3, 2}, ScalarType::Int32), 0, 1);
  const char* o = static_cast<const char*>(out.data());
  const char* i = static_cast<const char*>(in.data());
  // dim 0 first (src's extent 16 beats dst's 12 along dim 1): [0, 1) is one
  // row of 2 that still reaches 13 bytes and splits again, [1, 3) splits
  // along dim 1; a narrowed dim of size 1 merges away.
  struct Part {
    int64_t size, out_stride, in_stride, out_at, in_at;
  };
  const Part want[] = {{1, 0, 0, 0, 0}, {1, 0, 0, 12, 4}, {2, 4, 8, 4, 8}, {2, 4, 8, 16, 12}};
  int n = 0;
  TensorIterator::copy(out, in).with_32bit_indexing(
      [&](const TensorIterator& part) {
        assert_true(n < 4);
        const Part& w = want[n++];
        assert_int_equal(part.ndim(), 1);
        assert_int_equal(part.shape()[0], w.size);
        if (w.size > 1) {
          assert_int_equal(part.strides(0)[0], w.out_stride);
          assert_int_equal(part.strides(1)[0], w.in_stride);
        }
        assert_true(part.data_ptr(0) == o + w.out_at);
        assert_true(part.data_ptr(1) == i + w.in_at);
      },
      12);
  assert_int_equal(n, 4);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fitting_iterators_are_not_split),
      cmocka_unit_test(split_parts_cover_each_element_once),
      cmocka_unit_test(split_handles_broadcast_inputs),
      cmocka_unit_test(split_halves_the_widest_dim_and_coalesces),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
