// The CUDA kernels of st_quantize_blocks and st_dequantize_blocks run on the
// host: the same kernel arguments (cuda/kernels/block_loops.h), the same
// choice of kernel (warp_blocks_fit) and the same thread bodies, called for
// every (block, thread) of the launch a GPU would run, over host memory; the
// warp kernel's lanes (cuda/kernels/block_warp_loops.h) each load their
// pieces, their blocks' amaxes are joined in a loop where the device
// shuffles, and each lane stores. The bytes they write must equal the CPU
// operator's for every format, element dtype and scale rule, over random
// layouts (shuffled, strided, flipped, channels-last), blocks along every
// dim, dense lines of whole blocks, and launches whose grid is capped so that
// threads stride over several blocks. What this cannot see is the device
// itself: the shuffles, the timing (tests/cuda/ on a GPU).
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "copy_cases.h"
#include "core/block_preconditions.h"
#include "core/numeric/dtype.h"
#include "core/views.h"
#include "cuda/kernels/block_loops.h"
#include "cuda/kernels/block_warp_loops.h"
#include "cuda/kernels/launch_shape.h"
#include "iter/block_lines.h"
#include "ops/block_scaled.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using namespace st::cuda;
using copy_cases::describe;
using copy_cases::pick;

namespace {

const ScalarType kElementTypes[] = {ScalarType::Float32, ScalarType::Float16, ScalarType::BFloat16,
                                    ScalarType::Float64};

// Calls run(format tag, element tag) for the call's format and element dtype.
template <typename Run>
void with_types(BlockFormat format, ScalarType elements, const Run& run) {
  const auto typed = [&](auto format_tag) {
    switch (elements) {
      case ScalarType::Float32: return run(format_tag, float{});
      case ScalarType::Float16: return run(format_tag, Half{});
      case ScalarType::BFloat16: return run(format_tag, BFloat16{});
      case ScalarType::Float64: return run(format_tag, double{});
      default: fail_msg("emulate: element dtype %s", dtype_name(static_cast<int32_t>(elements)));
    }
  };
  switch (format) {
#define ST_EMULATED_FORMAT_(F) \
  case F: return typed(std::integral_constant<BlockFormat, F>{});
    ST_EMULATED_FORMAT_(BlockFormat::MxFp8E4M3)
    ST_EMULATED_FORMAT_(BlockFormat::MxFp8E5M2)
    ST_EMULATED_FORMAT_(BlockFormat::MxFp6E2M3)
    ST_EMULATED_FORMAT_(BlockFormat::MxFp6E3M2)
    ST_EMULATED_FORMAT_(BlockFormat::MxFp4E2M1)
    ST_EMULATED_FORMAT_(BlockFormat::MxInt8)
    ST_EMULATED_FORMAT_(BlockFormat::NvFp4)
#undef ST_EMULATED_FORMAT_
  }
}

// The thread-per-block kernel's launch, thread by thread.
template <BlockFormat F, typename E>
void emulate_threads(bool quantize, const BlockKernelArgs& args, uint32_t grid_cap) {
  LaunchShape shape = block_kernel_shape(args);
  check_launch_shape(shape, kBlockThreads, "emulated block kernel");
  assert_int_equal(shape.block[0], kBlockThreads);
  if (shape.grid[0] > grid_cap) shape.grid[0] = grid_cap;
  const uint32_t grid = shape.grid[0];
  for (uint32_t b = 0; b < grid; ++b) {
    for (uint32_t t = 0; t < kBlockThreads; ++t)
      quantize ? quantize_blocks_thread<F, E>(args, b, t, grid) : dequantize_blocks_thread<F, E>(args, b, t, grid);
  }
}

// The warp kernel's launch (block_scaled.cu's quantize_warps_kernel and
// dequantize_warps_kernel), warp by warp: each round's loads by every lane,
// then the amaxes joined over each block's lanes, then the stores.
template <BlockFormat F, typename E>
void emulate_warps(bool quantize, const BlockKernelArgs& args, uint32_t grid_cap) {
  using W = WarpBlocks<F, E>;
  LaunchShape shape = warp_kernel_shape(W::slots(args));
  check_launch_shape(shape, kBlockThreads, "emulated block warp kernel");
  assert_int_equal(shape.block[0], kBlockThreads);
  if (shape.grid[0] > grid_cap) shape.grid[0] = grid_cap;
  const uint32_t grid = shape.grid[0];
  for (uint32_t b = 0; b < grid; ++b) {
    for (uint32_t warp = 0; warp < kBlockWarps; ++warp) {
      const WarpSlots w = warp_slots(W::slots(args), b, warp, grid);
      for (uint64_t slot = w.first; slot < w.count; slot += w.step * kWarpUnroll) {
        typename W::Piece p[kWarpUnroll][kWarpLanes] = {};
        typename W::Codes c[kWarpUnroll][kWarpLanes] = {};
        for (int j = 0; j < kWarpUnroll; ++j) {
          for (int lane = 0; lane < kWarpLanes; ++lane) {
            const uint64_t block = W::block_of(slot + j * w.step, lane);
            if (block >= args.total) continue;
            if (quantize) {
              p[j][lane] = W::load(args, block, W::piece_of(lane));
            } else {
              c[j][lane] = W::load_codes(args, block, W::piece_of(lane));
            }
          }
        }
        for (int j = 0; j < kWarpUnroll; ++j) {
          for (int lane = 0; lane < kWarpLanes; ++lane) {
            const uint64_t block = W::block_of(slot + j * w.step, lane);
            if (block >= args.total) continue;
            if (!quantize) {
              W::dequantize(args, block, W::piece_of(lane), c[j][lane]);
              continue;
            }
            blocks::BlockAmax amax;
            const int first = lane - W::piece_of(lane);
            for (int k = first; k < first + W::kLanes; ++k) amax.merge(p[j][k].amax);
            W::store(args, block, W::piece_of(lane), p[j][lane], amax);
          }
        }
      }
    }
  }
}

// Runs the launch the CUDA driver makes (cuda/block_kernel.cpp); `grid_cap`
// lowers the grid below the kernel's shape so that each thread takes
// several blocks, as on a GPU past 2^31 - 1 blocks. Returns whether the
// warp kernel ran.
bool emulate(bool quantize, const Tensor& elements, const Tensor& values, const Tensor& scales, const BlockSpec& spec,
             uint32_t grid_cap) {
  if (elements.numel() == 0) return false;
  // The driver stages elements at an address not aligned to their size; these are.
  assert_int_equal(reinterpret_cast<uintptr_t>(elements.data()) % elements.itemsize(), 0);
  const BlockLines lines = block_lines(elements, values, scales, spec.dim);
  const BlockKernelArgs args = block_kernel_args(lines, spec.info().block, spec.params());
  const bool warps = warp_blocks_fit(lines, static_cast<int>(elements.itemsize()), spec.info());
  with_types(spec.format, elements.dtype(), [&](auto format_tag, auto element_tag) {
    constexpr BlockFormat F = decltype(format_tag)::value;
    using E = decltype(element_tag);
    warps ? emulate_warps<F, E>(quantize, args, grid_cap) : emulate_threads<F, E>(quantize, args, grid_cap);
  });
  return warps;
}

// Finite values of every magnitude the formats care about, now and then
// zeros, infinities and NaN, written in the source's dtype.
void fill_values(const Tensor& t, std::mt19937_64& rng) {
  const bool specials = pick(rng, 0, 9) == 0;
  const int scale = static_cast<int>(pick(rng, -20, 20));
  auto* p = static_cast<char*>(t.storage()->base());
  const int64_t item = static_cast<int64_t>(t.itemsize());
  for (size_t at = 0; at + item <= t.storage()->nbytes(); at += item) {
    const int exponent = scale + static_cast<int>(pick(rng, -3, 3));
    double v = std::ldexp(static_cast<double>(static_cast<int64_t>(rng() % 20001) - 10000) / 997.0, exponent);
    if (specials) {
      const int64_t r = pick(rng, 0, 30);
      if (r == 0) v = std::numeric_limits<double>::quiet_NaN();
      if (r == 1) v = -std::numeric_limits<double>::infinity();
      if (r == 2) v = 0.0;
      if (r == 3) v = -0.0;
    }
    switch (t.dtype()) {
      case ScalarType::Float32: { const float f = convert<float>(v); std::memcpy(p + at, &f, 4); break; }
      case ScalarType::Float16: { const Half h = convert<Half>(v); std::memcpy(p + at, &h, 2); break; }
      case ScalarType::BFloat16: { const BFloat16 h = convert<BFloat16>(v); std::memcpy(p + at, &h, 2); break; }
      default: std::memcpy(p + at, &v, 8); break;
    }
  }
}

struct BlockCase {
  BlockSpec spec;
  Tensor elements, values, scales;
};

BlockCase random_case(std::mt19937_64& rng) {
  BlockCase c;
  const BlockFormat format = static_cast<BlockFormat>(pick(rng, 0, kNumBlockFormats - 1));
  const ScaleRule rule = static_cast<ScaleRule>(pick(rng, 0, kNumScaleRules - 1));
  DimVector sizes = copy_cases::random_sizes(rng, 4096);
  if (sizes.size() == 0) sizes = DimVector{pick(rng, 1, 100)};
  const int dim = static_cast<int>(pick(rng, 0, sizes.size() - 1));
  if (pick(rng, 0, 2) == 0) sizes[dim] = pick(rng, 1, 70);  // several blocks, a partial one
  if (block_format_info(format).per_byte == 2 && sizes[dim] % 2 != 0) sizes[dim] += 1;
  const ScalarType dtype = kElementTypes[pick(rng, 0, 3)];
  const float g = pick(rng, 0, 2) == 0 ? 0.0f : std::ldexp(1.0f + static_cast<float>(pick(rng, 0, 99)) / 100.0f,
                                                           static_cast<int>(pick(rng, -10, 10)));
  const Tensor probe = st::empty_cpu(sizes, st::contiguous_strides(sizes), dtype);
  c.spec = make_block_spec(format, rule, dim - (pick(rng, 0, 1) == 0 ? 0 : static_cast<int>(sizes.size())), g, probe,
                           "src");
  c.elements = copy_cases::random_tensor(rng, sizes, dtype, false);
  if (pick(rng, 0, 3) == 0) c.elements = st::flip(c.elements, static_cast<int>(pick(rng, 0, sizes.size() - 1)));
  c.values = copy_cases::random_tensor(rng, block_values_shape(sizes, c.spec), c.spec.info().values, false);
  c.scales = copy_cases::random_tensor(rng, block_scales_shape(sizes, c.spec), c.spec.info().scales, false);
  fill_values(c.elements, rng);
  return c;
}

std::string describe_case(const BlockCase& c) {
  return std::string(c.spec.info().name) + (c.spec.rule == ScaleRule::RCeil ? " RCEIL" : " FLOOR") + " along dim " +
         std::to_string(c.spec.dim) + ", g " + std::to_string(c.spec.g) + ": elements " + describe(c.elements) +
         ", values " + describe(c.values) + ", scales " + describe(c.scales);
}

uint32_t random_grid_cap(std::mt19937_64& rng) {
  return pick(rng, 0, 2) == 0 ? static_cast<uint32_t>(pick(rng, 1, 3)) : UINT32_MAX;
}

void quantize_matches_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("quantize_matches_the_cpu"));
  int nonempty = 0;
  for (int k = 0; k < 600; ++k) {
    const BlockCase c = random_case(rng);
    const Tensor cpu_values = copy_cases::twin(c.values), cpu_scales = copy_cases::twin(c.scales);
    const Tensor gpu_values = copy_cases::twin(c.values), gpu_scales = copy_cases::twin(c.scales);
    ops::quantize_blocks(cpu_values, cpu_scales, c.elements, c.spec);
    emulate(true, c.elements, gpu_values, gpu_scales, c.spec, random_grid_cap(rng));
    if (copy_cases::storage_bytes(cpu_values) != copy_cases::storage_bytes(gpu_values) ||
        copy_cases::storage_bytes(cpu_scales) != copy_cases::storage_bytes(gpu_scales)) {
      print_error("case %d, %s: the emulated kernel differs from the CPU\n", k, describe_case(c).c_str());
      fail();
    }
    nonempty += c.elements.numel() > 0;
  }
  assert_true(nonempty > 500);
}

