// Small copies through the CPU copy kernel: every dtype pair in every kind
// of small layout — transposes, permutations, broadcasts, flips, stepped
// slices with gaps, size-1 dims, 0-d — against a reference multi-index
// walk, over the TensorIterator's geometry. Bytes of dst outside its
// elements must stay as they were. Set ST_TEST_SEED to replay the random contents.
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "core/numeric/convert.h"
#include "core/numeric/dtype_dispatch.h"
#include "cpu/copy_kernel.h"
#include "cpu/levels/element_access.h"
#include "iter_testing.h"
#include "test_seed.h"

using namespace testing;
using st::InlineVector;

namespace {

// One layout of a small tensor: a view of a fresh storage with spare bytes
// around it.
using MakeView = std::function<Tensor(ScalarType)>;

Tensor base_tensor(const DimVector& sizes, ScalarType dtype) { return contiguous_tensor(sizes, dtype); }

struct LayoutCase {
  const char* name;
  MakeView dst;
  MakeView src;
};

InlineVector<int32_t> dims_of(std::initializer_list<int32_t> d) {
  InlineVector<int32_t> v;
  for (int32_t x : d) v.push_back(x);
  return v;
}

std::vector<LayoutCase> layout_cases() {
  std::vector<LayoutCase> cases;
  auto contiguous = [](DimVector sizes) { return [sizes](ScalarType t) { return base_tensor(sizes, t); }; };
  auto transposed = [](DimVector sizes) {  // sizes of the view; the storage holds the transpose
    return [sizes](ScalarType t) {
      DimVector base = sizes;
      std::swap(base[0], base[base.size() - 1]);
      return st::transpose(base_tensor(base, t), 0, base.size() - 1);
    };
  };
  cases.push_back({"4x4 transposed into contiguous", contiguous({4, 4}), transposed({4, 4})});
  cases.push_back({"4x4 contiguous into contiguous", contiguous({4, 4}), contiguous({4, 4})});
  cases.push_back({"4x4 contiguous into transposed", transposed({4, 4}), contiguous({4, 4})});
  cases.push_back({"3x5 transposed into contiguous", contiguous({3, 5}), transposed({3, 5})});
  cases.push_back({"row broadcast", contiguous({3, 4}), contiguous({4})});
  cases.push_back({"column broadcast", contiguous({3, 4}), contiguous({3, 1})});
  cases.push_back({"expanded source", contiguous({2, 3, 4}), [](ScalarType t) {
                     return st::expand(base_tensor({1, 3, 1}, t), DimVector{2, 3, 4});
                   }});
  cases.push_back({"flipped source", contiguous({4, 3}), [](ScalarType t) {
                     return st::flip(st::flip(base_tensor({4, 3}, t), 0), 1);
                   }});
  cases.push_back({"stepped slices on both sides, with gaps",
                   [](ScalarType t) { return st::slice(st::slice(base_tensor({5, 9}, t), 1, 1, 9, 3), 0, 0, 5, 2); },
                   [](ScalarType t) { return st::slice(base_tensor({3, 7}, t), 1, 1, 7, 2); }});
  cases.push_back({"flipped, stepped destination", [](ScalarType t) {
                     return st::flip(st::slice(base_tensor({3, 8}, t), 1, 0, 8, 2), 1);
                   },
                   transposed({3, 4})});
  cases.push_back({"3-d permutation", contiguous({2, 3, 4}), [](ScalarType t) {
                     return st::permute(base_tensor({4, 2, 3}, t), dims_of({1, 2, 0}));
                   }});
  cases.push_back({"4 dims, none mergeable", contiguous({2, 2, 2, 2}), [](ScalarType t) {
                     return st::permute(base_tensor({2, 2, 2, 2}, t), dims_of({3, 0, 2, 1}));
                   }});
  cases.push_back({"size-1 dims around 3 real ones", contiguous({2, 1, 3, 1, 2}), [](ScalarType t) {
                     return st::permute(base_tensor({2, 1, 1, 3, 2}, t), dims_of({4, 2, 3, 1, 0}));
                   }});
  cases.push_back({"6 dims that merge into 2", contiguous({1, 2, 1, 2, 2, 3}), [](ScalarType t) {
                     return st::transpose(base_tensor({3, 2, 1, 2, 2, 1}, t), 0, 5);
                   }});
  cases.push_back({"0-d", contiguous({}), contiguous({})});
  cases.push_back({"one element, 0-d source", contiguous({1, 1}), contiguous({})});
  cases.push_back({"channels-last", contiguous({1, 3, 2, 2}), [](ScalarType t) {
                     return st::permute(base_tensor({1, 2, 2, 3}, t), dims_of({0, 3, 1, 2}));
                   }});
  cases.push_back({"256 elements", contiguous({16, 16}), transposed({16, 16})});
  return cases;
}

// dst element ← src element, converted as every copy kernel converts (the
// conversion rules themselves are test_convert's subject).
void convert_element(ScalarType dt, ScalarType st_, char* d, const char* s) {
  if (dt == st_) {
    std::memcpy(d, s, st::itemsize(dt));
    return;
  }
  ST_DISPATCH_PAIR(dt, st_, "test", [&] { st::cpu::store<dst_t>(d, st::convert<dst_t>(st::cpu::load<src_t>(s))); });
}

// What dst's storage holds after dst[...] = src: a row-major walk over dst's
// multi-indices, src broadcast from the right.
std::vector<unsigned char> expected_after(const Tensor& dst, const Tensor& src, std::vector<unsigned char> bytes) {
  if (dst.numel() == 0) return bytes;
  const int nd = dst.ndim(), lead = nd - src.ndim();
  std::vector<int64_t> idx(nd + 1, 0), sidx(src.ndim() + 1, 0);
  const int64_t base = dst.storage_offset() * static_cast<int64_t>(dst.itemsize());
  for (;;) {
    for (int j = 0; j < src.ndim(); ++j) sidx[j] = src.size(j) == 1 ? 0 : idx[j + lead];
    convert_element(dst.dtype(), src.dtype(), reinterpret_cast<char*>(&bytes[base + element_offset(dst, idx.data())]),
                    static_cast<const char*>(src.data()) + element_offset(src, sidx.data()));
    int d = nd - 1;
    while (d >= 0 && ++idx[d] == dst.size(d)) idx[d--] = 0;
    if (d < 0) break;
  }
  return bytes;
}

}  // namespace

