// The addresses the CUDA kernels compute, on the host: every 32-bit part of
// a TensorIterator (copy, scaled copy, fill) through the OffsetCalculator
// that cuda/kernels/iter_offsets.h builds from it, against a plain loop over the
// tensors' own sizes and strides (row-major multi-indices, broadcast dims
// at index 0), which involves no geometry code. Random layouts (permuted,
// stepped, flipped, expanded, broadcast) under random 32-bit limits, so
// that small tensors split into many parts, and layouts whose byte extent
// passes INT32_MAX, which the real limit splits. Set ST_TEST_SEED to replay.
#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "copy_cases.h"
#include "core/contiguity.h"
#include "core/empty.h"
#include "core/views.h"
#include "cuda/kernels/iter_offsets.h"
#include "iter/tensor_iterator.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using copy_cases::describe;
using copy_cases::pick;

namespace {

// Byte offsets of one element in each operand, from the start of the
// operand's own memory (its storage, or the scale-and-shift values).
using Offsets = std::array<int64_t, 4>;

const char* storage_base(const Tensor& t) { return static_cast<const char*>(t.storage()->base()); }

// The reference: for every element of dst (row-major multi-index), dst's
// and src's byte offsets from their storages, and with `ss` the scale's
// and the shift's from the values (ss.n scales, then ss.n shifts).
std::vector<Offsets> reference_offsets(const Tensor& dst, const Tensor& src, const ScaleShift* ss) {
  std::vector<Offsets> out;
  if (dst.numel() == 0) return out;
  const int nd = dst.ndim(), lead = dst.ndim() - src.ndim();
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  for (;;) {
    Offsets o{};
    o[0] = dst.storage_offset();
    for (int d = 0; d < nd; ++d) o[0] += idx[static_cast<size_t>(d)] * dst.stride(d);
    o[0] *= static_cast<int64_t>(dst.itemsize());
    o[1] = src.storage_offset();
    for (int d = 0; d < src.ndim(); ++d)
      o[1] += (src.size(d) == 1 ? 0 : idx[static_cast<size_t>(d + lead)]) * src.stride(d);
    o[1] *= static_cast<int64_t>(src.itemsize());
    if (ss) {
      const int64_t c = ss->dim >= 0 ? idx[static_cast<size_t>(ss->dim)] : 0;
      o[2] = c * ss->value_size();
      o[3] = (ss->n + c) * ss->value_size();
    }
    out.push_back(o);
    int d = nd - 1;
    while (d >= 0 && ++idx[static_cast<size_t>(d)] == dst.size(d)) idx[static_cast<size_t>(d--)] = 0;
    if (d < 0) break;
  }
  return out;
}

// What the kernels compute: for each part that with_32bit_indexing(limit)
// gives, the OffsetCalculator's offsets added to the part's addresses, as
// byte offsets from `bases`. False when a part does not fit the limit.
template <int N>
bool kernel_offsets(const TensorIterator& it, const char* const* bases, int64_t limit, std::vector<Offsets>* out) {
  bool fits = true;
  if (it.numel() == 0) return true;
  it.with_32bit_indexing(
      [&](const TensorIterator& part) {
        fits = fits && part.can_use_32bit_indexing(limit) && part.numel() <= limit;
        const cuda::OffsetCalculator<N> calc = cuda::make_offset_calculator<N>(part);
        for (uint32_t i = 0; i < static_cast<uint32_t>(part.numel()); ++i) {
          const auto got = calc.get(i);
          Offsets o{};
          for (int k = 0; k < N; ++k) o[static_cast<size_t>(k)] = part.data_ptr(k) + got[k] - bases[k];
          out->push_back(o);
        }
      },
      limit);
  return fits;
}

// The same elements, each once, in any order.
bool same_elements(std::vector<Offsets> got, std::vector<Offsets> want) {
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  return got == want;
}

int64_t random_limit(std::mt19937_64& rng) {
  return pick(rng, 0, 2) == 0 ? TensorIterator::k32BitLimit : pick(rng, 48, 3000);
}

bool check_copy(const Tensor& dst, const Tensor& src, int64_t limit) {
  const char* bases[2] = {storage_base(dst), storage_base(src)};
  std::vector<Offsets> got;
  const bool fits = kernel_offsets<2>(TensorIterator::copy(dst, src), bases, limit, &got);
  if (fits && same_elements(got, reference_offsets(dst, src, nullptr))) return true;
  print_error("copy dst %s <- src %s, limit %lld: %s\n", describe(dst).c_str(), describe(src).c_str(),
              static_cast<long long>(limit), fits ? "other offsets than the reference" : "a part exceeds the limit");
  return false;
}

bool check_scaled_copy(const Tensor& dst, const Tensor& src, const ScaleShift& ss, int64_t limit) {
  const DimVector count{2 * ss.n};
  const Tensor values = empty_cpu(count, contiguous_strides(count), ss.compute);
  const char* v = static_cast<const char*>(values.data());
  const char* bases[4] = {storage_base(dst), storage_base(src), v, v};
  std::vector<Offsets> got;
  const bool fits = kernel_offsets<4>(TensorIterator::scaled_copy(dst, src, ss, v), bases, limit, &got);
  if (fits && same_elements(got, reference_offsets(dst, src, &ss))) return true;
  print_error("scaled copy dst %s <- src %s, dim %d, n %lld, limit %lld: %s\n", describe(dst).c_str(),
              describe(src).c_str(), ss.dim, static_cast<long long>(ss.n), static_cast<long long>(limit),
              fits ? "other offsets than the reference" : "a part exceeds the limit");
  return false;
}

// A fill writes each address of dst once, broadcast dims included.
bool check_fill(const Tensor& dst, int64_t limit) {
  const char* bases[1] = {storage_base(dst)};
  std::vector<Offsets> got;
  const bool fits = kernel_offsets<1>(TensorIterator::fill(dst), bases, limit, &got);
  std::vector<Offsets> want;
  for (int64_t offset : copy_cases::element_byte_offsets(dst)) want.push_back(Offsets{offset, 0, 0, 0});
  std::sort(want.begin(), want.end());
  want.erase(std::unique(want.begin(), want.end()), want.end());
  if (fits && same_elements(got, want)) return true;
  print_error("fill dst %s, limit %lld: %s\n", describe(dst).c_str(), static_cast<long long>(limit),
              fits ? "other offsets than the reference" : "a part exceeds the limit");
  return false;
}

void random_layouts_match_the_reference(void**) {
  std::mt19937_64 rng(test_seed("random_layouts_match_the_reference"));
  for (int c = 0; c < 1500; ++c) {
    const copy_cases::Case k = copy_cases::random_case(rng, true);
    if (!check_copy(k.dst, k.src, random_limit(rng))) fail();
    if (k.dst.numel() > 0 &&
        !check_scaled_copy(k.dst, k.src, copy_cases::random_scale_shift(rng, k.dst, k.src), random_limit(rng)))
      fail();
    // src may be expanded: a fill of it writes each address once.
    if (!check_fill(k.src, random_limit(rng))) fail();
  }
}

// Byte extents past INT32_MAX with few elements, in a real allocation that
// no test step touches: the real limit splits them, forwards and flipped.
void extents_past_int32_split_under_the_real_limit(void**) {
  const int64_t rows = 3, cols = 4, pitch = (int64_t{1} << 30) + 8;  // bytes between rows
  const DimVector bytes{(rows - 1) * pitch + cols};
  const Tensor big = empty_cpu(bytes, contiguous_strides(bytes), ScalarType::UInt8);
  const Tensor wide = as_strided(big, {rows, cols}, {pitch, 1}, 0);
  const Tensor small = empty_cpu({cols, rows}, contiguous_strides({cols, rows}), ScalarType::UInt8);
  const Tensor srcs[] = {transpose(small, 0, 1), expand(empty_cpu({cols}, {1}, ScalarType::UInt8), {rows, cols})};
  const Tensor dsts[] = {wide, flip(wide, 0), flip(flip(wide, 1), 0)};
  for (const Tensor& dst : dsts) {
    assert_false(TensorIterator::copy(dst, srcs[0]).can_use_32bit_indexing());
    for (const Tensor& src : srcs) {
      if (!check_copy(dst, src, TensorIterator::k32BitLimit)) fail();
    }
    // The wide extents on the read side.
    if (!check_copy(small, transpose(dst, 0, 1), TensorIterator::k32BitLimit)) fail();
    if (!check_fill(dst, TensorIterator::k32BitLimit)) fail();
  }
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_layouts_match_the_reference),
      cmocka_unit_test(extents_past_int32_split_under_the_real_limit),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
