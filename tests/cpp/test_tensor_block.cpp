// Small CPU tensors in one allocation (core/tensor_block.h): the data is
// 64-byte aligned and sized as any other storage, views keep the block
// alive after the tensor that made it is gone, an installed st_allocator
// still serves every tensor, and the DimVector copies the metadata needs
// keep every dim.
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/contiguity.h"
#include "core/empty.h"
#include "core/runtime/allocator.h"
#include "core/tensor_block.h"
#include "core/views.h"
// cmocka last: its fail() macro would rewrite st::fail in the headers above.
#include "../c/portable.h"
#include "cmocka_cxx.h"

using namespace st;

namespace {

Tensor empty_contiguous(const DimVector& sizes, ScalarType dtype) {
  return empty_cpu(sizes, contiguous_strides(sizes), dtype);
}

struct CountingAllocator {
  int allocs = 0;
  int frees = 0;
};

void* counting_alloc(void* ctx, size_t nbytes, size_t alignment) {
  ++static_cast<CountingAllocator*>(ctx)->allocs;
  return test_aligned_alloc(alignment, nbytes);
}

void counting_free(void* ctx, void* ptr, size_t) {
  ++static_cast<CountingAllocator*>(ctx)->frees;
  test_aligned_free(ptr);
}

}  // namespace

static void small_tensors_of_every_dtype_have_aligned_data_of_their_size(void**) {
  const DimVector shapes[] = {{1}, {4, 4}, {2, 3}, {1, 1, 1}, {5}};
  for (const DTypeInfo& row : kDTypes) {
    const ScalarType dtype = row.type;
    for (const DimVector& sizes : shapes) {
      const Tensor t = empty_contiguous(sizes, dtype);
      const size_t nbytes = static_cast<size_t>(t.numel()) * itemsize(dtype);
      assert_true(fits_tensor_block(nbytes));
      assert_int_equal(t.storage()->nbytes(), nbytes);
      assert_non_null(t.data());
      assert_int_equal(reinterpret_cast<uintptr_t>(t.data()) % kCpuAlignment, 0);
      assert_true(t.storage()->base() == t.data());
      assert_true(t.is_contiguous());
      // Every byte is the tensor's to write (ASan checks the bounds).
      std::memset(t.data(), 0xab, nbytes);
    }
  }
}

static void strided_small_tensors_span_what_their_strides_reach(void**) {
  // sizes (2, 3) with strides (1, 4): elements up to 1 + 2·4 = 9 of float64.
  const Tensor t = empty_cpu(DimVector{2, 3}, DimVector{1, 4}, ScalarType::Float64);
  assert_int_equal(t.storage()->nbytes(), 10 * 8);
  assert_false(t.is_contiguous());
  std::memset(t.data(), 0, 10 * 8);
}

static void a_view_keeps_the_block_alive(void**) {
  Tensor t = empty_contiguous({4, 4}, ScalarType::Int32);
  int32_t* p = static_cast<int32_t*>(t.data());
  for (int i = 0; i < 16; ++i) p[i] = i;
  const Tensor v = transpose(t, 0, 1);
  t = Tensor();  // the TensorImpl inside the block is gone; the view holds the storage
  const int32_t* q = static_cast<const int32_t*>(v.data());
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) assert_int_equal(q[i * v.stride(0) + j * v.stride(1)], j * 4 + i);
  }
}

static void larger_and_empty_tensors_take_the_ordinary_path(void**) {
  assert_false(fits_tensor_block(0));
  assert_false(fits_tensor_block(kTensorBlockMaxBytes + 1));
  const Tensor big = empty_contiguous({kTensorBlockMaxBytes + 1}, ScalarType::UInt8);
  assert_int_equal(reinterpret_cast<uintptr_t>(big.data()) % kCpuAlignment, 0);
  std::memset(big.data(), 1, kTensorBlockMaxBytes + 1);
  const Tensor empty = empty_contiguous({3, 0}, ScalarType::Float32);
  assert_null(empty.data());
  assert_int_equal(empty.storage()->nbytes(), 0);
}

static void an_installed_allocator_serves_small_tensors_too(void**) {
  CountingAllocator counts;
  const st_allocator a = {&counting_alloc, &counting_free, &counts};
  set_cpu_allocator(&a);
  assert_false(fits_tensor_block(64));
  {
    const Tensor t = empty_contiguous({4, 4}, ScalarType::Float32);
    assert_int_equal(counts.allocs, 1);
    std::memset(t.data(), 0, 64);
  }
  assert_int_equal(counts.frees, 1);
  set_cpu_allocator(nullptr);
  assert_true(fits_tensor_block(64));
  const Tensor t = empty_contiguous({4, 4}, ScalarType::Float32);
  assert_int_equal(counts.allocs, 1);
}

static void dim_vector_copies_keep_every_dim(void**) {
  for (int n = 0; n <= kMaxDims; ++n) {
    DimVector a;
    for (int i = 0; i < n; ++i) a.push_back(1000 + i);
    const DimVector b = a;  // copy construction
    DimVector c(3, 7);
    c = a;  // copy assignment over a vector of another size
    DimVector& self = c;
    c = self;  // self-assignment changes nothing
    assert_int_equal(b.size(), n);
    assert_int_equal(c.size(), n);
    for (int i = 0; i < n; ++i) {
      assert_int_equal(b[i], 1000 + i);
      assert_int_equal(c[i], 1000 + i);
    }
  }
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(small_tensors_of_every_dtype_have_aligned_data_of_their_size),
      cmocka_unit_test(strided_small_tensors_span_what_their_strides_reach),
      cmocka_unit_test(a_view_keeps_the_block_alive),
      cmocka_unit_test(larger_and_empty_tensors_take_the_ordinary_path),
      cmocka_unit_test(an_installed_allocator_serves_small_tensors_too),
      cmocka_unit_test(dim_vector_copies_keep_every_dim),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
