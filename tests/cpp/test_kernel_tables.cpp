// Every instruction-set level's kernel tables (CopyKernelTable,
// ConvertKernelTable) called directly, not through the copy drivers, against
// reference loops written here. The cases are the edges of kernels written
// once over vector traits of different widths: heads before the first
// aligned vector and tails after the last full one (lengths 0 to past two
// vectors, every dst offset within a line, rows off their line), every
// itemsize 1, 2, 4, 8, 16, streaming on and off, partial tiles of every
// transpose, the tiny-dim paths. Each dst buffer is compared whole, margins
// included, and src buffers end at their last element, so ASan sees any
// read past it.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "convert_pairs.h"
#include "cpu/cpu_isa.h"
#include "cpu/levels/convert_kernel_table.h"
#include "cpu/levels/copy_kernel_table.h"
#include "cpu/stream_tuning.h"
#include "cpu/transpose_tuning.h"
#include "random_copy_geometry.h"
#include "cmocka_cxx.h"

using st::cpu::ConvertKernelTable;
using st::cpu::ConvertPair;
using st::cpu::CopyKernelTable;
using st::cpu::CpuIsa;
using st::cpu::Rows2d;
using st::cpu::Transpose2d;
using Bytes = std::vector<unsigned char>;

namespace {

const int64_t kItemsizes[] = {1, 2, 4, 8, 16};

struct Level {
  const CopyKernelTable* copy;
  const ConvertKernelTable* convert;
};

// The levels this machine runs (the x86 ones exist on x86-64 targets only,
// NEON on AArch64 only).
std::vector<Level> levels() {
  std::vector<Level> v{{&st::cpu::scalar_copy_kernels(), &st::cpu::scalar_convert_kernels()}};
#if ST_CPU_X86_LEVELS
  const CpuIsa detected = st::cpu::detected_cpu_isa();
  if (detected >= CpuIsa::Avx2) v.push_back({&st::cpu::avx2_copy_kernels(), &st::cpu::avx2_convert_kernels()});
  if (detected >= CpuIsa::Avx512) v.push_back({&st::cpu::avx512_copy_kernels(), &st::cpu::avx512_convert_kernels()});
  if (st::cpu::cpu_has_avx512_bf16()) {
    v.push_back({&st::cpu::avx512_copy_kernels(), &st::cpu::avx512_bf16_convert_kernels()});
  } else if (detected >= CpuIsa::Avx512) {
    static const bool said = std::printf("AVX512_BF16's row converter not checked: this CPU lacks AVX512_BF16\n") > 0;
    (void)said;
  }
#elif ST_CPU_NEON_LEVEL
  if (st::cpu::detected_cpu_isa() >= CpuIsa::Neon) {
    v.push_back({&st::cpu::neon_copy_kernels(), &st::cpu::neon_convert_kernels()});
  }
#endif
  return v;
}

// n bytes (one for n = 0: data() is then not null).
Bytes random_bytes(int64_t n, uint64_t seed) {
  Bytes b(static_cast<size_t>(n > 0 ? n : 1));
  test_support::fill_random(b, seed);
  return b;
}

// A dst: `bytes` from a 64-byte aligned line on, with margins of 0xCD on
// both sides, and the buffer it must equal afterwards.
struct Dst {
  Bytes got, want;
  char* line;
  explicit Dst(int64_t bytes) : got(static_cast<size_t>(bytes) + 320, 0xCD), want(got) {
    line = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(got.data()) + 128 + 63) & ~uintptr_t{63});
  }
  // The place in `want` of a pointer into `got`.
  char* twin(const char* p) { return reinterpret_cast<char*>(want.data()) + (p - reinterpret_cast<char*>(got.data())); }
};

// Counts a failure, printing the first few.
struct Failures {
  int count = 0;
  template <typename... Args>
  void add(const char* format, Args... args) {
    if (++count <= 8) std::printf(format, args...);
  }
};

