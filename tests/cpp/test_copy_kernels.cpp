// The same-dtype CPU copy kernels against a plain multi-index loop written
// here, on random geometries (1-6 dims, sizes 0..~100 and a few large ones,
// permutations, flips, steps, broadcast dims, padded dst), for every
// itemsize, at every instruction-set level this machine has, on 1 and 2
// threads. The whole dst buffer is compared, so writes outside the
// elements are caught too. A failing case prints its seed and geometry.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

// core/error.h before cmocka, whose fail() macro would rename st::fail.
#include "core/error.h"
#include "core/runtime/thread_count.h"
#include "cpu/copy_same_dtype.h"
#include "cpu/cpu_isa.h"
#include "cpu/levels/copy_kernel_table.h"
#include "cpu/stream_tuning.h"
#include "iter/geometry.h"
#include "random_copy_geometry.h"
#include "cmocka_cxx.h"

using st::Geometry;
using st::cpu::CopyPath;
using st::cpu::CpuIsa;
using test_support::Case;
using test_support::fill_random;
using test_support::for_each_isa_and_threads;
using test_support::make_case;

namespace {

const int64_t kItemsizes[] = {1, 2, 4, 8, 16};

// The reference: every index of the geometry as given, element by element.
template <int E>
void copy_run(char* dst, const char* src, int64_t n, int64_t dstep, int64_t sstep) {
  for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * dstep, src + i * sstep, E);
}

void reference_copy(const Geometry& g, int64_t itemsize) {
  switch (itemsize) {
    case 1: return test_support::for_each_dim0_run(g, copy_run<1>);
    case 2: return test_support::for_each_dim0_run(g, copy_run<2>);
    case 4: return test_support::for_each_dim0_run(g, copy_run<4>);
    case 8: return test_support::for_each_dim0_run(g, copy_run<8>);
    default: return test_support::for_each_dim0_run(g, copy_run<16>);
  }
}

void describe(const Geometry& g, int64_t itemsize, uint64_t seed) {
  std::printf("seed %" PRIu64 " itemsize %" PRId64 " isa %s threads %d ndim %d\n", seed, itemsize,
              st::cpu::cpu_isa_name(st::cpu::cpu_isa()), st::num_threads(), g.ndim());
  for (int d = 0; d < g.ndim(); ++d) {
    std::printf("  dim %d: size %" PRId64 " dst %" PRId64 " src %" PRId64 "\n", d, g.shape[d], g.strides[0][d],
                g.strides[1][d]);
  }
}

// One random case: made and copied by the reference once, then copied
// at every level on 1 and 2 threads, each time into the untouched dst
// buffer. Counts the case's path in path_hits; returns the failing runs.
// `c` and `expected` hold the buffers (test_support::expected_dst).
int case_at_every_level(uint64_t seed, int64_t itemsize, bool large, int* path_hits, Case& c,
                        std::vector<unsigned char>& expected) {
  make_case(c, seed, itemsize, itemsize, large);
  test_support::expected_dst(c, expected, [&](const Geometry& ref) { reference_copy(ref, itemsize); });
  const Geometry g = test_support::canonical(c.g);
  const CopyPath path = st::cpu::plan_same_dtype_copy(g, itemsize);
  path_hits[static_cast<int>(path)]++;
  int failures = 0;
  for_each_isa_and_threads([&] {
    test_support::reset_dst(c);
    st::cpu::copy_same_dtype(g, itemsize);
    if (c.dst_buf == expected) return;
    ++failures;
    const size_t at = test_support::first_difference(c.dst_buf, expected);
    describe(c.g, itemsize, seed);
    std::printf("  path %s; first wrong byte at %zu of %zu: got %02x want %02x\n", st::cpu::copy_path_name(path), at,
                c.dst_buf.size(), c.dst_buf[at], expected[at]);
  });
  return failures;
}

