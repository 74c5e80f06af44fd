// The CUDA copy and fill kernels run on the host: the same plan per 32-bit
// part (cuda/kernels/device_copy_plan.h), the same kernel arguments and the same
// thread bodies (cuda/kernels/copy_loops.h), called for every (block, thread) of
// the launch a GPU would run, over host memory. The result must equal the
// CPU kernel's byte for byte, for random layouts and all 401 dtype pairs that
// convert (float4_e2m1fn_x2 copies only to itself).
// What this cannot see is the device itself: its loads, stores, barriers
// and launches (tests/cuda/test_copy_gpu.cu checks those on a GPU).
//
// The staging of unaligned conversions and the fill set-up are mirrored
// from cuda/device_copy.cpp, and a copy plan's run from cuda/copy_plan.cpp,
// which need the CUDA runtime.
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "copy_cases.h"
#include "core/contiguity.h"
#include "core/empty.h"
#include "core/error.h"
#include "core/numeric/convert.h"
#include "core/numeric/dtype_dispatch.h"
#include "core/views.h"
#include "cuda/kernels/copy_loops.h"
#include "cuda/kernels/copy_part.h"
#include "cuda/kernels/device_conversions.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/kernels/iter_offsets.h"
#include "cuda/kernels/launch_shape.h"
#include "cuda/kernels/transpose_plan.h"
#include "dispatch_test_support.h"
#include "iter/tensor_iterator.h"
#include "ops/copy.h"
#include "ops/fill.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using namespace st::cuda;
using copy_cases::describe;
using copy_cases::pick;

namespace {

// ---- One launch each, block by block and thread by thread, over the
// launches' own shapes, checked as the launches check them (Note [Launch
// shapes]); every load and store checks its alignment (Note [Alignment in
// the host emulation]).

// The blocks of a one-dimensional launch of kCopyThreads threads.
uint32_t linear_blocks(const LaunchShape& s) {
  check_launch_shape(s, kCopyThreads, "emulated kernel");
  assert_int_equal(s.block[0], kCopyThreads);
  assert_int_equal(s.grid[1] * s.grid[2] * s.block[1] * s.block[2], 1);
  return s.grid[0];
}

template <int W>
void run_bytes(const BytesCopyArgs& a) {
  const uint32_t blocks = linear_blocks(bytes_shape(a));
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < kCopyThreads; ++t) copy_bytes_thread<W>(a, b, t);
}

template <typename D, typename S>
void run_vectorized(const VectorCopyArgs& a) {
  assert_int_equal(a.plan.vec, (VectorShape<D, S>::kVec));
  const uint32_t blocks = linear_blocks(vectorized_shape(a));
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < kCopyThreads; ++t) convert_vectorized_thread<D, S>(a, b, t);
}

template <typename D, typename S>
void run_strided(const StridedCopyArgs& a) {
  const uint32_t blocks = linear_blocks(strided_shape(a.numel));
  for (uint32_t b = 0; b < blocks; ++b)
    for (uint32_t t = 0; t < kCopyThreads; ++t) copy_strided_thread<D, S>(a, b, t);
}

// The grid of launch_transpose, with the kernel's loops over row tiles and
// batch tiles beyond 65535 blocks, and its two phases around the barrier.
template <typename D, typename S>
void run_transpose(const TransposeCopyArgs& a) {
  const LaunchShape shape = transpose_shape(a);
  check_launch_shape(shape, kTransposeThreads, "emulated transpose");
  assert_int_equal(shape.block[0], kTransposeThreads);
  const uint32_t grid_y = shape.grid[1], grid_z = shape.grid[2];
  std::vector<memory_t<D>> tile(TileOf<D>::kSharedElements);
  // Each thread's batch offsets, kept in its registers across the row tiles on a GPU.
  struct ThreadOffsets {
    TransposeOffsets step[kTransposeSteps];
  };
  std::vector<ThreadOffsets> offsets(kTransposeThreads);
  for (uint32_t bz = 0; bz < grid_z; ++bz)
    for (uint32_t by = 0; by < grid_y; ++by)
      for (uint32_t bx = 0; bx < shape.grid[0]; ++bx)
        for (uint32_t batch_tile = bz; batch_tile < a.batch_tiles; batch_tile += grid_z) {
          for (int t = 0; t < kTransposeThreads; ++t) transpose_batch_offsets(a, batch_tile, t, offsets[t].step);
          for (uint32_t row_tile = by; row_tile < a.row_tiles; row_tile += grid_y) {
            const TileAt<uint32_t> at = transpose_tile_at(a, batch_tile, row_tile, bx);
            for (int t = 0; t < kTransposeThreads; ++t) transpose_load_phase<D, S>(a, tile.data(), offsets[t].step, at, t);
            for (int t = 0; t < kTransposeThreads; ++t) transpose_store_phase<D>(a, tile.data(), offsets[t].step, at, t);
          }
        }
}

