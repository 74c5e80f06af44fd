// The host-side decisions of the CUDA copy path: how a contiguous range is
// split into aligned 16-byte accesses, when the tiled transpose serves a
// geometry, which kernel a part takes, the iterator → OffsetCalculator
// adaptor over parts of a 32-bit split, each against a brute-force or
// hand-computed expectation; and a copy plan's parts, placed on new
// memory, against an iteration built afresh there.
#include <cstdint>
#include <cstring>
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
#include "cuda/kernels/copy_part.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/kernels/iter_offsets.h"
#include "cuda/kernels/scaled_copy_iter.h"
#include "cuda/kernels/transpose_plan.h"
#include "cuda/kernels/vectorize.h"
#include "iter/tensor_iterator.h"
#include "test_seed.h"
// Last: cmocka defines a fail() macro that would rewrite st::fail in the headers above.
#include "cmocka_cxx.h"

using namespace st;
using namespace st::cuda;
using copy_cases::describe;
using copy_cases::pick;

namespace {

Tensor contiguous(const DimVector& sizes, ScalarType dtype) { return empty_cpu(sizes, contiguous_strides(sizes), dtype); }

bool same_tile(const TransposeTileShape& a, const TransposeTileShape& b) {
  return a.log_batches == b.log_batches && a.log_rows == b.log_rows && a.log_cols == b.log_cols;
}

// Every pair of phases modulo 32 and every length up to 70: the pieces add
// up, the words are aligned on both sides, and no wider word would do.
void bytes_plan_aligns_both_sides(void**) {
  for (uintptr_t d = 0; d < 32; ++d) {
    for (uintptr_t s = 0; s < 32; ++s) {
      int widest = 16;
      while ((d - s) % static_cast<uintptr_t>(widest) != 0) widest /= 2;
      for (int64_t n = 0; n <= 70; ++n) {
        const uintptr_t dst = 4096 + d, src = 8192 + s;
        const BytesPlan p = plan_copy_bytes(dst, src, n);
        const bool ok = p.word == widest && p.head >= 0 && p.words >= 0 && p.tail >= 0 &&
                        p.head + p.words * p.word + p.tail == n && p.head < p.word && p.tail < p.word &&
                        (p.words == 0 || ((dst + p.head) % p.word == 0 && (src + p.head) % p.word == 0)) &&
                        // the head is the shortest that aligns, unless the range ends first
                        (p.head == n || (dst + p.head) % p.word == 0);
        if (!ok) {
          print_error("dst %% 32 = %u, src %% 32 = %u, %lld bytes: word %d head %lld words %lld tail %lld\n",
                      static_cast<unsigned>(d), static_cast<unsigned>(s), static_cast<long long>(n), p.word,
                      static_cast<long long>(p.head), static_cast<long long>(p.words), static_cast<long long>(p.tail));
          fail();
        }
      }
    }
  }
  // Allocator-aligned contiguous tensors move in 16-byte words with no head.
  const BytesPlan p = plan_copy_bytes(256, 512, 1000);
  assert_int_equal(p.word, 16);
  assert_int_equal(p.head, 0);
  assert_int_equal(p.words, 62);
  assert_int_equal(p.tail, 8);
}

// Element-aligned addresses of every pair of element sizes: the head is the
// first index that aligns both sides (none, when no index below 16 does).
void vector_plan_finds_the_first_common_alignment(void**) {
  const int sizes[] = {1, 2, 4, 8, 16};
  for (int ds : sizes) {
    for (int ss : sizes) {
      const int vec = 16 / (ds < ss ? ds : ss);
      for (uintptr_t d = 0; d < 32; d += static_cast<uintptr_t>(ds)) {
        for (uintptr_t s = 0; s < 32; s += static_cast<uintptr_t>(ss)) {
          int first = -1;
          for (int h = 0; h < 16 && first < 0; ++h) {
            if ((d + static_cast<uintptr_t>(h * ds)) % 16 == 0 && (s + static_cast<uintptr_t>(h * ss)) % 16 == 0)
              first = h;
          }
          for (int64_t n = 0; n <= 40; ++n) {
            const VectorPlan p = plan_vectorized(1024 + d, 2048 + s, ds, ss, n);
            bool ok;
            if (first < 0 || first >= vec) {
              ok = p.vec == 0 && p.head == 0 && p.vectors == 0 && p.tail == n;
            } else {
              const int64_t head = first < n ? first : n;
              ok = p.vec == vec && p.head == head && p.vectors == (n - head) / vec && p.tail == (n - head) % vec;
            }
            if (!ok) {
              print_error("sizes %d <- %d at phases %u, %u, %lld elements: vec %d head %lld vectors %lld tail %lld\n",
                          ds, ss, static_cast<unsigned>(d), static_cast<unsigned>(s), static_cast<long long>(n),
                          p.vec, static_cast<long long>(p.head), static_cast<long long>(p.vectors),
                          static_cast<long long>(p.tail));
              fail();
            }
          }
        }
      }
    }
  }
  // float32 <- float64 at offsets 4 and 8: after one element both are 16-aligned.
  const VectorPlan p = plan_vectorized(4, 8, 4, 8, 10);
  assert_int_equal(p.vec, 4);
  assert_int_equal(p.head, 3);
  assert_int_equal(p.vectors, 1);
  assert_int_equal(p.tail, 3);
}

// The tile shapes of Note [Transpose tiles for small extents], as
// (log2 matrices, log2 rows, log2 cols) per tile.
void transpose_tiles_take_the_shape_of_the_matrices(void**) {
  const struct {
    uint32_t rows, cols;
    TransposeTileShape want;
  } cases[] = {
      {32, 32, {0, 5, 5}},     {1000, 1000, {0, 5, 5}}, {33, 4096, {0, 5, 5}}, {17, 17, {0, 5, 5}},
      {3, 50176, {0, 2, 8}},   {50176, 3, {0, 8, 2}},   {16, 1000, {0, 4, 6}}, {1000, 16, {0, 6, 4}},
      {16, 16, {2, 4, 4}},     {3, 5, {5, 2, 3}},       {2, 2, {8, 1, 1}},     {2, 100000, {0, 1, 9}},
      {3, 100, {1, 2, 7}},     {100, 3, {1, 7, 2}},
  };
  for (const auto& c : cases) {
    const TransposeTileShape got = plan_transpose_tile(c.rows, c.cols);
    if (!same_tile(got, c.want)) {
      print_error("%u x %u: tile %u/%u/%u (log2), expected %u/%u/%u\n", c.rows, c.cols, got.log_batches, got.log_rows,
                  got.log_cols, c.want.log_batches, c.want.log_rows, c.want.log_cols);
      fail();
    }
  }
}

void transpose_serves_differing_fastest_dims(void**) {
  const DimVector nchw{2, 32, 6, 7};
  // NCHW -> NHWC: dims (C, H×W, N) after coalescing; src fastest along H×W.
  {
    const Tensor dst = empty_cpu(nchw, channels_last_strides_2d(nchw), ScalarType::Float32);
    const TensorIterator it = TensorIterator::copy(dst, contiguous(nchw, ScalarType::Float16));
    assert_int_equal(it.ndim(), 3);
    assert_int_equal(transpose_col_dim(it), 1);
    const DeviceCopyPlan plan = plan_device_copy(it);
    assert_int_equal(static_cast<int>(plan.kernel), static_cast<int>(CopyKernel::Transpose));
    const TransposeCopyArgs a = make_transpose_args(it, 1);
    assert_int_equal(a.rows, 32);
    assert_int_equal(a.cols, 42);
    assert_int_equal(a.batches, 2);
    assert_true(same_tile(a.tile, {0, 5, 5}));
    assert_int_equal(a.row_tiles, 1);
    assert_int_equal(a.col_tiles, 2);
    assert_int_equal(a.batch_tiles, 2);
    assert_int_equal(a.dst_row_stride, 4);
    assert_int_equal(a.dst_col_stride, 32 * 4);
    assert_int_equal(a.src_row_stride, 42 * 2);
    assert_int_equal(a.src_col_stride, 2);
    const auto second = a.batch_offsets.get(1);
    assert_int_equal(second[0], 32 * 42 * 4);
    assert_int_equal(second[1], 32 * 42 * 2);
  }
  // Three channels, NCHW -> NHWC (rows: the channels): tiles of 4 × 256.
  {
    const DimVector small{2, 3, 224, 224};
    const Tensor dst = empty_cpu(small, channels_last_strides_2d(small), ScalarType::Float32);
    const TensorIterator it = TensorIterator::copy(dst, contiguous(small, ScalarType::UInt8));
    assert_int_equal(transpose_col_dim(it), 1);
    const DeviceCopyPlan plan = plan_device_copy(it);
    assert_int_equal(static_cast<int>(plan.kernel), static_cast<int>(CopyKernel::Transpose));
    const TransposeCopyArgs a = make_transpose_args(it, plan.transpose_col);
    assert_int_equal(a.rows, 3);
    assert_int_equal(a.cols, 224 * 224);
    assert_true(same_tile(a.tile, {0, 2, 8}));
    assert_int_equal(a.row_tiles, 1);
    assert_int_equal(a.col_tiles, 224 * 224 / 256);
    assert_int_equal(a.batch_tiles, 2);
  }
  // And back, NHWC -> NCHW (cols: the channels): tiles of 256 × 4.
  {
    const DimVector small{2, 3, 224, 224};
    const Tensor src = empty_cpu(small, channels_last_strides_2d(small), ScalarType::UInt8);
    const TensorIterator it = TensorIterator::copy(contiguous(small, ScalarType::Float32), src);
    const DeviceCopyPlan plan = plan_device_copy(it);
    assert_int_equal(static_cast<int>(plan.kernel), static_cast<int>(CopyKernel::Transpose));
    const TransposeCopyArgs a = make_transpose_args(it, plan.transpose_col);
    assert_int_equal(a.rows, 224 * 224);
    assert_int_equal(a.cols, 3);
    assert_true(same_tile(a.tile, {0, 8, 2}));
    assert_int_equal(a.row_tiles, 224 * 224 / 256);
    assert_int_equal(a.col_tiles, 1);
  }
  // A batch of 16 × 16 transposes: four matrices to a tile.
  {
    const Tensor src = transpose(contiguous({10, 16, 16}, ScalarType::Float32), 1, 2);
    const TensorIterator it = TensorIterator::copy(contiguous({10, 16, 16}, ScalarType::Float32), src);
    const DeviceCopyPlan plan = plan_device_copy(it);
    assert_int_equal(static_cast<int>(plan.kernel), static_cast<int>(CopyKernel::Transpose));
    const TransposeCopyArgs a = make_transpose_args(it, plan.transpose_col);
    assert_true(same_tile(a.tile, {2, 4, 4}));
    assert_int_equal(a.batches, 10);
    assert_int_equal(a.batch_tiles, 3);
    assert_int_equal(a.row_tiles, 1);
    assert_int_equal(a.col_tiles, 1);
  }
  // Same layout: one contiguous dim, raw bytes.
  {
    const TensorIterator it =
        TensorIterator::copy(contiguous(nchw, ScalarType::Int16), contiguous(nchw, ScalarType::Int16));
    assert_int_equal(transpose_col_dim(it), 0);
    assert_int_equal(static_cast<int>(plan_device_copy(it).kernel), static_cast<int>(CopyKernel::Bytes));
  }
  // src fastest along dim 0 too, only elsewhere strided: no transpose.
  {
    const Tensor src = slice(contiguous({40, 40}, ScalarType::Int32), 0, 0, 40, 1);
    const Tensor dst = slice(contiguous({40, 80}, ScalarType::Int32), 1, 0, 80, 2);
    const TensorIterator it = TensorIterator::copy(dst, src);
    assert_int_equal(transpose_col_dim(it), 0);
  }
  // A flipped src (stride −itemsize along its fastest dim) takes the strided kernel.
  {
    const Tensor src = flip(transpose(contiguous({40, 40}, ScalarType::Int32), 0, 1), 0);
    const TensorIterator it = TensorIterator::copy(contiguous({40, 40}, ScalarType::Int32), src);
    assert_int_equal(transpose_col_dim(it), 0);
    assert_int_equal(static_cast<int>(plan_device_copy(it).kernel), static_cast<int>(CopyKernel::Strided));
  }
}

void kernel_choice_follows_layout_dtype_and_alignment(void**) {
  // Contiguous conversion: vectorized, head 0 at the allocator's alignment.
  {
    const TensorIterator it =
        TensorIterator::copy(contiguous({100}, ScalarType::Float32), contiguous({100}, ScalarType::Int8));
    const DeviceCopyPlan p = plan_device_copy(it);
    assert_int_equal(static_cast<int>(p.kernel), static_cast<int>(CopyKernel::Vectorized));
    assert_int_equal(p.vector.vec, 16);
    assert_int_equal(p.vector.head, 0);
    assert_int_equal(p.vector.vectors, 6);
    assert_int_equal(p.vector.tail, 4);
  }
  // Broadcast src: strided.
  {
    const Tensor src = expand(contiguous({1, 5}, ScalarType::Float64), {4, 5});
    const TensorIterator it = TensorIterator::copy(contiguous({4, 5}, ScalarType::Float64), src);
    assert_int_equal(static_cast<int>(plan_device_copy(it).kernel), static_cast<int>(CopyKernel::Strided));
  }
  // A conversion between operands off their element alignment is the
  // caller's to stage; same-dtype copies of such memory are planned.
  {
    const Tensor base = contiguous({64}, ScalarType::UInt8);
    Storage odd = Storage::make(static_cast<char*>(base.data()) + 1, 32, cpu_device(), MemoryRelease{});
    const Tensor unaligned = Tensor::make(odd, {7}, {1}, 0, ScalarType::Int32);
    const TensorIterator convert = TensorIterator::copy(contiguous({7}, ScalarType::Float32), unaligned);
    try {
      plan_device_copy(convert);
      print_error("an unaligned conversion was planned\n");
      fail();
    } catch (const Error& e) {
      assert_int_equal(e.code(), ST_ERROR_INTERNAL);
    }
    const TensorIterator same = TensorIterator::copy(contiguous({7}, ScalarType::Int32), unaligned);
    const DeviceCopyPlan p = plan_device_copy(same);
    assert_false(p.aligned);
    assert_int_equal(static_cast<int>(p.kernel), static_cast<int>(CopyKernel::Bytes));
    assert_int_equal(p.bytes.word, 1);  // dst at 0 mod 16, src at 1
    const TensorIterator strided = TensorIterator::copy(contiguous({7}, ScalarType::Int32), flip(unaligned, 0));
    const DeviceCopyPlan q = plan_device_copy(strided);
    assert_false(q.aligned);
    assert_int_equal(static_cast<int>(q.kernel), static_cast<int>(CopyKernel::Strided));
  }
}

// Note [Integer conversions on the device]: for every integer pair, the
// kernel's destination dtype gives the same bytes as the pair's own
// conversion (core/numeric/convert.h), and a pair that copies bits keeps them; a
// contiguous int32 <- uint32 copy takes the bytes kernel.
template <typename Src>
int check_integer_pair_bits(std::mt19937_64& rng) {
  int bad = 0;
  std::vector<Src> values;
  for (int i = 0; i < 4096; ++i) values.push_back(static_cast<Src>(i < 256 ? i - 128 : static_cast<int64_t>(rng())));
  for (const DTypeInfo& row : kDTypes) {
    if (!is_integer_dtype(row.type)) continue;
    const ScalarType dst = row.type, src = scalar_type_of<Src>;
    if (!is_integer_dtype(src)) continue;
    const ScalarType kernel_dst = conversion_kernel_dst(dst, src);
    bad += itemsize(kernel_dst) != itemsize(dst);
    bad += !copies_bits(dst, src) && !has_converting_kernels(kernel_dst, src);
    for (Src v : values) {
      unsigned char want[16] = {}, got[16] = {};  // every dtype fits
      // The integer dtypes only reach these (float4_e2m1fn_x2 is never converted to).
      ST_DISPATCH_ALL_TYPES_AS(dst, "test", dst_t, [&] {
        if constexpr (!IsPacked<dst_t>::value) {
          const dst_t w = convert<dst_t>(v);
          std::memcpy(want, &w, sizeof w);
        }
      });
      if (copies_bits(dst, src)) {
        std::memcpy(got, &v, sizeof v);
      } else {
        ST_DISPATCH_ALL_TYPES_AS(kernel_dst, "test", dst_t, [&] {
          if constexpr (!IsPacked<dst_t>::value) {
            const dst_t g = convert<dst_t>(v);
            std::memcpy(got, &g, sizeof g);
          }
        });
      }
      if (std::memcmp(want, got, sizeof want) != 0) {
        if (bad++ < 5) print_error("%s <- %s: the device's kernel writes other bytes\n", dtype_name(int32_t(dst)),
                                   dtype_name(int32_t(src)));
      }
    }
  }
  return bad;
}

void integer_pairs_share_kernels_by_destination_width(void**) {
  std::mt19937_64 rng(test_seed("integer_pairs_share_kernels_by_destination_width"));
  const int bad = check_integer_pair_bits<uint8_t>(rng) + check_integer_pair_bits<int8_t>(rng) +
                  check_integer_pair_bits<int16_t>(rng) + check_integer_pair_bits<uint16_t>(rng) +
                  check_integer_pair_bits<int32_t>(rng) + check_integer_pair_bits<uint32_t>(rng) +
                  check_integer_pair_bits<int64_t>(rng) + check_integer_pair_bits<uint64_t>(rng);
  assert_int_equal(bad, 0);
  // 24 converting kernel sets among the 64 integer pairs; none for other
  // pairs that convert is left out, and none exists for the pairs that do
  // not (float4_e2m1fn_x2 with another dtype).
  int integer_sets = 0, other_sets = 0, other_pairs = 0, refused_sets = 0;
  for (const DTypeInfo& d : kDTypes) {
    for (const DTypeInfo& s : kDTypes) {
      const bool integers = is_integer_dtype(d.type) && is_integer_dtype(s.type);
      if (integers) {
        integer_sets += has_converting_kernels(d.type, s.type);
      } else if (!converts(d.type, s.type)) {
        refused_sets += has_converting_kernels(d.type, s.type);
      } else if (d.type != s.type) {
        ++other_pairs;
        other_sets += has_converting_kernels(d.type, s.type);
      }
    }
  }
  assert_int_equal(refused_sets, 0);
  assert_int_equal(integer_sets, 24);
  assert_int_equal(other_sets, other_pairs);
  const TensorIterator it =
      TensorIterator::copy(contiguous({100}, ScalarType::Int32), contiguous({100}, ScalarType::UInt32));
  const DeviceCopyPlan p = plan_device_copy(it);
  assert_int_equal(static_cast<int>(p.kernel), static_cast<int>(CopyKernel::Bytes));
  assert_true(p.same);
  const TensorIterator widen =
      TensorIterator::copy(contiguous({100}, ScalarType::Int64), contiguous({100}, ScalarType::Int8));
  assert_true(plan_device_copy(widen).kernel_dst == ScalarType::UInt64);
}

// For random iterators split under random limits, as the CUDA path splits
// them: the adaptor's offsets of each part, in order, are the addresses
// the part's own loop visits, and the parts cover each element once.
void offset_calculators_walk_every_part(void**) {
  std::mt19937_64 rng(test_seed("offset_calculators_walk_every_part"));
  for (int c = 0; c < 400; ++c) {
    const DimVector sizes = copy_cases::random_sizes(rng);
    const Tensor dst = copy_cases::random_tensor(rng, sizes, copy_cases::random_dtype(rng), false);
    const DimVector src_sizes = pick(rng, 0, 3) == 0 ? copy_cases::broadcast_sizes(rng, sizes) : sizes;
    const Tensor src = copy_cases::random_tensor(rng, src_sizes, copy_cases::random_dtype(rng), true);
    const TensorIterator it = TensorIterator::copy(dst, src);
    if (it.numel() == 0) continue;
    const int64_t limit = pick(rng, 0, 3) == 0 ? TensorIterator::k32BitLimit : pick(rng, 48, 3000);
    const char* dst_base = static_cast<const char*>(dst.storage()->base());
    std::vector<int> hits(dst.storage()->nbytes(), 0);
    bool ok = true;
    it.with_32bit_indexing(
        [&](const TensorIterator& part) {
          if (!ok) return;
          ok = part.can_use_32bit_indexing(limit);
          const OffsetCalculator<2> calc = make_offset_calculator<2>(part);
          uint32_t i = 0;
          part.serial_for_each(
              [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
                for (int64_t j = 0; j < n1; ++j) {
                  for (int64_t k = 0; k < n0; ++k, ++i) {
                    const char* want_dst = data[0] + j * strides[2] + k * strides[0];
                    const char* want_src = data[1] + j * strides[3] + k * strides[1];
                    const auto got = calc.get(i);
                    ok = ok && part.data_ptr(0) + got[0] == want_dst && part.data_ptr(1) + got[1] == want_src;
                    ++hits[static_cast<size_t>(want_dst - dst_base)];
                  }
                }
              },
              Range{0, part.numel()});
          ok = ok && i == part.numel();
          // The transpose kernel's view of the same part, where it applies.
          const int col = transpose_col_dim(part);
          if (col == 0) return;
          const TransposeCopyArgs a = make_transpose_args(part, col);
          std::vector<int> seen(dst.storage()->nbytes(), 0);
          for (uint32_t b = 0; b < a.batches; ++b) {
            const auto base = a.batch_offsets.get(b);
            for (uint32_t r = 0; r < a.rows; ++r)
              for (uint32_t q = 0; q < a.cols; ++q)
                ++seen[static_cast<size_t>(part.data_ptr(0) + base[0] + r * a.dst_row_stride + q * a.dst_col_stride -
                                           dst_base)];
          }
          part.serial_for_each(
              [&](char** data, const int64_t* strides, int64_t n0, int64_t n1) {
                for (int64_t j = 0; j < n1; ++j)
                  for (int64_t k = 0; k < n0; ++k)
                    ok = ok && seen[static_cast<size_t>(data[0] + j * strides[2] + k * strides[0] - dst_base)] == 1;
              },
              Range{0, part.numel()});
        },
        limit);
    // Each element of dst (by its byte offset in the storage) was visited once.
    std::vector<int> want(hits.size(), 0);
    for (int64_t offset : copy_cases::element_byte_offsets(dst)) ++want[static_cast<size_t>(offset)];
    ok = ok && hits == want;
    if (!ok) {
      print_error("dst %s <- src %s, limit %lld: offsets or coverage wrong\n", describe(dst).c_str(),
                  describe(src).c_str(), static_cast<long long>(limit));
      fail();
    }
  }
}

// ---- A copy plan's parts (cuda/kernels/copy_part.h), made once and placed on the
// memory of each execute, against an iteration built afresh over tensors at
// those addresses: what the launch code reads of each part must agree.

template <int N>
bool same_offsets(const OffsetCalculator<N>& a, const OffsetCalculator<N>& b, uint32_t count) {
  if (a.dims() != b.dims()) return false;
  for (uint32_t i = 0; i < count; ++i) {
    const auto x = a.get(i), y = b.get(i);
    for (int k = 0; k < N; ++k)
      if (x[k] != y[k]) return false;
  }
  return true;
}

bool same_part(const CopyPart& placed, const TensorIterator& fresh) {
  bool ok = placed.ndim() == fresh.ndim() && placed.shape() == fresh.shape() && placed.numel() == fresh.numel() &&
            placed.ntensors() == fresh.ntensors() && placed.is_contiguous() == fresh.is_contiguous();
  for (int k = 0; ok && k < fresh.ntensors(); ++k) {
    ok = placed.strides(k) == fresh.strides(k) && placed.data_ptr(k) == fresh.data_ptr(k) &&
         placed.dtype(k) == fresh.dtype(k) && placed.element_size(k) == fresh.element_size(k);
  }
  return ok;
}

bool same_plan(const DeviceCopyPlan& a, const DeviceCopyPlan& b) {
  return a.kernel == b.kernel && a.same == b.same && a.kernel_dst == b.kernel_dst && a.aligned == b.aligned &&
         a.bytes.word == b.bytes.word && a.bytes.head == b.bytes.head && a.bytes.words == b.bytes.words &&
         a.bytes.tail == b.bytes.tail && a.vector.vec == b.vector.vec && a.vector.head == b.vector.head &&
         a.vector.vectors == b.vector.vectors && a.vector.tail == b.vector.tail && a.transpose_col == b.transpose_col;
}

bool same_transpose(const TransposeCopyArgs& a, const TransposeCopyArgs& b) {
  return a.dst == b.dst && a.src == b.src && a.rows == b.rows && a.cols == b.cols &&
         a.dst_row_stride == b.dst_row_stride && a.dst_col_stride == b.dst_col_stride &&
         a.src_row_stride == b.src_row_stride && a.src_col_stride == b.src_col_stride && same_tile(a.tile, b.tile) &&
         a.row_tiles == b.row_tiles && a.col_tiles == b.col_tiles && a.batches == b.batches &&
         a.batch_tiles == b.batch_tiles &&
         same_offsets(a.batch_offsets, b.batch_offsets, a.batches);
}

// Whether planning the part throws (an unaligned conversion, which the
// kernels refuse), and the plan when it does not.
template <typename Part>
bool try_plan(const Part& part, DeviceCopyPlan* plan) {
  try {
    *plan = plan_device_copy(part);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// One plain case: the placed parts of (dst, src) on (dst2, src2) against
// the parts of an iterator over (dst2, src2), split under the same limit.
bool check_placed_parts(const Tensor& dst, const Tensor& src, const Tensor& dst2, const Tensor& src2, int64_t limit) {
  const std::vector<RelativePart> parts = relative_parts(TensorIterator::copy(dst, src), dst.data(), src.data(), limit);
  char* const d = static_cast<char*>(dst2.data());
  const char* const s = static_cast<const char*>(src2.data());
  const bool taken = kernels_take(dst.dtype(), src.dtype(), false, d, s);
  size_t i = 0;
  bool ok = true;
  TensorIterator::copy(dst2, src2).with_32bit_indexing(
      [&](const TensorIterator& fresh) {
        if (!ok || i >= parts.size()) {
          ok = false;
          return;
        }
        const CopyPart placed = parts[i++].at(d, s);
        ok = same_part(placed, fresh);
        // kernels_take answers as the kernel choice does: it plans exactly
        // the parts whose addresses it takes.
        DeviceCopyPlan got{}, want{};
        const bool planned = try_plan(placed, &got);
        ok = ok && planned == taken && planned == try_plan(fresh, &want);
        if (!ok || !planned) return;
        ok = same_plan(got, want) &&
             same_offsets(make_offset_calculator<2>(placed), make_offset_calculator<2>(fresh),
                          static_cast<uint32_t>(fresh.numel()));
        if (ok && want.kernel == CopyKernel::Transpose) {
          ok = same_transpose(make_transpose_args(placed, want.transpose_col),
                              make_transpose_args(fresh, want.transpose_col));
        }
      },
      limit);
  ok = ok && i == parts.size();
  if (!ok) {
    print_error("dst %s <- src %s, limit %lld, %zu parts, placed at phases %u, %u: differs from a fresh iteration\n",
                describe(dst).c_str(), describe(src).c_str(), static_cast<long long>(limit), parts.size(),
                static_cast<unsigned>(reinterpret_cast<uintptr_t>(d) % 16),
                static_cast<unsigned>(reinterpret_cast<uintptr_t>(s) % 16));
  }
  return ok;
}

// Random layouts and dtype pairs over storages at random phases, placed on
// the same layouts over other storages at other phases, under random
// 32-bit limits (small ones split into many parts).
void placed_parts_match_a_fresh_iteration(void**) {
  std::mt19937_64 rng(test_seed("placed_parts_match_a_fresh_iteration"));
  int kinds[4] = {}, refused = 0, split = 0;
  for (int c = 0; c < 1000; ++c) {
    const auto phase = [&] { return copy_cases::random_phase(rng); };
    copy_cases::Case k = copy_cases::random_case(rng, false, phase(), phase());
    if (c % 8 == 0) {
      // A transpose with room for tiles, which random layouts seldom leave.
      const DimVector matrix{pick(rng, 16, 40), pick(rng, 16, 40)};
      k.dst = copy_cases::random_tensor(rng, matrix, k.dst.dtype(), false, phase());
      k.src = transpose(copy_cases::random_tensor(rng, {matrix[1], matrix[0]}, k.src.dtype(), false, phase()), 0, 1);
    }
    const Tensor &dst = k.dst, &src = k.src;
    if (dst.numel() == 0) continue;
    const Tensor dst2 = copy_cases::elsewhere(rng, dst, phase()), src2 = copy_cases::elsewhere(rng, src, phase());
    const int64_t limit = pick(rng, 0, 2) == 0 ? TensorIterator::k32BitLimit : pick(rng, 48, 3000);
    if (!check_placed_parts(dst, src, dst2, src2, limit)) fail();
    // What the cases reached.
    const TensorIterator it = TensorIterator::copy(dst2, src2);
    split += !it.can_use_32bit_indexing(limit);
    if (!kernels_take(dst.dtype(), src.dtype(), false, dst2.data(), src2.data())) {
      ++refused;
    } else if (it.can_use_32bit_indexing()) {
      ++kinds[static_cast<int>(plan_device_copy(it).kernel)];
    }
  }
  print_message("kernels: bytes %d, vectorized %d, transpose %d, strided %d; unaligned conversions %d; split %d\n",
                kinds[0], kinds[1], kinds[2], kinds[3], refused, split);
  for (int k : kinds) assert_true(k > 0);
  assert_true(refused > 0);
  assert_true(split > 0);
}

// The scaled copy's parts: four operands, the scales and shifts keeping
// their own addresses.
void placed_scaled_parts_match_a_fresh_iteration(void**) {
  std::mt19937_64 rng(test_seed("placed_scaled_parts_match_a_fresh_iteration"));
  for (int c = 0; c < 600; ++c) {
    const auto phase = [&] { return copy_cases::random_phase(rng); };
    const copy_cases::Case k = copy_cases::random_case(rng, true, phase(), phase());
    const Tensor &dst = k.dst, &src = k.src;
    if (dst.numel() == 0) continue;
    const ScaleShift ss = copy_cases::random_scale_shift(rng, dst, src);
    const DimVector count{2 * ss.n};
    const Tensor values = empty_cpu(count, contiguous_strides(count), ss.compute);
    const Tensor dst2 = copy_cases::elsewhere(rng, dst, phase()), src2 = copy_cases::elsewhere(rng, src, phase());
    const int64_t limit = pick(rng, 0, 2) == 0 ? TensorIterator::k32BitLimit : pick(rng, 48, 3000);
    const std::vector<RelativePart> parts =
        relative_parts(TensorIterator::scaled_copy(dst, src, ss, values.data()), dst.data(), src.data(), limit);
    char* const d = static_cast<char*>(dst2.data());
    const char* const s = static_cast<const char*>(src2.data());
    size_t i = 0;
    bool ok = true;
    TensorIterator::scaled_copy(dst2, src2, ss, values.data())
        .with_32bit_indexing(
            [&](const TensorIterator& fresh) {
              if (!ok || i >= parts.size()) {
                ok = false;
                return;
              }
              const CopyPart placed = parts[i++].at(d, s);
              const ScaledCopyArgs a = scaled_copy_args(placed, ss.saturate);
              const ScaledCopyArgs b = scaled_copy_args(fresh, ss.saturate);
              ok = same_part(placed, fresh) && a.dst == b.dst && a.src == b.src && a.scale == b.scale &&
                   a.shift == b.shift && a.numel == b.numel && a.saturate == b.saturate &&
                   same_offsets(a.offsets, b.offsets, a.numel);
            },
            limit);
    if (!ok || i != parts.size()) {
      print_error("scaled dst %s <- src %s (dim %d, n %lld), limit %lld: differs from a fresh iteration\n",
                  describe(dst).c_str(), describe(src).c_str(), ss.dim, static_cast<long long>(ss.n),
                  static_cast<long long>(limit));
      fail();
    }
  }
}

// The kernels take a conversion or a scaled copy only at element-aligned
// addresses, and a copy that keeps the bits anywhere.
void kernels_take_aligned_conversions_and_any_bit_copy(void**) {
  alignas(16) static char memory[64];
  char* const at = memory;
  assert_true(kernels_take(ScalarType::Float32, ScalarType::Int16, false, at + 4, at + 2));
  assert_false(kernels_take(ScalarType::Float32, ScalarType::Int16, false, at + 2, at + 2));
  assert_false(kernels_take(ScalarType::Float32, ScalarType::Int16, false, at + 4, at + 1));
  assert_true(kernels_take(ScalarType::Int32, ScalarType::Int32, false, at + 1, at + 3));
  assert_true(kernels_take(ScalarType::Int32, ScalarType::UInt32, false, at + 1, at + 3));  // the same bits
  assert_false(kernels_take(ScalarType::Int32, ScalarType::Int32, true, at + 1, at + 4));
  assert_true(kernels_take(ScalarType::Int32, ScalarType::Int32, true, at + 4, at + 8));
  assert_true(kernels_take(ScalarType::UInt8, ScalarType::Float64, true, at + 3, at + 8));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bytes_plan_aligns_both_sides),
      cmocka_unit_test(vector_plan_finds_the_first_common_alignment),
      cmocka_unit_test(transpose_tiles_take_the_shape_of_the_matrices),
      cmocka_unit_test(transpose_serves_differing_fastest_dims),
      cmocka_unit_test(kernel_choice_follows_layout_dtype_and_alignment),
      cmocka_unit_test(integer_pairs_share_kernels_by_destination_width),
      cmocka_unit_test(offset_calculators_walk_every_part),
      cmocka_unit_test(placed_parts_match_a_fresh_iteration),
      cmocka_unit_test(placed_scaled_parts_match_a_fresh_iteration),
      cmocka_unit_test(kernels_take_aligned_conversions_and_any_bit_copy),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