void random_small_geometries_match_reference(void**) {
  int hits[8] = {0};
  int failures = 0, cases = 0;
  Case c;
  std::vector<unsigned char> expected;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    for (int64_t e : kItemsizes) {
      ++cases;
      failures += case_at_every_level(seed * 7919 + static_cast<uint64_t>(e), e, false, hits, c, expected);
      if (failures > 5) fail();
    }
  }
  std::printf("  %d cases, each at every level on 1 and 2 threads; paths: empty %d contiguous %d rows %d fill %d "
              "gather %d transpose %d strided %d\n",
              cases, hits[0], hits[1], hits[2], hits[3], hits[4], hits[5], hits[6]);
  assert_int_equal(failures, 0);
  for (int p = 0; p <= static_cast<int>(CopyPath::Strided); ++p) assert_true(hits[p] > 0);
}

// Outputs of 17-32 MB: past the streaming threshold and across many tasks.
void random_large_geometries_match_reference(void**) {
  int hits[8] = {0};
  int failures = 0;
  Case c;
  std::vector<unsigned char> expected;
  for (uint64_t seed = 1; seed <= 2; ++seed) {
    for (int64_t e : kItemsizes) {
      failures += case_at_every_level(seed * 104729 + static_cast<uint64_t>(e), e, true, hits, c, expected);
    }
  }
  assert_int_equal(failures, 0);
}

// Builds a geometry of dst contiguous (sizes fastest-first) and src given
// by strides in elements.
struct Fixed {
  Geometry g;
  std::vector<unsigned char> dst, src, expected;
};
constexpr unsigned char kFixedUnwritten = 0xCD;

void make_fixed(Fixed& f, std::initializer_list<int64_t> sizes, std::initializer_list<int64_t> src_elem_strides,
                int64_t itemsize, int64_t src_offset_elems, int64_t src_span_elems) {
  Geometry& g = f.g;
  test_support::reset_copy_geometry(g, static_cast<int>(sizes.size()));
  int64_t numel = 1, d = 0;
  for (int64_t s : sizes) {
    g.shape[d] = s;
    g.strides[0][d] = numel * itemsize;
    numel *= s;
    ++d;
  }
  d = 0;
  for (int64_t s : src_elem_strides) g.strides[1][d++] = s * itemsize;
  f.dst.assign(static_cast<size_t>(numel * itemsize + 64), kFixedUnwritten);
  f.src.resize(static_cast<size_t>(src_span_elems * itemsize + 64));
  fill_random(f.src, 42);
  f.expected = f.dst;
  g.data[1] = reinterpret_cast<char*>(f.src.data()) + src_offset_elems * itemsize;
  Geometry ref = g;
  ref.data[0] = reinterpret_cast<char*>(f.expected.data());
  reference_copy(ref, itemsize);
  g.data[0] = reinterpret_cast<char*>(f.dst.data());
}

// The fixed case copied at every level on 1 and 2 threads, each time into
// the untouched dst; false (after describing it) when a run is wrong.
bool fixed_at_every_level(Fixed& f, int64_t itemsize) {
  const Geometry g = test_support::canonical(f.g);
  bool ok = true;
  for_each_isa_and_threads([&] {
    std::fill(f.dst.begin(), f.dst.end(), kFixedUnwritten);
    st::cpu::copy_same_dtype(g, itemsize);
    if (f.dst == f.expected) return;
    const size_t at = test_support::first_difference(f.dst, f.expected);
    describe(f.g, itemsize, 0);
    std::printf("  path %s; first wrong byte at %zu of %zu: got %02x want %02x\n",
                st::cpu::copy_path_name(st::cpu::plan_same_dtype_copy(g, itemsize)), at, f.dst.size(), f.dst[at],
                f.expected[at]);
    ok = false;
  });
  return ok;
}