// Lengths in elements around 0, one and two vectors of every level (up to
// 64 bytes), and past the 256 bytes from which contiguous rows stream.
std::vector<int64_t> lengths(int64_t itemsize) {
  std::vector<int64_t> n;
  for (int64_t k = 0; k <= 2 * 64 / itemsize + 2; ++k) n.push_back(k);
  for (int64_t bytes : {255, 256, 257, 320, 1000, 4099}) n.push_back(bytes / itemsize + (bytes % itemsize != 0));
  return n;
}

void stream_copy_matches_memcpy_at_every_head_and_tail(void**) {
  Failures bad;
  for (const Level& level : levels()) {
    for (int64_t n : lengths(1)) {
      for (int64_t src_off : {0, 1, 5}) {
        const Bytes src = random_bytes(n + src_off, static_cast<uint64_t>(n));
        for (int64_t off = 0; off < 64; ++off) {
          Dst d(n + 64);
          char* dst = d.line + off;
          std::memcpy(d.twin(dst), src.data() + src_off, static_cast<size_t>(n));
          level.copy->stream_copy(dst, reinterpret_cast<const char*>(src.data()) + src_off, n);
          if (d.got != d.want) {
            bad.add("  %s stream_copy n %" PRId64 " dst offset %" PRId64 "\n", level.copy->name, n, off);
          }
        }
      }
    }
  }
  assert_int_equal(bad.count, 0);
}

// The Rows2d pieces, three rows off their lines each, from dst offsets on
// and off a line and off an element: copies (src step 1), fills (step 0),
// and gathers: reversed, every second, every third (gather instructions
// where the level has them) and other steps.
void row_kernels_match_reference_at_every_edge(void**) {
  Failures bad;
  for (const Level& level : levels()) {
    for (int64_t e : kItemsizes) {
      for (int64_t n : lengths(e)) {
        for (int64_t step : {1, 0, -1, 2, 3, -2, 5}) {
          const int64_t ss = step * e, m = 3, span = n ? (n - 1) * (step < 0 ? -ss : ss) + e : 0;
          const int64_t spitch = span + 3, dpitch = n * e + 13;
          const Bytes src_buf = random_bytes((m - 1) * spitch + span, static_cast<uint64_t>(n * 7 + step + e));
          // Row k's first element; reversed rows start at their end.
          const char* src = reinterpret_cast<const char*>(src_buf.data()) + (step < 0 && n ? span - e : 0);
          const char* kind = step == 1 ? "copy_rows" : step == 0 ? "fill_rows" : "gather_rows";
          for (int nt = 0; nt < 2; ++nt) {
            for (int64_t off : {int64_t{0}, int64_t{1}, int64_t{3}, e, int64_t{60}}) {
              Dst d((m - 1) * dpitch + n * e + 64);
              char* dst = d.line + off;
              Rows2d r{dst, src, n, m, e, ss, dpitch, spitch, e, nt != 0};
              for (int64_t k = 0; k < m; ++k) {
                for (int64_t i = 0; i < n; ++i) {
                  std::memcpy(d.twin(dst + k * dpitch + i * e), src + k * spitch + i * ss, static_cast<size_t>(e));
                }
              }
              (step == 1 ? level.copy->copy_rows : step == 0 ? level.copy->fill_rows : level.copy->gather_rows)(r);
              if (d.got != d.want) {
                bad.add("  %s %s itemsize %" PRId64 " n %" PRId64 " step %" PRId64 " nt %d dst offset %" PRId64 "\n",
                        level.copy->name, kind, e, n, step, nt, off);
              }
            }
          }
        }
      }
    }
  }
  assert_int_equal(bad.count, 0);
}