// Which kernels the cases reached, so that the test fails if one is never run.
struct Coverage {
  int bytes = 0, vectorized = 0, transpose = 0, strided = 0, unaligned = 0, parts = 0;
  int fill_contiguous = 0, fill_strided = 0;
  int plan_fallbacks = 0;
};
Coverage g_coverage;

[[noreturn]] void no_converting_kernel() {
  (st::fail)(ST_ERROR_INTERNAL, "a pair without converting kernels reached a conversion");
}

// Runs run(dst_t, src_t) for the converting kernels of the pair, as
// ConvertingCopies dispatches them (only has_converting_kernels pairs
// exist there).
template <typename Run>
void dispatch_converting(ScalarType kernel_dst, ScalarType src, Run run) {
  ST_DISPATCH_PAIR(kernel_dst, src, "emulate", [&] {
    if constexpr (has_converting_kernels(scalar_type_of<dst_t>, scalar_type_of<src_t>)) {
      run(TypeTag<dst_t>{}, TypeTag<src_t>{});
    } else {
      no_converting_kernel();
    }
  });
}

// launch_copy_part of cuda/device_copy.cpp, with the emulated launches.
void emulate_part(const CopyPart& part) {
  ++g_coverage.parts;
  const DeviceCopyPlan plan = plan_device_copy(part);
  const ScalarType dt = plan.kernel_dst, st_ = part.dtype(1);
  const bool same = plan.same;
  const int item = static_cast<int>(part.element_size(0));
  if (!plan.aligned) ++g_coverage.unaligned;
  switch (plan.kernel) {
    case CopyKernel::Bytes: {
      ++g_coverage.bytes;
      const BytesCopyArgs a{part.data_ptr(0), part.data_ptr(1), plan.bytes};
      switch (plan.bytes.word) {
        case 1: return run_bytes<1>(a);
        case 2: return run_bytes<2>(a);
        case 4: return run_bytes<4>(a);
        case 8: return run_bytes<8>(a);
        case 16: return run_bytes<16>(a);
      }
      (st::fail)(ST_ERROR_INTERNAL, "word %d", plan.bytes.word);
    }
    case CopyKernel::Vectorized: {
      ++g_coverage.vectorized;
      const VectorCopyArgs a{part.data_ptr(0), part.data_ptr(1), plan.vector};
      dispatch_converting(dt, st_, [&](auto d, auto s) {
        run_vectorized<typename decltype(d)::type, typename decltype(s)::type>(a);
      });
      return;
    }
    case CopyKernel::Transpose: {
      ++g_coverage.transpose;
      const TransposeCopyArgs a = make_transpose_args(part, plan.transpose_col);
      if (same) {
        switch (item) {
          case 1: return run_transpose<Word<1>, Word<1>>(a);
          case 2: return run_transpose<Word<2>, Word<2>>(a);
          case 4: return run_transpose<Word<4>, Word<4>>(a);
          case 8: return run_transpose<Word<8>, Word<8>>(a);
          case 16: return run_transpose<Word<16>, Word<16>>(a);
        }
      }
      dispatch_converting(dt, st_, [&](auto d, auto s) {
        run_transpose<typename decltype(d)::type, typename decltype(s)::type>(a);
      });
      return;
    }
    case CopyKernel::Strided: {
      ++g_coverage.strided;
      const StridedCopyArgs a{part.data_ptr(0), part.data_ptr(1), make_offset_calculator<2>(part),
                              static_cast<uint32_t>(part.numel())};
      if (same && (plan.aligned || item == 1)) {
        switch (item) {
          case 1: return run_strided<Word<1>, Word<1>>(a);
          case 2: return run_strided<Word<2>, Word<2>>(a);
          case 4: return run_strided<Word<4>, Word<4>>(a);
          case 8: return run_strided<Word<8>, Word<8>>(a);
          case 16: return run_strided<Word<16>, Word<16>>(a);
        }
      } else if (same) {
        switch (item) {
          case 2: return run_strided<Bytes<2>, Bytes<2>>(a);
          case 4: return run_strided<Bytes<4>, Bytes<4>>(a);
          case 8: return run_strided<Bytes<8>, Bytes<8>>(a);
          case 16: return run_strided<Bytes<16>, Bytes<16>>(a);
        }
      }
      dispatch_converting(dt, st_, [&](auto d, auto s) {
        run_strided<typename decltype(d)::type, typename decltype(s)::type>(a);
      });
      return;
    }
  }
}