void dequantize_matches_the_cpu(void**) {
  std::mt19937_64 rng(test_seed("dequantize_matches_the_cpu"));
  for (int k = 0; k < 600; ++k) {
    const BlockCase c = random_case(rng);
    // Any codes: every element and scale pattern, NaN scales included.
    copy_cases::fill_random_bytes(c.values, rng);
    copy_cases::fill_random_bytes(c.scales, rng);
    const Tensor cpu = copy_cases::twin(c.elements), gpu = copy_cases::twin(c.elements);
    ops::dequantize_blocks(cpu, c.values, c.scales, c.spec);
    emulate(false, gpu, c.values, c.scales, c.spec, random_grid_cap(rng));
    if (copy_cases::storage_bytes(cpu) != copy_cases::storage_bytes(gpu)) {
      print_error("case %d, %s: the emulated kernel differs from the CPU\n", k, describe_case(c).c_str());
      fail();
    }
  }
}

// A launch big enough for more than one block of threads, whose threads each
// take one block of elements: one line of 130 blocks of 32.
void a_launch_of_several_thread_blocks(void**) {
  const DimVector sizes{32 * 130};
  const Tensor src = st::empty_cpu(sizes, st::contiguous_strides(sizes), ScalarType::Float32);
  std::mt19937_64 rng(1);
  fill_values(src, rng);
  const BlockSpec spec = make_block_spec(BlockFormat::MxFp8E4M3, ScaleRule::Floor, 0, 0.0f, src, "src");
  const Tensor values = st::empty_cpu(sizes, st::contiguous_strides(sizes), ScalarType::Float8_e4m3fn);
  const Tensor scales = st::empty_cpu({130}, {1}, ScalarType::Float8_e8m0fnu);
  const BlockKernelArgs args = block_kernel_args(block_lines(src, values, scales, 0), 32, spec.params());
  assert_int_equal(args.total, 130);
  assert_int_equal(block_kernel_shape(args).grid[0], 2);
  const Tensor v2 = copy_cases::twin(values), s2 = copy_cases::twin(scales);
  ops::quantize_blocks(values, scales, src, spec);
  emulate(true, src, v2, s2, spec, UINT32_MAX);
  assert_true(copy_cases::storage_bytes(values) == copy_cases::storage_bytes(v2));
  assert_true(copy_cases::storage_bytes(scales) == copy_cases::storage_bytes(s2));
}

