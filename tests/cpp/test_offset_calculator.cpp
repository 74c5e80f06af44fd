// OffsetCalculator against a reference walk (dim 0 fastest) over random
// shapes shared by 1 to 3 operands with independent byte strides.
#include <cstdint>
#include <random>
#include <vector>

#include "core/error.h"
#include "cuda/kernels/offset_calculator.h"
#include "layout_reference.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using st::cuda::OffsetCalculator;

namespace {

template <int NARGS, typename IndexType>
bool check_shape(const std::vector<int64_t>& sizes, const std::vector<Layout>& operands) {
  const int dims = static_cast<int>(sizes.size());
  const int64_t* strides[NARGS];
  std::vector<std::vector<int64_t>> want;
  for (int a = 0; a < NARGS; ++a) {
    strides[a] = operands[static_cast<size_t>(a)].strides.data();
    want.push_back(reference_offsets(operands[static_cast<size_t>(a)], /*first_fastest=*/true));
  }
  const OffsetCalculator<NARGS, IndexType> calc(dims, sizes.data(), strides);
  for (size_t k = 0; k < want[0].size(); ++k) {
    const auto got = calc.get(static_cast<IndexType>(k));
    for (int a = 0; a < NARGS; ++a) {
      if (got[a] != want[static_cast<size_t>(a)][k]) {
        print_error("operand %d of %d, %s, %d-bit: element %zu at byte offset %lld, expected %lld\n", a, NARGS,
                    operands[static_cast<size_t>(a)].str().c_str(), static_cast<int>(8 * sizeof(IndexType)), k,
                    static_cast<long long>(got[a]), static_cast<long long>(want[static_cast<size_t>(a)][k]));
        return false;
      }
    }
  }
  return true;
}

// Every offset of the layout and its element count fit int32 (what
// TensorIterator::can_use_32bit_indexing asks before a 32-bit launch).
bool fits_int32(const Layout& l) {
  int64_t lo = 0, hi = 0, reach;
  for (size_t d = 0; d < l.sizes.size(); ++d) {
    if (__builtin_mul_overflow(l.sizes[d] - 1, l.strides[d], &reach) ||
        __builtin_add_overflow(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi))
      return false;
  }
  return l.numel() <= INT32_MAX && lo >= INT32_MIN && hi <= INT32_MAX;
}

// Byte strides of `ndim` dims for operands of 1 to 16-byte elements.
template <int NARGS>
bool check_random_shape(std::mt19937_64& rng, int ndim) {
  Layout base = random_layout(rng, ndim, 4096);
  for (int64_t& s : base.sizes) s = std::max<int64_t>(s, 1);  // an empty iteration launches no kernel
  std::vector<Layout> operands;
  for (int a = 0; a < NARGS; ++a) {
    Layout op = random_strides(rng, base.sizes);
    const int64_t itemsize = int64_t{1} << (rng() % 5);
    for (int64_t& s : op.strides) s *= itemsize;
    operands.push_back(op);
  }
  // 32-bit indexing where every operand allows it, as the kernels choose.
  bool fits = true;
  for (const Layout& op : operands) fits = fits && fits_int32(op);
  return (!fits || check_shape<NARGS, uint32_t>(base.sizes, operands)) && check_shape<NARGS, uint64_t>(base.sizes, operands);
}

void random_shapes_and_strides(void**) {
  std::mt19937_64 rng(test_seed("random_shapes_and_strides"));
  for (int i = 0; i < 2000; ++i) {
    const int ndim = static_cast<int>(rng() % 7);
    if (!check_random_shape<1>(rng, ndim) || !check_random_shape<2>(rng, ndim) || !check_random_shape<3>(rng, ndim))
      fail();
  }
  for (int i = 0; i < 50; ++i) {
    if (!check_random_shape<2>(rng, st::cuda::kMaxOffsetDims)) fail();
  }
  std::printf("random_shapes_and_strides: 6050 shapes\n");
}

// A (3, 2) float32 tensor, dim 0 fastest: dst row-major, src transposed.
void hand_case(void**) {
  const int64_t sizes[2] = {3, 2};
  const int64_t dst[2] = {4, 12}, src[2] = {8, 4};
  const int64_t* strides[2] = {dst, src};
  const OffsetCalculator<2> calc(2, sizes, strides);
  const int64_t want_dst[6] = {0, 4, 8, 12, 16, 20}, want_src[6] = {0, 8, 16, 4, 12, 20};
  for (uint32_t k = 0; k < 6; ++k) {
    assert_int_equal(calc.get(k)[0], want_dst[k]);
    assert_int_equal(calc.get(k)[1], want_src[k]);
  }
}

// Note [Wrapping offsets]: byte offsets reach ±(2^31 - 1) in 32 bits.
void offsets_at_the_ends_of_int32(void**) {
  const int64_t sizes[2] = {2, 2};
  const int64_t a[2] = {INT32_MAX, -INT32_MAX};
  const int64_t* strides[1] = {a};
  const OffsetCalculator<1> calc(2, sizes, strides);
  const int64_t want[4] = {0, INT32_MAX, -INT32_MAX, 0};
  for (uint32_t k = 0; k < 4; ++k) assert_int_equal(calc.get(k)[0], want[k]);
}

// A dim of size 1 never moves, so its stride need not fit the offset type.
void size_one_dims_take_any_stride(void**) {
  const int64_t sizes[3] = {2, 1, 3};
  const int64_t a[3] = {4, int64_t{1} << 40, 8};
  const int64_t* strides[1] = {a};
  const OffsetCalculator<1> calc(3, sizes, strides);
  const int64_t want[6] = {0, 4, 8, 12, 16, 20};
  for (uint32_t k = 0; k < 6; ++k) assert_int_equal(calc.get(k)[0], want[k]);
}

void scalar_has_offset_zero(void**) {
  const OffsetCalculator<2> calc(0, nullptr, nullptr);
  assert_int_equal(calc.get(0)[0], 0);
  assert_int_equal(calc.get(0)[1], 0);
}

void refuses_what_does_not_fit(void**) {
  const int64_t zero[1] = {0}, big[1] = {int64_t{1} << 32}, one[1] = {1}, two[1] = {2}, wide[1] = {int64_t{1} << 31};
  const int64_t* unit[1] = {one};
  const int64_t* wide_stride[1] = {wide};
  const int64_t many[26] = {}, many_strides[26] = {};
  const int64_t* many_ptr[1] = {many_strides};
  for (int which = 0; which < 4; ++which) {
    bool threw = false;
    try {
      if (which == 0) OffsetCalculator<1>(1, zero, unit);         // size 0
      if (which == 1) OffsetCalculator<1>(1, big, unit);          // size 2^32
      if (which == 2) OffsetCalculator<1>(1, two, wide_stride);   // stride 2^31
      if (which == 3) OffsetCalculator<1, uint64_t>(26, many, many_ptr);
    } catch (const st::Error& e) {
      threw = e.code() == ST_ERROR_INTERNAL;
    }
    assert_true(threw);
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_shapes_and_strides), cmocka_unit_test(hand_case),
      cmocka_unit_test(offsets_at_the_ends_of_int32), cmocka_unit_test(size_one_dims_take_any_stride),
      cmocka_unit_test(scalar_has_offset_zero),
      cmocka_unit_test(refuses_what_does_not_fit),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