// copy_on_device of cuda/device_copy.cpp; `limit` lowers the 32-bit split
// threshold so that small tensors are split into many parts.
void emulate_copy(const Tensor& dst, const Tensor& src, int64_t limit) {
  if (!kernels_take(dst.dtype(), src.dtype(), false, dst.data(), src.data())) {
    const Tensor& odd = !element_aligned(src) ? src : dst;
    const Tensor aligned = empty_cpu(odd.sizes(), contiguous_strides(odd.sizes()), odd.dtype());
    emulate_copy(aligned, src, limit);
    emulate_copy(dst, aligned, limit);
    return;
  }
  const TensorIterator iter = TensorIterator::copy(dst, src);
  if (iter.numel() == 0) return;
  iter.with_32bit_indexing([&](const TensorIterator& part) { emulate_part(CopyPart(part)); }, limit);
}

// dst ← src with the CPU kernel and with the emulated device kernels, on
// twin destinations; the whole storages must then be equal.
bool check_case(const Tensor& dst, const Tensor& src, int64_t limit) {
  const Tensor want = copy_cases::twin(dst), got = copy_cases::twin(dst);
  ops::copy_(want, src, false);
  emulate_copy(got, src, limit);
  if (copy_cases::storage_bytes(want) == copy_cases::storage_bytes(got)) return true;
  print_error("dst %s <- src %s (32-bit limit %lld): the emulated kernels differ from the CPU copy\n",
              describe(dst).c_str(), describe(src).c_str(), static_cast<long long>(limit));
  return false;
}

// A copy plan of cuda/copy_plan.cpp, emulated: its parts made on dst and
// src, then placed on `got` and `src2`, laid out alike over other memory;
// where the kernels do not take those addresses the plan copies through
// copy_ (emulate_copy). The result must be the CPU copy's from src2.
bool check_plan_case(const Tensor& dst, const Tensor& src, const Tensor& got, const Tensor& src2, int64_t limit) {
  const std::vector<RelativePart> parts = relative_parts(TensorIterator::copy(dst, src), dst.data(), src.data(), limit);
  const Tensor want = copy_cases::twin(got);
  ops::copy_(want, src2, false);
  char* const d = static_cast<char*>(got.data());
  const char* const s = static_cast<const char*>(src2.data());
  if (kernels_take(got.dtype(), src2.dtype(), false, d, s)) {
    for (const RelativePart& part : parts) emulate_part(part.at(d, s));
  } else {
    ++g_coverage.plan_fallbacks;
    emulate_copy(got, src2, limit);
  }
  if (copy_cases::storage_bytes(want) == copy_cases::storage_bytes(got)) return true;
  print_error("plan of dst %s <- src %s (32-bit limit %lld, %zu parts) placed at phases %u, %u: the emulated kernels "
              "differ from the CPU copy\n",
              describe(dst).c_str(), describe(src).c_str(), static_cast<long long>(limit), parts.size(),
              static_cast<unsigned>(reinterpret_cast<uintptr_t>(d) % 16),
              static_cast<unsigned>(reinterpret_cast<uintptr_t>(s) % 16));
  return false;
}