// A (lines, n) tensor of `dtype` whose rows are `pad` elements apart past
// n (the view of the first n columns), sometimes flipped along its lines:
// every line starts at a multiple of 16 bytes when pad · itemsize is one.
Tensor dense_rows(std::mt19937_64& rng, int64_t lines, int64_t n, int64_t pad, ScalarType dtype) {
  const DimVector base_sizes{lines, n + pad};
  const Tensor base = st::empty_cpu(base_sizes, st::contiguous_strides(base_sizes), dtype);
  copy_cases::fill_random_bytes(base, rng);
  Tensor t = st::slice(base, 1, 0, n, 1);
  if (pick(rng, 0, 3) == 0) t = st::flip(t, 0);
  return t;
}

// Lines of whole blocks in dense, aligned memory: the layout the warp
// kernel takes (Note [Warps over whole blocks]), every format and element
// dtype, lines of 1 to 12 blocks, rows padded or flipped, specials, grids
// capped; quantize and dequantize both equal the CPU's bytes.
void dense_lines_take_the_warp_kernel(void**) {
  std::mt19937_64 rng(test_seed("dense_lines_take_the_warp_kernel"));
  for (int k = 0; k < 400; ++k) {
    const BlockFormat format = static_cast<BlockFormat>(pick(rng, 0, kNumBlockFormats - 1));
    const ScaleRule rule = static_cast<ScaleRule>(pick(rng, 0, kNumScaleRules - 1));
    const ScalarType dtype = kElementTypes[pick(rng, 0, 3)];
    const int64_t block = block_format_info(format).block, item = static_cast<int64_t>(itemsize(dtype));
    const int64_t lines = pick(rng, 1, 40), n = block * pick(rng, 1, 12);
    const int64_t pad = pick(rng, 0, 1) == 0 ? 0 : (16 / item) * pick(rng, 1, 3);
    const Tensor elements = dense_rows(rng, lines, n, pad, dtype);
    fill_values(elements, rng);
    const float g = pick(rng, 0, 2) == 0 ? 0.0f : std::ldexp(1.0f + static_cast<float>(pick(rng, 0, 99)) / 100.0f,
                                                             static_cast<int>(pick(rng, -10, 10)));
    const BlockSpec spec = make_block_spec(format, rule, 1, g, elements, "src");
    const BlockFormatInfo& info = spec.info();
    // Values rows padded by a multiple of a lane's code access (8 bytes or more).
    const Tensor values = dense_rows(rng, lines, n / info.per_byte, pick(rng, 0, 1) * 16, info.values);
    const Tensor scales = dense_rows(rng, lines, n / block, pick(rng, 0, 2), info.scales);
    const uint32_t cap = random_grid_cap(rng);
    const std::string what = std::string(info.name) + " of " + dtype_name(static_cast<int32_t>(dtype)) + ": elements " +
                             describe(elements) + ", values " + describe(values) + ", scales " + describe(scales);

    const Tensor cpu_values = copy_cases::twin(values), cpu_scales = copy_cases::twin(scales);
    const Tensor gpu_values = copy_cases::twin(values), gpu_scales = copy_cases::twin(scales);
    ops::quantize_blocks(cpu_values, cpu_scales, elements, spec);
    if (!emulate(true, elements, gpu_values, gpu_scales, spec, cap)) {
      print_error("case %d, %s: the warp kernel was not chosen\n", k, what.c_str());
      fail();
    }
    if (copy_cases::storage_bytes(cpu_values) != copy_cases::storage_bytes(gpu_values) ||
        copy_cases::storage_bytes(cpu_scales) != copy_cases::storage_bytes(gpu_scales)) {
      print_error("case %d, quantize %s: the emulated warp kernel differs from the CPU\n", k, what.c_str());
      fail();
    }

    copy_cases::fill_random_bytes(values, rng);
    copy_cases::fill_random_bytes(scales, rng);
    const Tensor cpu = copy_cases::twin(elements), gpu = copy_cases::twin(elements);
    ops::dequantize_blocks(cpu, values, scales, spec);
    emulate(false, gpu, values, scales, spec, cap);
    if (copy_cases::storage_bytes(cpu) != copy_cases::storage_bytes(gpu)) {
      print_error("case %d, dequantize %s: the emulated warp kernel differs from the CPU\n", k, what.c_str());
      fail();
    }
  }
}