static void every_dtype_pair_in_every_small_layout_matches_the_reference(void**) {
  std::mt19937_64 rng(test_seed("small copies every pair"));
  int checked = 0;
  for (const LayoutCase& c : layout_cases()) {
    for (const st::DTypeInfo& dinfo : st::kDTypes) {
      for (const st::DTypeInfo& sinfo : st::kDTypes) {
        const ScalarType dt = dinfo.type, st_ = sinfo.type;
        if (!st::converts(dt, st_)) continue;  // float4_e2m1fn_x2 copies only to itself
        const Tensor src = c.src(st_);
        fill_random_bytes(src, rng);
        const Tensor dst = c.dst(dt);
        fill_random_bytes(dst, rng);
        const std::vector<unsigned char> before = snapshot(dst);

        st::cpu::copy_kernel(st::TensorIterator::copy(dst, src).geometry(), dt, st_);
        if (snapshot(dst) != expected_after(dst, src, before)) {
          print_error("%s, %s <- %s: differs from the reference walk\n", c.name, dinfo.name, sinfo.name);
          fail();
        }
        ++checked;
      }
    }
  }
  // Every pair but float4_e2m1fn_x2's with the 20 others, both ways.
  assert_int_equal(checked, static_cast<int>(layout_cases().size()) *
                                (st::kNumScalarTypes * st::kNumScalarTypes - 2 * (st::kNumScalarTypes - 1)));
}

static void a_known_transpose_lands_where_it_should(void**) {
  // Hand-computed: the transpose of [[0, 1, 2], [3, 4, 5]] is [[0, 3], [1, 4], [2, 5]].
  const Tensor src_base = contiguous_tensor({2, 3}, ScalarType::Int32);
  fill_iota_int32(src_base);
  const Tensor dst = contiguous_tensor({3, 2}, ScalarType::Float64);
  const Tensor src = st::transpose(src_base, 0, 1);
  st::cpu::copy_kernel(st::TensorIterator::copy(dst, src).geometry(), dst.dtype(), src.dtype());
  const double* d = static_cast<const double*>(dst.data());
  const double expected[] = {0, 3, 1, 4, 2, 5};
  for (int i = 0; i < 6; ++i) assert_true(d[i] == expected[i]);
}

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_dtype_pair_in_every_small_layout_matches_the_reference),
      cmocka_unit_test(a_known_transpose_lands_where_it_should),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