int64_t random_limit(std::mt19937_64& rng) {
  return pick(rng, 0, 2) == 0 ? TensorIterator::k32BitLimit : pick(rng, 64, 4096);
}

void random_layouts_and_dtypes_match_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("random_layouts_and_dtypes_match_the_cpu"));
  for (int c = 0; c < 1500; ++c) {
    const DimVector sizes = copy_cases::random_sizes(rng);
    const ScalarType dt = copy_cases::random_dtype(rng);
    const ScalarType st_ = pick(rng, 0, 2) == 0 ? dt : copy_cases::random_source_dtype(rng, dt);
    const int dst_shift = pick(rng, 0, 7) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
    const int src_shift = pick(rng, 0, 7) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
    const Tensor dst = copy_cases::random_tensor(rng, sizes, dt, false, dst_shift);
    const DimVector src_sizes = pick(rng, 0, 3) == 0 ? copy_cases::broadcast_sizes(rng, sizes) : sizes;
    const Tensor src = copy_cases::random_tensor(rng, src_sizes, st_, true, src_shift);
    if (!check_case(dst, src, random_limit(rng))) fail();
  }
}

// Random layouts and dtype pairs, each planned on one pair of tensors and
// run on another laid out alike at random alignments.
void plans_placed_on_other_memory_match_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("plans_placed_on_other_memory_match_the_cpu"));
  const int fallbacks_before = g_coverage.plan_fallbacks;
  for (int c = 0; c < 800; ++c) {
    const copy_cases::Case k = copy_cases::random_case(rng, false);
    if (k.dst.numel() == 0) continue;  // an empty plan runs nothing
    const Tensor got = copy_cases::elsewhere(rng, k.dst, copy_cases::random_phase(rng));
    const Tensor src2 = copy_cases::elsewhere(rng, k.src, copy_cases::random_phase(rng));
    if (!check_plan_case(k.dst, k.src, got, src2, random_limit(rng))) fail();
  }
  // Unaligned conversions were among the cases.
  assert_true(g_coverage.plan_fallbacks > fallbacks_before);
}

