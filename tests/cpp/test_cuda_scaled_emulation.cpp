// The CUDA scaled copy kernel runs on the host: the iteration and arguments
// of cuda/kernels/scaled_copy_iter.h (what cuda/copy_scaled_kernel.cpp launches),
// and the thread body copy_scaled_thread of cuda/kernels/copy_loops.h called for
// every (block, thread) of the launch, over host memory. The result must
// equal the CPU kernel's byte for byte (NaN payloads included, since both
// run the same host code here), for random layouts, every pair of real
// dtypes, per tensor and per channel, split into many 32-bit parts.
//
// The staging of unaligned operands is mirrored from
// cuda/copy_scaled_kernel.cpp, and a scaled plan's run from
// cuda/copy_plan.cpp, which need the CUDA runtime.
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "copy_cases.h"
#include "core/contiguity.h"
#include "core/empty.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/scale_shift.h"
#include "cuda/kernels/copy_loops.h"
#include "cuda/kernels/copy_part.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/kernels/launch_shape.h"
#include "cuda/kernels/scaled_copy_iter.h"
#include "ops/copy.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using namespace st::cuda;
using copy_cases::describe;
using copy_cases::pick;
using copy_cases::random_real_dtype;
using copy_cases::random_scale_shift;

namespace {

Tensor contiguous_like(const Tensor& t) { return empty_cpu(t.sizes(), contiguous_strides(t.sizes()), t.dtype()); }

// ss's values as cuda/scale_shift_values.h lays them out, in host memory.
Tensor host_values(const ScaleShift& ss) {
  const DimVector count{2 * ss.n};
  const Tensor values = empty_cpu(count, contiguous_strides(count), ss.compute);
  if (ss.n > 0) std::memcpy(values.data(), ss.scale_data(), static_cast<size_t>(2 * ss.n * ss.value_size()));
  return values;
}

// One launch of copy_scaled_kernel over a part, block by block and thread by thread.
void emulate_part(const CopyPart& part, bool saturate) {
  const ScaledCopyArgs a = scaled_copy_args(part, saturate);
  const LaunchShape s = strided_shape(a.numel);
  check_launch_shape(s, kCopyThreads, "copy_scaled_kernel");
  ST_DISPATCH_PAIR(part.dtype(0), part.dtype(1), "emulated scaled copy", [&] {
    if constexpr (TakesScaledCopies<dst_t>::value && TakesScaledCopies<src_t>::value) {
      for (uint32_t b = 0; b < s.grid[0]; ++b)
        for (uint32_t t = 0; t < kCopyThreads; ++t) copy_scaled_thread<dst_t, src_t>(a, b, t);
    }
  });
}

// scaled_copy_on_device, emulated: the plain copies of the staging are the
// CPU's (the device's plain copies have their own emulation test).
void emulate_scaled(const Tensor& dst, const Tensor& src, const ScaleShift& ss, int64_t limit) {
  if (!element_aligned(src)) {
    const Tensor aligned = contiguous_like(src);
    ops::copy_(aligned, src, false);
    return emulate_scaled(dst, aligned, ss, limit);
  }
  if (!element_aligned(dst)) {
    const Tensor aligned = contiguous_like(dst);
    emulate_scaled(aligned, src, ss, limit);
    return ops::copy_(dst, aligned, false);
  }
  const Tensor values = host_values(ss);
  const TensorIterator iter = TensorIterator::scaled_copy(dst, src, ss, values.data());
  if (iter.numel() == 0) return;
  iter.with_32bit_indexing([&](const TensorIterator& part) { emulate_part(CopyPart(part), ss.saturate); }, limit);
}

// A scaled copy plan of cuda/copy_plan.cpp, emulated: its parts made on dst
// and src, then placed on `got` and `src2`, laid out alike over other
// memory; where the kernel does not take those addresses the plan copies
// through copy_scaled_ (emulate_scaled). The result must be the CPU's from src2.
bool check_plan_case(const Tensor& dst, const Tensor& src, const Tensor& got, const Tensor& src2, const ScaleShift& ss,
                     int64_t limit, int* fallbacks) {
  const Tensor values = host_values(ss);
  const std::vector<RelativePart> parts =
      relative_parts(TensorIterator::scaled_copy(dst, src, ss, values.data()), dst.data(), src.data(), limit);
  const Tensor want = copy_cases::twin(got);
  ops::copy_scaled_(want, src2, ss, false);
  char* const d = static_cast<char*>(got.data());
  const char* const s = static_cast<const char*>(src2.data());
  if (kernels_take(got.dtype(), src2.dtype(), true, d, s)) {
    for (const RelativePart& part : parts) emulate_part(part.at(d, s), ss.saturate);
  } else {
    ++*fallbacks;
    emulate_scaled(got, src2, ss, limit);
  }
  if (copy_cases::storage_bytes(want) == copy_cases::storage_bytes(got)) return true;
  print_error("scaled plan of dst %s <- src %s (dim %d, n %lld, 32-bit limit %lld) placed at phases %u, %u: the "
              "emulated kernel differs from the CPU\n",
              describe(dst).c_str(), describe(src).c_str(), ss.dim, static_cast<long long>(ss.n),
              static_cast<long long>(limit), static_cast<unsigned>(reinterpret_cast<uintptr_t>(d) % 16),
              static_cast<unsigned>(reinterpret_cast<uintptr_t>(s) % 16));
  return false;
}


bool check_case(const Tensor& dst, const Tensor& src, const ScaleShift& ss, int64_t limit) {
  const Tensor want = copy_cases::twin(dst), got = copy_cases::twin(dst);
  ops::copy_scaled_(want, src, ss, false);
  emulate_scaled(got, src, ss, limit);
  if (copy_cases::storage_bytes(want) == copy_cases::storage_bytes(got)) return true;
  print_error("dst %s <- src %s (dim %d, n %lld, saturate %d, 32-bit limit %lld): the emulated kernel differs from the CPU\n",
              describe(dst).c_str(), describe(src).c_str(), ss.dim, static_cast<long long>(ss.n), ss.saturate ? 1 : 0,
              static_cast<long long>(limit));
  return false;
}

void random_layouts_and_dtypes_match_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("random_layouts_and_dtypes_match_the_cpu"));
  for (int c = 0; c < 1500; ++c) {
    const DimVector sizes = copy_cases::random_sizes(rng);
    const ScalarType dt = random_real_dtype(rng), st_ = random_real_dtype(rng);
    const int dst_shift = pick(rng, 0, 7) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
    const int src_shift = pick(rng, 0, 7) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
    const Tensor dst = copy_cases::random_tensor(rng, sizes, dt, false, dst_shift);
    const DimVector src_sizes = pick(rng, 0, 3) == 0 ? copy_cases::broadcast_sizes(rng, sizes) : sizes;
    const Tensor src = copy_cases::random_tensor(rng, src_sizes, st_, true, src_shift);
    const ScaleShift ss = random_scale_shift(rng, dst, src);
    const int64_t limit = pick(rng, 0, 2) == 0 ? TensorIterator::k32BitLimit : pick(rng, 64, 4096);
    if (!check_case(dst, src, ss, limit)) fail();
  }
}