// Which lines the warp kernel takes, by hand: dense lines of whole blocks
// at aligned addresses, and none of the layouts next to them.
void the_warp_layout_is_recognized(void**) {
  std::mt19937_64 rng(2);
  const auto fits = [](const Tensor& elements, BlockFormat format, int dim) {
    const BlockSpec spec = make_block_spec(format, ScaleRule::Floor, dim, 0.0f, elements, "src");
    const DimVector vs = block_values_shape(elements.sizes(), spec), ss = block_scales_shape(elements.sizes(), spec);
    const Tensor values = st::empty_cpu(vs, st::contiguous_strides(vs), spec.info().values);
    const Tensor scales = st::empty_cpu(ss, st::contiguous_strides(ss), spec.info().scales);
    return warp_blocks_fit(block_lines(elements, values, scales, spec.dim), static_cast<int>(elements.itemsize()),
                           spec.info());
  };
  const Tensor rows = dense_rows(rng, 4, 64, 0, ScalarType::Float32);
  assert_true(fits(rows, BlockFormat::MxFp8E4M3, 1));
  assert_true(fits(rows, BlockFormat::NvFp4, 1));
  assert_true(fits(dense_rows(rng, 4, 64, 4, ScalarType::Float32), BlockFormat::MxFp4E2M1, 1));
  // Rows 2 float32s (8 bytes) apart past their ends: every other line starts off 16 bytes.
  assert_false(fits(dense_rows(rng, 4, 64, 2, ScalarType::Float32), BlockFormat::MxFp8E4M3, 1));
  // Blocks down the columns, a partial block, a line starting 4 bytes in, every other element.
  assert_false(fits(rows, BlockFormat::MxFp8E4M3, 0));
  assert_false(fits(dense_rows(rng, 4, 48, 0, ScalarType::Float32), BlockFormat::MxFp8E4M3, 1));
  assert_false(fits(st::slice(dense_rows(rng, 4, 68, 0, ScalarType::Float32), 1, 1, 65, 1), BlockFormat::MxInt8, 1));
  assert_false(fits(st::slice(dense_rows(rng, 4, 128, 0, ScalarType::Float32), 1, 0, 128, 2), BlockFormat::MxInt8, 1));
}