// Every pair, contiguous on both sides (the vectorized kernel, or bytes),
// at sizes that leave heads and tails, and transposed (the tiled kernel).
void every_dtype_pair_contiguous_and_transposed(void**) {
  std::mt19937_64 rng(test_seed("every_dtype_pair_contiguous_and_transposed"));
  for (int d = 0; d < kNumScalarTypes; ++d) {
    for (int s = 0; s < kNumScalarTypes; ++s) {
      const ScalarType dt = static_cast<ScalarType>(d), st_ = static_cast<ScalarType>(s);
      if (!converts(dt, st_)) continue;  // float4_e2m1fn_x2 copies only to itself
      for (int64_t n : {1, 15, 16, 17, 100, 1000}) {
        const Tensor dst = empty_cpu({n}, {1}, dt), src = empty_cpu({n}, {1}, st_);
        copy_cases::fill_random_bytes(dst, rng);
        copy_cases::fill_random_bytes(src, rng);
        if (!check_case(dst, src, TensorIterator::k32BitLimit)) fail();
        // Shifted by one element: the head differs.
        if (!check_case(slice(dst, 0, 1, n, 1), slice(src, 0, 1, n, 1), TensorIterator::k32BitLimit)) fail();
      }
      // NCHW -> NHWC and back, C and H×W large enough for tiles.
      const Tensor nchw = empty_cpu({2, 20, 5, 7}, contiguous_strides({2, 20, 5, 7}), st_);
      copy_cases::fill_random_bytes(nchw, rng);
      const Tensor nhwc = empty_cpu({2, 20, 5, 7}, channels_last_strides_2d({2, 20, 5, 7}), dt);
      copy_cases::fill_random_bytes(nhwc, rng);
      if (!check_case(nhwc, nchw, TensorIterator::k32BitLimit)) fail();
      if (!check_case(nhwc, nchw, 700)) fail();
      const Tensor back = empty_cpu({2, 20, 5, 7}, contiguous_strides({2, 20, 5, 7}), dt);
      const Tensor nhwc_src = empty_cpu({2, 20, 5, 7}, channels_last_strides_2d({2, 20, 5, 7}), st_);
      copy_cases::fill_random_bytes(nhwc_src, rng);
      if (!check_case(back, nhwc_src, TensorIterator::k32BitLimit)) fail();
      // Short extents in tiles of their own shape: 3 channels both ways
      // (4 × 256 and 256 × 4 tiles), and 16 × 16 matrices four to a tile.
      const auto filled = [&](const DimVector& sizes, const DimVector& strides, ScalarType dtype) {
        const Tensor t = empty_cpu(sizes, strides, dtype);
        copy_cases::fill_random_bytes(t, rng);
        return t;
      };
      const DimVector rgb{2, 3, 9, 31}, planar = contiguous_strides(rgb), packed = channels_last_strides_2d(rgb);
      if (!check_case(filled(rgb, packed, dt), filled(rgb, planar, st_), TensorIterator::k32BitLimit)) fail();
      if (!check_case(filled(rgb, planar, dt), filled(rgb, packed, st_), TensorIterator::k32BitLimit)) fail();
      const DimVector squares{5, 16, 16};
      const Tensor squares_t = transpose(filled(squares, contiguous_strides(squares), dt), 1, 2);
      if (!check_case(squares_t, filled(squares, contiguous_strides(squares), st_), TensorIterator::k32BitLimit)) fail();
    }
  }
}

// More batch tiles than a grid's z dimension holds: the kernel's batch
// loop. 17 × 17 matrices take a 32 × 32 tile each (16 × 16 would share).
void transpose_loops_over_more_batches_than_the_grid(void**) {
  std::mt19937_64 rng(test_seed("transpose_loops_over_more_batches_than_the_grid"));
  const DimVector sizes{66000, 17, 17};
  const Tensor src = empty_cpu(sizes, contiguous_strides(sizes), ScalarType::Int8);
  copy_cases::fill_random_bytes(src, rng);
  const Tensor dst = transpose(empty_cpu(sizes, contiguous_strides(sizes), ScalarType::Int8), 1, 2);
  const int before = g_coverage.transpose;
  if (!check_case(dst, src, TensorIterator::k32BitLimit)) fail();
  assert_int_equal(g_coverage.transpose, before + 1);
}