// Edge sizes around every tile and panel size, tiny dims (3 as in NHWC
// with 3 channels), reversed reads, with the expected path.
void transposes_at_tile_edges(void**) {
  const int64_t sizes[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129};
  int failures = 0;
  for (int64_t e : kItemsizes) {
    for (int64_t r : sizes) {
      for (int64_t c : sizes) {
        if (r == 1 || c == 1) continue;
        for (int flip = 0; flip < 2; ++flip) {
          // dst (r, c) fastest-first is src's (c, r) transposed; flip
          // reverses src along its contiguous dim.
          Fixed f;
          const int64_t sc = flip ? -1 : 1;
          make_fixed(f, {r, c}, {c, sc}, e, flip ? c - 1 : 0, r * c);
          if (st::cpu::plan_same_dtype_copy(test_support::canonical(f.g), e) != CopyPath::Transpose) {
            std::printf("  %" PRId64 "x%" PRId64 " itemsize %" PRId64 " not planned as a transpose\n", r, c, e);
            ++failures;
            continue;
          }
          if (!fixed_at_every_level(f, e)) ++failures;
        }
      }
    }
  }
  assert_int_equal(failures, 0);
}

// The benchmark layouts at small scale: NCHW <-> NHWC, a 3-d
// reverse permutation, the 6-d permutation, every second column, a row
// broadcast.
void benchmark_layouts_small(void**) {
  int failures = 0;
  for (int64_t e : kItemsizes) {
    struct Spec {
      std::initializer_list<int64_t> sizes, strides;
      int64_t span;
      CopyPath path;
    };
    // Sizes fastest-first of the contiguous dst; strides of src in elements.
    const Spec specs[] = {
        {{8, 7, 7, 2}, {49, 1, 7, 392}, 2 * 392, CopyPath::Transpose},      // NCHW -> NHWC (C=8)
        {{3, 5, 6, 2}, {30, 1, 5, 90}, 2 * 90, CopyPath::Transpose},            // NCHW -> NHWC (C=3)
        {{7, 7, 8, 2}, {8, 56, 1, 392}, 2 * 392, CopyPath::Transpose},          // NHWC -> NCHW
        {{6, 5, 3, 2}, {3, 18, 1, 90}, 2 * 90, CopyPath::Transpose},            // NHWC -> NCHW (C=3)
        {{9, 10, 11}, {110, 11, 1}, 990, CopyPath::Transpose},                  // (11,10,9) permute(2,1,0)
        {{4, 4, 4, 4, 4, 4}, {4, 64, 1, 256, 16, 1024}, 4096, CopyPath::Transpose},
        {{33, 20}, {2, 66}, 20 * 66, CopyPath::Gather},                         // [:, ::2]
        {{37, 19}, {1, 0}, 37, CopyPath::Rows},                                 // row broadcast
        {{37, 19}, {0, 1}, 19, CopyPath::Fill},                                 // column broadcast
    };
    for (const Spec& s : specs) {
      Fixed f;
      make_fixed(f, s.sizes, s.strides, e, 0, s.span);
      const CopyPath p = st::cpu::plan_same_dtype_copy(test_support::canonical(f.g), e);
      if (p != s.path) {
        describe(f.g, e, 0);
        std::printf("  planned as %s\n", st::cpu::copy_path_name(p));
        ++failures;
      }
      if (!fixed_at_every_level(f, e)) ++failures;
    }
  }
  assert_int_equal(failures, 0);
}