// Which way the thread-per-block kernel walks, by hand: blocks along the
// columns of a row-major matrix (lines adjacent, elements a row apart) and
// blocks along the rows of its transpose put adjacent threads on adjacent
// lines; blocks along the rows of the matrix, on adjacent blocks of a line.
void adjacent_threads_take_adjacent_lines_where_closer(void**) {
  std::mt19937_64 rng(3);
  const auto lines_first = [](const Tensor& elements, int dim) {
    const BlockSpec spec = make_block_spec(BlockFormat::MxFp8E4M3, ScaleRule::Floor, dim, 0.0f, elements, "src");
    const DimVector vs = block_values_shape(elements.sizes(), spec), ss = block_scales_shape(elements.sizes(), spec);
    const Tensor values = st::empty_cpu(vs, st::contiguous_strides(vs), spec.info().values);
    const Tensor scales = st::empty_cpu(ss, st::contiguous_strides(ss), spec.info().scales);
    return block_kernel_args(block_lines(elements, values, scales, spec.dim), spec.info().block, spec.params())
        .lines_first;
  };
  const Tensor rows = dense_rows(rng, 64, 96, 0, ScalarType::Float32);
  assert_true(lines_first(rows, 0));
  assert_false(lines_first(rows, 1));
  assert_true(lines_first(st::permute(rows, {1, 0}), 1));
  assert_false(lines_first(st::permute(rows, {1, 0}), 0));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(quantize_matches_the_cpu),
      cmocka_unit_test(dequantize_matches_the_cpu),
      cmocka_unit_test(a_launch_of_several_thread_blocks),
      cmocka_unit_test(dense_lines_take_the_warp_kernel),
      cmocka_unit_test(the_warp_layout_is_recognized),
      cmocka_unit_test(adjacent_threads_take_adjacent_lines_where_closer),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