// fill_on_device of cuda/device_copy.cpp, emulated.
void emulate_fill(const Tensor& dst, double value, int64_t limit) {
  if (dst.numel() == 0) return;
  Word16 bytes{};
  ST_DISPATCH_ALL_TYPES(dst.dtype(), "fill", [&] {
    if constexpr (IsPacked<scalar_t>::value) {
      (st::fail)(ST_ERROR_INTERNAL, "a fill of float4_e2m1fn_x2 reached the emulation");
    } else {
      const memory_t<scalar_t> element = to_memory<scalar_t>(convert<scalar_t>(value));
      std::memcpy(&bytes, &element, sizeof(element));
    }
  });
  const TensorIterator iter = TensorIterator::fill(dst);
  const int item = static_cast<int>(dst.itemsize());
  iter.with_32bit_indexing(
      [&](const TensorIterator& part) {
        const bool aligned = is_aligned_to(part.data_ptr(0), item);
        if (part.is_contiguous() && aligned) {
          ++g_coverage.fill_contiguous;
          const uintptr_t at = reinterpret_cast<uintptr_t>(part.data_ptr(0));
          FillContiguousArgs a{part.data_ptr(0), plan_copy_bytes(at, at, part.numel() * item), Word16{}};
          char pattern[16];
          for (int i = 0; i < 16; ++i) pattern[i] = reinterpret_cast<const char*>(&bytes)[i % item];
          std::memcpy(&a.pattern, pattern, 16);
          const uint32_t blocks = linear_blocks(fill_contiguous_shape(a));
          for (uint32_t b = 0; b < blocks; ++b)
            for (uint32_t t = 0; t < kCopyThreads; ++t) {
              switch (item) {
                case 1: fill_contiguous_thread<1>(a, b, t); break;
                case 2: fill_contiguous_thread<2>(a, b, t); break;
                case 4: fill_contiguous_thread<4>(a, b, t); break;
                case 8: fill_contiguous_thread<8>(a, b, t); break;
                case 16: fill_contiguous_thread<16>(a, b, t); break;
              }
            }
          return;
        }
        ++g_coverage.fill_strided;
        const auto offsets = make_offset_calculator<1>(part);
        const uint32_t numel = static_cast<uint32_t>(part.numel());
        const uint32_t blocks = linear_blocks(strided_shape(numel));
        auto run = [&](auto value_tag) {
          using T = decltype(value_tag);
          FillStridedArgs<T> a{part.data_ptr(0), offsets, numel, load_as<T>(reinterpret_cast<const char*>(&bytes))};
          for (uint32_t b = 0; b < blocks; ++b)
            for (uint32_t t = 0; t < kCopyThreads; ++t) fill_strided_thread<T>(a, b, t);
        };
        switch (item) {
          case 1: return run(Word<1>{});
          case 2: return aligned ? run(Word<2>{}) : run(Bytes<2>{});
          case 4: return aligned ? run(Word<4>{}) : run(Bytes<4>{});
          case 8: return aligned ? run(Word<8>{}) : run(Bytes<8>{});
          case 16: return aligned ? run(Word<16>{}) : run(Bytes<16>{});
        }
      },
      limit);
}

void fill_matches_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("fill_matches_the_cpu"));
  const double values[] = {0.0, -0.0, 1.0, -1.5, 3.75, 1e10, -1e300, 65504.0, 1e-8, 0.1, 255.0, 256.0, -129.0,
                           std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()};
  for (int c = 0; c < 600; ++c) {
    const ScalarType dt = copy_cases::random_fill_dtype(rng);
    const int shift = pick(rng, 0, 5) == 0 ? static_cast<int>(pick(rng, 1, 15)) : 0;
    const Tensor dst = copy_cases::random_tensor(rng, copy_cases::random_sizes(rng), dt, true, shift);
    const double value = values[pick(rng, 0, sizeof values / sizeof values[0] - 1)];
    const int64_t limit = random_limit(rng);
    const Tensor want = copy_cases::twin(dst), got = copy_cases::twin(dst);
    ops::fill_(want, value);
    emulate_fill(got, value, limit);
    if (copy_cases::storage_bytes(want) != copy_cases::storage_bytes(got)) {
      print_error("fill of %s with %g (32-bit limit %lld): the emulated kernels differ from the CPU fill\n",
                  describe(dst).c_str(), value, static_cast<long long>(limit));
      fail();
    }
  }
}

// The checks the emulation adds for what only a GPU would show.

// A 16-byte access one byte off its alignment faults on a GPU; here it throws.
void misaligned_accesses_fail_in_the_emulation(void**) {
  alignas(16) char memory[64] = {};
  test::expect_error(ST_ERROR_INTERNAL, [&] { (void)load_as<Word16>(memory + 1); });
  test::expect_error(ST_ERROR_INTERNAL, [&] { store_as<Word<8>>(memory + 4, uint64_t{1}); });
  test::expect_error(ST_ERROR_INTERNAL, [&] { (void)load_as<Chunk16<float>>(memory + 8); });
  const std::string msg = test::expect_error(ST_ERROR_INTERNAL, [&] { (void)load_as<Word<4>>(memory + 2); });
  test::expect_contains(msg, "a 4-byte access at");
  test::expect_contains(msg, "is not aligned to 4 bytes");
  (void)load_as<Word16>(memory + 16);  // aligned: fine
  (void)load_as<Bytes<16>>(memory + 3);  // byte-wise elements: any address
  // A vectorized conversion planned for aligned memory, run over memory one
  // byte off: the first 16-byte load is refused.
  const VectorCopyArgs a{memory + 1, memory + 33, VectorPlan{4, 0, 1, 0}};
  test::expect_error(ST_ERROR_INTERNAL, [&] { convert_vectorized_thread<float, int32_t>(a, 0, 0); });
}