// One transpose: dst[b][i + j*dst_col] = src[b][i*src_row + j], byte
// strides, checked whole.
bool transpose_case(const CopyKernelTable& table, Transpose2d t, int64_t dst_off, Failures& bad, const char* what) {
  const int64_t e = t.itemsize;
  const int64_t src_bytes = (t.batch - 1) * t.src_batch + (t.rows - 1) * t.src_row + t.cols * e;
  const int64_t dst_bytes = (t.batch - 1) * t.dst_batch + (t.cols - 1) * t.dst_col + t.rows * e;
  const Bytes src = random_bytes(src_bytes, static_cast<uint64_t>(t.rows * 131 + t.cols * 7 + e));
  Dst d(dst_bytes + 64);
  t.dst = d.line + dst_off;
  t.src = reinterpret_cast<const char*>(src.data());
  for (int64_t b = 0; b < t.batch; ++b) {
    for (int64_t i = 0; i < t.rows; ++i) {
      for (int64_t j = 0; j < t.cols; ++j) {
        std::memcpy(d.twin(t.dst + b * t.dst_batch + i * e + j * t.dst_col),
                    t.src + b * t.src_batch + i * t.src_row + j * e, static_cast<size_t>(e));
      }
    }
  }
  table.transpose(t);
  if (d.got == d.want) return true;
  bad.add("  %s transpose (%s) itemsize %" PRId64 " rows %" PRId64 " cols %" PRId64 " batch %" PRId64 "\n", table.name,
          what, e, t.rows, t.cols, t.batch);
  return false;
}

// Sizes around every tile of every level (4 to 64 elements a side); plain
// and streamed (whole dst lines, as the drivers ask); strides exact (the
// tiny-dim paths: NHWC with 2-4 channels and back) and padded.
void transposes_match_reference_at_partial_tiles_and_tiny_dims(void**) {
  const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129};
  Failures bad;
  for (const Level& level : levels()) {
    for (int64_t e : kItemsizes) {
      for (int64_t rows : sizes) {
        for (int64_t cols : sizes) {
          Transpose2d t{};
          t.rows = rows;
          t.cols = cols;
          t.itemsize = e;
          // Padded strides, two batches, dst off its line by an element;
          // the smallest blocks (a line of each dst and src row).
          t.batch = 2;
          t.src_row = cols * e + 8;
          t.dst_col = rows * e + 3 * e;
          t.src_batch = rows * t.src_row + 40;
          t.dst_batch = cols * t.dst_col + 24;
          t.block_dst_bytes = st::cpu::kMinTransposeBlockBytes;
          t.block_src_bytes = st::cpu::kMinTransposeBlockBytes;
          transpose_case(*level.copy, t, e, bad, "padded");
          // Streamed, with each candidate's blocks: dst rows start on lines.
          t.batch = 1;
          t.src_row = cols * e;
          t.dst_col = (rows * e + 63) / 64 * 64;
          t.nt = t.streamed = t.prefetch_head = true;
          for (const st::cpu::TransposeTuning& c : st::cpu::kTransposeCandidate) {
            t.block_dst_bytes = c.dst_bytes;
            t.block_src_bytes = c.src_bytes;
            t.prefetch_bytes = c.prefetch_bytes;
            transpose_case(*level.copy, t, 0, bad, "streamed, a candidate's blocks");
          }
          // Src prefetched ahead of one-line blocks.
          t.block_dst_bytes = 64;
          t.block_src_bytes = 1024;
          t.prefetch_bytes = 16 * 1024;
          transpose_case(*level.copy, t, 0, bad, "streamed, short blocks");
          // Streamed without prefetching; blocks of two lines each way.
          t.block_src_bytes = 128;
          t.block_dst_bytes = 128;
          t.prefetch_bytes = 0;
          transpose_case(*level.copy, t, 0, bad, "streamed, no prefetch");
          // Blocks taller than many tiles (dst runs of 256 bytes).
          t.block_dst_bytes = 256;
          transpose_case(*level.copy, t, 0, bad, "streamed, tall blocks");
          t.block_dst_bytes = st::cpu::kCachedBlockDstBytes;
          // Exact strides: contiguous src and dst blocks.
          t.dst_col = rows * e;
          t.nt = t.prefetch_head = false;
          t.block_src_bytes = 1024;
          t.prefetch_bytes = 16 * 1024;
          transpose_case(*level.copy, t, 0, bad, "exact, prefetched");
          t.streamed = false;
          t.prefetch_bytes = 0;
          transpose_case(*level.copy, t, 4, bad, "exact");
        }
      }
    }
  }
  assert_int_equal(bad.count, 0);
}