// Transposes large enough to stream, into destinations 64-byte aligned and
// off a line by a few elements: the off ones are split into a head pass
// with ordinary stores and a streamed rest when every other dst stride is
// a multiple of 64 (rows * itemsize below), and stay whole otherwise (the
// last spec). The whole buffer, margins included, is compared.
void streamed_transposes_into_misaligned_dst(void**) {
  struct Spec {
    int64_t itemsize, rows, cols, batch, offset;  // dst offset in bytes from a line
  };
  const int64_t threshold = st::cpu::stream_threshold_bytes();
  const Spec specs[] = {
      {4, 2048, threshold / (4 * 2048), 1, 0},   {4, 2048, threshold / (4 * 2048), 1, 4},
      {4, 256, threshold / (4 * 256 * 3) + 1, 3, 16}, {4, 1040, threshold / (4 * 1040) + 1, 1, 60},
      {1, 4096, threshold / 4096, 1, 1},         {1, 4096, threshold / 4096, 1, 63},
      {16, 64, threshold / (16 * 64) + 3, 1, 48}, {4, 1030, threshold / (4 * 1030) + 1, 1, 16},
  };
  int failures = 0;
  for (const Spec& sp : specs) {
    const int64_t e = sp.itemsize, numel = sp.rows * sp.cols * sp.batch;
    // dst (rows, cols, batch) fastest-first, contiguous; src is (batch, rows, cols) row-major.
    Geometry g;
    test_support::reset_copy_geometry(g, 3);
    const int64_t sizes[3] = {sp.rows, sp.cols, sp.batch};
    const int64_t ds[3] = {e, sp.rows * e, sp.rows * sp.cols * e};
    const int64_t ss[3] = {sp.cols * e, e, sp.rows * sp.cols * e};
    for (int d = 0; d < 3; ++d) {
      g.shape[d] = sizes[d];
      g.strides[0][d] = ds[d];
      g.strides[1][d] = ss[d];
    }
    std::vector<unsigned char> src(static_cast<size_t>(numel * e)), buffer(static_cast<size_t>(numel * e + 192));
    fill_random(src, static_cast<uint64_t>(sp.rows * 7 + sp.offset));
    g.data[1] = reinterpret_cast<char*>(src.data());
    char* const line = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(buffer.data()) + 63) & ~uintptr_t{63});
    std::vector<unsigned char> expected(buffer.size(), 0xCD);
    Geometry ref = g;
    ref.data[0] = reinterpret_cast<char*>(expected.data()) + (line - reinterpret_cast<char*>(buffer.data())) + sp.offset;
    reference_copy(ref, e);
    g.data[0] = line + sp.offset;
    if (st::cpu::plan_same_dtype_copy(test_support::canonical(g), e) != CopyPath::Transpose || numel * e < threshold) {
      std::printf("  spec rows %" PRId64 " itemsize %" PRId64 " is not a streamed transpose\n", sp.rows, e);
      ++failures;
      continue;
    }
    for_each_isa_and_threads([&] {
      std::fill(buffer.begin(), buffer.end(), static_cast<unsigned char>(0xCD));
      st::cpu::copy_same_dtype(test_support::canonical(g), e);
      if (buffer != expected) {
        describe(g, e, 0);
        std::printf("  rows %" PRId64 " cols %" PRId64 " batch %" PRId64 " offset %" PRId64 "\n", sp.rows, sp.cols,
                    sp.batch, sp.offset);
        ++failures;
      }
    });
  }
  assert_int_equal(failures, 0);
}

// Rows longer than a task (copies, fills, every-second gathers, reversed
// rows) are cut into pieces across threads.
void long_rows_are_cut_into_pieces(void**) {
  int failures = 0;
  for (int64_t e : {int64_t{1}, int64_t{4}, int64_t{16}}) {
    const int64_t n = (int64_t{3} << 20) / e + 5;  // ~3 MB rows, not a multiple of anything
    struct Spec {
      std::initializer_list<int64_t> strides;
      int64_t offset, span;
      CopyPath path;
    };
    const Spec specs[] = {
        {{1, n + 3}, 0, 2 * (n + 3), CopyPath::Rows},
        {{0, 1}, 0, 2, CopyPath::Fill},
        {{2, 2 * n}, 0, 4 * n, CopyPath::Gather},
        {{-1, n}, n - 1, 2 * n, CopyPath::Gather},
    };
    for (const Spec& sp : specs) {
      Fixed f;
      make_fixed(f, {n, 2}, sp.strides, e, sp.offset, sp.span);
      const CopyPath p = st::cpu::plan_same_dtype_copy(test_support::canonical(f.g), e);
      if (p != sp.path) {
        describe(f.g, e, 0);
        std::printf("  planned as %s\n", st::cpu::copy_path_name(p));
        ++failures;
      }
      if (!fixed_at_every_level(f, e)) ++failures;
    }
  }
  assert_int_equal(failures, 0);
}