void launch_shapes_beyond_the_hardware_limits_are_refused(void**) {
  check_launch_shape(LaunchShape{{kMaxGridDimX, kMaxGridDimYZ, kMaxGridDimYZ}, {128, 1, 1}}, 128, "k");
  std::string msg = test::expect_error(
      ST_ERROR_INTERNAL, [] { check_launch_shape(LaunchShape{{1, kMaxGridDimYZ + 1, 1}, {128, 1, 1}}, 128, "k"); });
  test::expect_contains(msg, "k: launch of grid (1, 65536, 1) x block (128, 1, 1) is outside the limits");
  test::expect_error(ST_ERROR_INTERNAL,
                     [] { check_launch_shape(LaunchShape{{1u << 31, 1, 1}, {128, 1, 1}}, 128, "k"); });
  test::expect_error(ST_ERROR_INTERNAL, [] { check_launch_shape(LaunchShape{{0, 1, 1}, {128, 1, 1}}, 128, "k"); });
  test::expect_error(ST_ERROR_INTERNAL, [] { check_launch_shape(LaunchShape{{1, 1, 1}, {32, 8, 1}}, 128, "k"); });
  // More work than a grid holds saturates, and is refused rather than wrapped around.
  check_launch_shape(strided_shape(UINT32_MAX), kCopyThreads, "strided");  // 2^23 blocks: fine
  test::expect_error(ST_ERROR_INTERNAL, [] {
    check_launch_shape(linear_shape(int64_t{1} << 45, kCopyThreads), kCopyThreads, "bytes");
  });
  // The transpose grid stays within y and z for any count of tiles and batches.
  const int64_t size = 1, stride = 0;
  const int64_t* strides[2] = {&stride, &stride};
  const TransposeCopyArgs t{nullptr, nullptr, 1, 1, 0, 0, 0, 0, TransposeTileShape{0, 5, 5}, 1u << 20, 3, 1u << 30,
                            1u << 30, OffsetCalculator<2>(1, &size, strides)};
  const LaunchShape ts = transpose_shape(t);
  check_launch_shape(ts, kTransposeThreads, "transpose");
  assert_int_equal(ts.grid[1], kMaxGridYZ);
  assert_int_equal(ts.grid[2], kMaxGridYZ);
}

// Runs last: the cases above must have reached every kernel.
void every_kernel_was_reached(void**) {
  print_message("copy parts %d: bytes %d, vectorized %d, transpose %d, strided %d (unaligned %d); fill parts: "
                "contiguous %d, strided %d\n",
                g_coverage.parts, g_coverage.bytes, g_coverage.vectorized, g_coverage.transpose, g_coverage.strided,
                g_coverage.unaligned, g_coverage.fill_contiguous, g_coverage.fill_strided);
  assert_true(g_coverage.bytes > 0);
  assert_true(g_coverage.vectorized > 0);
  assert_true(g_coverage.transpose > 0);
  assert_true(g_coverage.strided > 0);
  assert_true(g_coverage.unaligned > 0);
  assert_true(g_coverage.fill_contiguous > 0);
  assert_true(g_coverage.fill_strided > 0);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(random_layouts_and_dtypes_match_the_cpu),
      cmocka_unit_test(plans_placed_on_other_memory_match_the_cpu),
      cmocka_unit_test(every_dtype_pair_contiguous_and_transposed),
      cmocka_unit_test(transpose_loops_over_more_batches_than_the_grid),
      cmocka_unit_test(fill_matches_the_cpu),
      cmocka_unit_test(misaligned_accesses_fail_in_the_emulation),
      cmocka_unit_test(launch_shapes_beyond_the_hardware_limits_are_refused),
      cmocka_unit_test(every_kernel_was_reached),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