// Every dst offset within a line (every head, and dsts off an element),
// lengths 0 to past two lines, streamed and not.
void row_converters_match_rules_at_every_head_and_tail(void**) {
  Failures bad;
  for (const Level& level : levels()) {
    for (const test_support::ConvertPairCase& p : test_support::kConvertPairs) {
      const int64_t de = static_cast<int64_t>(st::itemsize(p.dst)), se = static_cast<int64_t>(st::itemsize(p.src));
      for (int64_t n : lengths(1)) {
        if (n > 300) continue;
        const Bytes src = random_bytes(n * se, static_cast<uint64_t>(n * 3 + se));
        for (int64_t off = 0; off <= 64; ++off) {
          for (int nt = 0; nt < 2; ++nt) {
            Dst d(n * de + 64);
            char* dst = d.line + off;
            const char* s = reinterpret_cast<const char*>(src.data());
            for (int64_t i = 0; i < n; ++i) p.one(d.twin(dst + i * de), s + i * se);
            level.convert->row[static_cast<int>(p.pair)](dst, s, n, nt != 0);
            if (d.got != d.want) {
              bad.add("  %s %s n %" PRId64 " dst offset %" PRId64 " nt %d\n", level.convert->name, p.name, n, off, nt);
            }
          }
        }
      }
    }
  }
  assert_int_equal(bad.count, 0);
}

// Long streamed runs written 1, 2 and 4 pages side by side (whatever this
// CPU chose), their sources prefetched or not: whole blocks of pages,
// blocks and a rest, lengths off a page, dsts off their line (the head
// before the first line) and srcs off an element; contiguous copies and
// every row converter.
void streamed_runs_match_reference_with_pages_side_by_side(void**) {
  const st::cpu::StreamTuning chosen = st::cpu::stream_tuning();
  const int64_t kPage = 4096;
  Failures bad;
  // Rows that prefetch write in order whatever the pages; the others go
  // 1, 2 or 4 pages side by side.
  const struct {
    int pages;
    int64_t prefetch;
  } tunings[] = {{1, 0}, {2, 0}, {4, 0}, {4, 4096}};
  for (const auto& tuning : tunings) {
    const int pages = tuning.pages;
    st::cpu::set_stream_tuning({chosen.threshold_bytes, pages, tuning.prefetch});
    for (const Level& level : levels()) {
      for (int64_t n : {4 * kPage - 1, 4 * kPage, 4 * kPage + 256 + 17, 12 * kPage + 999, 8 * kPage + 64 * 3}) {
        for (int64_t src_off : {0, 3}) {
          const Bytes src = random_bytes(n + src_off, static_cast<uint64_t>(n + pages));
          for (int64_t off : {0, 1, 63}) {
            Dst d(n + 64);
            char* dst = d.line + off;
            std::memcpy(d.twin(dst), src.data() + src_off, static_cast<size_t>(n));
            level.copy->stream_copy(dst, reinterpret_cast<const char*>(src.data()) + src_off, n);
            if (d.got != d.want) {
              bad.add("  %s stream_copy pages %d prefetch %" PRId64 " n %" PRId64 " dst offset %" PRId64
                      " src offset %" PRId64 "\n",
                      level.copy->name, pages, tuning.prefetch, n, off, src_off);
            }
          }
        }
      }
      for (const test_support::ConvertPairCase& p : test_support::kConvertPairs) {
        const int64_t de = static_cast<int64_t>(st::itemsize(p.dst)), se = static_cast<int64_t>(st::itemsize(p.src));
        const int64_t n = (8 * kPage + 3 * 64) / de + 5;  // two blocks of four pages and a rest
        const Bytes src = random_bytes(n * se, static_cast<uint64_t>(n * se + pages));
        const char* s = reinterpret_cast<const char*>(src.data());
        for (int64_t off : {int64_t{0}, de, 64 - de}) {
          Dst d(n * de + 64);
          char* dst = d.line + off;
          for (int64_t i = 0; i < n; ++i) p.one(d.twin(dst + i * de), s + i * se);
          level.convert->row[static_cast<int>(p.pair)](dst, s, n, true);
          if (d.got != d.want) {
            bad.add("  %s %s streamed pages %d prefetch %" PRId64 " dst offset %" PRId64 "\n", level.convert->name,
                    p.name, pages, tuning.prefetch, off);
          }
        }
      }
    }
  }
  st::cpu::set_stream_tuning(chosen);
  assert_int_equal(bad.count, 0);
}