// Random layouts and real dtype pairs, each planned on one pair of tensors
// and run on another laid out alike at random alignments.
void plans_placed_on_other_memory_match_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("plans_placed_on_other_memory_match_the_cpu"));
  int fallbacks = 0;
  for (int c = 0; c < 600; ++c) {
    const copy_cases::Case k = copy_cases::random_case(rng, true);
    if (k.dst.numel() == 0) continue;  // an empty plan runs nothing
    const ScaleShift ss = random_scale_shift(rng, k.dst, k.src);
    const Tensor got = copy_cases::elsewhere(rng, k.dst, copy_cases::random_phase(rng));
    const Tensor src2 = copy_cases::elsewhere(rng, k.src, copy_cases::random_phase(rng));
    const int64_t limit = pick(rng, 0, 2) == 0 ? TensorIterator::k32BitLimit : pick(rng, 64, 4096);
    if (!check_plan_case(k.dst, k.src, got, src2, ss, limit, &fallbacks)) fail();
  }
  assert_true(fallbacks > 0);  // unaligned operands were among the cases
}

// Every pair of real dtypes, NCHW from NHWC per channel (the normalize case).
void every_real_pair_per_channel(void**) {
  std::mt19937_64 rng(test_seed("every_real_pair_per_channel"));
  for (int d = 0; d < kNumScalarTypes; ++d) {
    for (int s = 0; s < kNumScalarTypes; ++s) {
      const ScalarType dt = static_cast<ScalarType>(d), st_ = static_cast<ScalarType>(s);
      const auto takes = [](ScalarType t) {
        return dispatch_dtype(t, "test",
                              [](auto tag) { return TakesScaledCopies<typename decltype(tag)::type>::value; });
      };
      if (!takes(dt) || !takes(st_)) continue;  // complex and the MX dtypes: refused by prepare_scale_shift
      const DimVector sizes{2, 3, 5, 7};
      const Tensor dst = empty_cpu(sizes, contiguous_strides(sizes), dt);
      const Tensor src = empty_cpu(sizes, channels_last_strides_2d(sizes), st_);
      copy_cases::fill_random_bytes(dst, rng);
      copy_cases::fill_random_bytes(src, rng);
      const double scale[3] = {1.0 / 255, 2.0, -0.5}, shift[3] = {-0.5, 1.5, 3.0};
      for (int32_t saturate = 0; saturate < 2; ++saturate) {
        const ScaleShift ss = prepare_scale_shift(dst, src, scale, shift, 3, 1, saturate);
        if (!check_case(dst, src, ss, TensorIterator::k32BitLimit)) fail();
        if (!check_case(dst, src, ss, 64)) fail();
      }
    }
  }
}

}  // namespace

int main() {
  const CMUnitTest tests[] = {
      cmocka_unit_test(random_layouts_and_dtypes_match_the_cpu),
      cmocka_unit_test(plans_placed_on_other_memory_match_the_cpu),
      cmocka_unit_test(every_real_pair_per_channel),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