// The geometry the kernels take (Note [The canonical geometry]).
void canonical_geometry_sorts_flips_and_merges(void**) {
  Geometry g;
  test_support::reset_copy_geometry(g, 4);
  // dims given slowest first, with a flipped and a size-1 dim (stride 0,
  // as a broadcast step gives every dim of size 1).
  const int64_t sizes[] = {2, 1, 3, 4}, ds[] = {48, 0, -16, 4}, ss[] = {4, 0, 8, 24};
  for (int d = 0; d < 4; ++d) {
    g.shape[d] = sizes[d];
    g.strides[0][d] = ds[d];
    g.strides[1][d] = ss[d];
  }
  static char dst[2000], src[2000];
  g.data[0] = dst + 1000;
  g.data[1] = src + 1000;
  const Geometry n = test_support::canonical(g);
  // Sorted: (4: 4, 24), (3: 16, -8), (2: 48, 4); the flipped dim moved the
  // bases by 2*-16 and 2*8. Nothing merges (src steps disagree).
  assert_int_equal(n.ndim(), 3);
  assert_int_equal(n.shape[0], 4);
  assert_int_equal(n.strides[0][1], 16);
  assert_int_equal(n.strides[1][1], -8);
  assert_int_equal(n.shape[2], 2);
  assert_true(n.data[0] == g.data[0] - 32);
  assert_true(n.data[1] == g.data[1] + 16);
  // A contiguous 3-d copy merges into one dim.
  Geometry c;
  test_support::reset_copy_geometry(c, 3);
  const int64_t cs[] = {5, 3, 2}, cst[] = {2, 10, 30};
  for (int d = 0; d < 3; ++d) {
    c.shape[d] = cs[d];
    c.strides[0][d] = c.strides[1][d] = cst[d];
  }
  const Geometry cn = test_support::canonical(c);
  assert_int_equal(cn.ndim(), 1);
  assert_int_equal(cn.shape[0], 30);
  // A zero-size dim anywhere: numel 0.
  c.shape[2] = 0;
  assert_int_equal(test_support::canonical(c).numel(), 0);
}

void odd_itemsizes_are_refused(void**) {
  char a[12] = {0}, b[12] = {0};
  Geometry g;
  test_support::reset_copy_geometry(g, 1);
  g.shape[0] = 4;
  g.strides[0][0] = g.strides[1][0] = 3;
  g.data[0] = a;
  g.data[1] = b;
  bool thrown = false;
  try {
    st::cpu::copy_same_dtype(test_support::canonical(g), 3);
  } catch (const st::Error& e) {
    thrown = e.code() == ST_ERROR_INTERNAL && std::strstr(e.what(), "3 bytes") != nullptr;
  }
  assert_true(thrown);
}

void isa_cap_lowers_the_level(void**) {
  const CpuIsa detected = st::cpu::detected_cpu_isa();
  std::printf("  detected %s\n", st::cpu::cpu_isa_name(detected));
  st::cpu::set_cpu_isa_cap(CpuIsa::Scalar);
  assert_int_equal(static_cast<int>(st::cpu::cpu_isa()), static_cast<int>(CpuIsa::Scalar));
  assert_string_equal(st::cpu::active_copy_kernels().name, "scalar");
  st::cpu::set_cpu_isa_cap(st::cpu::kHighestCpuIsa);
  assert_int_equal(static_cast<int>(st::cpu::cpu_isa()), static_cast<int>(detected));
  assert_string_equal(st::cpu::active_copy_kernels().name, st::cpu::cpu_isa_name(detected));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(canonical_geometry_sorts_flips_and_merges),
      cmocka_unit_test(isa_cap_lowers_the_level),
      cmocka_unit_test(odd_itemsizes_are_refused),
      cmocka_unit_test(benchmark_layouts_small),
      cmocka_unit_test(transposes_at_tile_edges),
      cmocka_unit_test(streamed_transposes_into_misaligned_dst),
      cmocka_unit_test(long_rows_are_cut_into_pieces),
      cmocka_unit_test(random_small_geometries_match_reference),
      cmocka_unit_test(random_large_geometries_match_reference),
  };
  if (const char* only = std::getenv("ST_TEST_FILTER")) cmocka_set_test_filter(only);
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