// uint8 groups of 2-4 channels into float32 planes, at lengths around the
// 16-pixel steps, streamed (planes on lines) and not. Every level with a
// fused deinterleave takes 3 channels (RGB pixels); one may also take 2 or
// 4. Other shapes and pairs, and any it refuses, leave dst as it was.
void fused_deinterleave_matches_rules_and_refuses_other_shapes(void**) {
  Failures bad;
  int levels_with_one = 0;
  for (const Level& level : levels()) {
    const st::cpu::ConvertDeinterleaveFn fused = level.convert->deinterleave;
    if (fused == nullptr) continue;
    ++levels_with_one;
    for (int64_t cols = 1; cols <= 5; ++cols) {
      for (int64_t rows : {0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 100, 257}) {
        const Bytes src = random_bytes(rows * cols, static_cast<uint64_t>(rows * cols));
        for (int nt = 0; nt < 2; ++nt) {
          const int64_t dst_col = (rows * 4 + 63) / 64 * 64 + (nt ? 0 : 4);
          Dst d(cols * dst_col + 64);
          char* dst = d.line + (nt ? 0 : 4);
          const char* s = reinterpret_cast<const char*>(src.data());
          const bool done = fused(ConvertPair::UInt8ToFloat32, dst, dst_col, s, rows, cols, nt != 0);
          for (int64_t c = 0; done && c < cols; ++c) {
            for (int64_t i = 0; i < rows; ++i) {
              const float v = static_cast<float>(src[static_cast<size_t>(i * cols + c)]);
              std::memcpy(d.twin(dst + c * dst_col + i * 4), &v, 4);
            }
          }
          const bool may = cols >= 2 && cols <= 4, must = cols == 3;
          const char* wrong = done && !may   ? "took a shape it must refuse"
                              : must && !done ? "refused RGB pixels"
                              : d.got != d.want ? "wrong values or a write when refusing"
                                                : nullptr;
          if (wrong) {
            bad.add("  %s deinterleave rows %" PRId64 " cols %" PRId64 " nt %d: %s\n", level.convert->name, rows,
                    cols, nt, wrong);
          }
          if (fused(ConvertPair::Float16ToFloat32, dst, dst_col, s, rows / 2, cols, false) || d.got != d.want) {
            bad.add("  %s deinterleave of float16 was not refused\n", level.convert->name);
          }
        }
      }
    }
  }
  std::printf("  %d of %zu levels have the fused deinterleave\n", levels_with_one, levels().size());
  assert_int_equal(bad.count, 0);
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stream_copy_matches_memcpy_at_every_head_and_tail),
      cmocka_unit_test(row_kernels_match_reference_at_every_edge),
      cmocka_unit_test(transposes_match_reference_at_partial_tiles_and_tiny_dims),
      cmocka_unit_test(row_converters_match_rules_at_every_head_and_tail),
      cmocka_unit_test(fused_deinterleave_matches_rules_and_refuses_other_shapes),
      cmocka_unit_test(streamed_runs_match_reference_with_pages_side_by_side),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
