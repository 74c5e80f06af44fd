// The same-dtype CPU copy kernels against a plain multi-index loop written
// here, on random geometries (1-6 dims, sizes 0..~100 and a few large ones,
// permutations, flips, steps, broadcast dims, padded dst), for every
// itemsize, at every instruction-set level this machine has, on 1 and 2
// threads. The whole dst buffer is compared, so writes outside the
// elements are caught too. A failing case prints its seed and geometry.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cmocka_cxx.h"
#include "cpu/copy_geometry.h"
#include "cpu/copy_kernel_table.h"
#include "cpu/copy_same_dtype.h"
#include "cpu/cpu_isa.h"
#include "cpu/thread_count.h"

using st::cpu::CopyGeometry;
using st::cpu::CopyPath;
using st::cpu::CpuIsa;

namespace {

const int64_t kItemsizes[] = {1, 2, 4, 8, 16};

// Random bytes, 8 at a time (splitmix64).
void fill_random(std::vector<unsigned char>& buf, uint64_t seed) {
  uint64_t x = seed;
  for (size_t i = 0; i < buf.size(); i += 8) {
    x += 0x9E3779B97F4A7C15ull;
    uint64_t z = x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    std::memcpy(buf.data() + i, &z, buf.size() - i < 8 ? buf.size() - i : 8);
  }
}

// The reference: every index of the geometry as given, element by element.
void reference_copy(const CopyGeometry& g, int64_t itemsize) {
  for (int d = 0; d < g.ndim; ++d) {
    if (g.sizes[d] == 0) return;
  }
  int64_t idx[ST_MAX_DIMS] = {0};
  for (;;) {
    int64_t doff = 0, soff = 0;
    for (int d = 0; d < g.ndim; ++d) {
      doff += idx[d] * g.dst_strides[d];
      soff += idx[d] * g.src_strides[d];
    }
    std::memcpy(g.dst + doff, g.src + soff, static_cast<size_t>(itemsize));
    int d = 0;
    for (; d < g.ndim; ++d) {
      if (++idx[d] < g.sizes[d]) break;
      idx[d] = 0;
    }
    if (d == g.ndim) return;
  }
}

void describe(const CopyGeometry& g, int64_t itemsize, uint64_t seed) {
  std::printf("seed %" PRIu64 " itemsize %" PRId64 " isa %s threads %d ndim %d\n", seed, itemsize,
              st::cpu::cpu_isa_name(st::cpu::cpu_isa()), st::cpu::num_threads(), g.ndim);
  for (int d = 0; d < g.ndim; ++d) {
    std::printf("  dim %d: size %" PRId64 " dst %" PRId64 " src %" PRId64 "\n", d, g.sizes[d], g.dst_strides[d],
                g.src_strides[d]);
  }
}

// A random copy: dst is a dense block in a random dim order (some dims
// flipped, sometimes padded), src another buffer with its own order, steps,
// flips and broadcast dims. Buffers own the memory; dst/src point into them.
struct Case {
  CopyGeometry g;
  std::vector<unsigned char> dst_buf, src_buf;
  int64_t dst_base = 0, src_base = 0;
};

int64_t pick_size(std::mt19937_64& rng, bool large) {
  static const int64_t kSmall[] = {0, 1, 1, 2, 3, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100};
  static const int64_t kLarge[] = {1, 3, 16, 63, 64, 65, 127, 128, 129, 257, 1000, 1031, 2048, 4099};
  if (large) return kLarge[rng() % (sizeof kLarge / sizeof kLarge[0])];
  // Zero-size dims only now and then, so most cases move data.
  int64_t s = kSmall[rng() % (sizeof kSmall / sizeof kSmall[0])];
  if (s == 0 && rng() % 4 != 0) s = 2;
  return s;
}

void shuffle(int* perm, int n, std::mt19937_64& rng) {
  for (int i = n - 1; i > 0; --i) {
    const int j = static_cast<int>(rng() % static_cast<uint64_t>(i + 1));
    const int t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
}

// Lays out sizes in the order perm (perm[0] fastest) with element steps
// step[d] and a gap after dim perm[0] of `pad` elements; returns the strides
// in bytes (flipped dims negative) and the span and base offset in bytes.
void layout(const int64_t* sizes, int ndim, const int* perm, const int64_t* step, const bool* flip, int64_t pad,
            int64_t itemsize, int64_t* strides, int64_t* span, int64_t* base) {
  int64_t s = itemsize;
  for (int q = 0; q < ndim; ++q) {
    const int d = perm[q];
    strides[d] = s * step[d];
    int64_t extent = sizes[d] * step[d] + (q == 0 ? pad : 0);
    if (extent < 1) extent = 1;
    s *= extent;
  }
  *span = s;
  *base = 0;
  for (int d = 0; d < ndim; ++d) {
    if (flip[d] && sizes[d] > 0) {
      *base += (sizes[d] - 1) * strides[d];
      strides[d] = -strides[d];
    }
  }
}

void make_case(Case& c, uint64_t seed, int64_t itemsize, bool large) {
  std::mt19937_64 rng(seed);
  CopyGeometry& g = c.g;
  g.ndim = 1 + static_cast<int>(rng() % 6);
  int64_t numel = 1;
  for (int d = 0; d < g.ndim; ++d) {
    // Large cases: two big dims, the others small.
    const bool big = large && (d < 2);
    g.sizes[d] = pick_size(rng, big);
    if (large && !big && numel * g.sizes[d] * itemsize > (int64_t{16} << 20)) g.sizes[d] = 1;
    if (!large && numel * g.sizes[d] > 5000) g.sizes[d] = 1 + static_cast<int64_t>(rng() % 3);
    numel *= g.sizes[d];
  }
  if (large && numel > 0) {
    // Outputs of 9 to 32 MB.
    while (numel * itemsize > (int64_t{32} << 20)) {
      int big = 0;
      for (int d = 1; d < g.ndim; ++d) big = g.sizes[d] > g.sizes[big] ? d : big;
      numel = numel / g.sizes[big] * ((g.sizes[big] + 1) / 2);
      g.sizes[big] = (g.sizes[big] + 1) / 2;
    }
    while (numel * itemsize < (int64_t{9} << 20)) {
      const int d = static_cast<int>(rng() % g.ndim);
      g.sizes[d] *= 2;
      numel *= 2;
    }
  }
  int dperm[ST_MAX_DIMS], sperm[ST_MAX_DIMS];
  int64_t dstep[ST_MAX_DIMS], sstep[ST_MAX_DIMS];
  bool dflip[ST_MAX_DIMS], sflip[ST_MAX_DIMS];
  for (int d = 0; d < g.ndim; ++d) {
    dperm[d] = sperm[d] = d;
    dstep[d] = 1;
    sstep[d] = rng() % 5 == 0 ? 1 + static_cast<int64_t>(rng() % 3) : 1;
    dflip[d] = rng() % 6 == 0;
    sflip[d] = rng() % 5 == 0;
  }
  shuffle(dperm, g.ndim, rng);
  // Half the time src keeps dst's order, so row and contiguous paths are hit.
  if (rng() % 2) shuffle(sperm, g.ndim, rng);
  else std::memcpy(sperm, dperm, sizeof dperm);
  const int64_t dpad = rng() % 6 == 0 ? 1 + static_cast<int64_t>(rng() % 3) : 0;
  const int64_t spad = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 3) : 0;
  // The dst's fastest dim strided now and then: the element-wise path.
  if (rng() % 10 == 0) dstep[dperm[0]] = 2;
  int64_t dspan, sspan;
  layout(g.sizes, g.ndim, dperm, dstep, dflip, dpad, itemsize, g.dst_strides, &dspan, &c.dst_base);
  layout(g.sizes, g.ndim, sperm, sstep, sflip, spad, itemsize, g.src_strides, &sspan, &c.src_base);
  for (int d = 0; d < g.ndim; ++d) {
    if (rng() % 7 == 0) g.src_strides[d] = 0;  // broadcast
  }
  // Misaligned bases now and then (by whole elements, or by one byte).
  const int64_t dmis = rng() % 4 == 0 ? (rng() % 2 ? itemsize : 1) : 0;
  const int64_t smis = rng() % 4 == 0 ? (rng() % 2 ? itemsize : 3) : 0;
  c.dst_buf.assign(static_cast<size_t>(dspan + 64 + dmis), 0xAB);
  c.src_buf.resize(static_cast<size_t>(sspan + 64 + smis));
  fill_random(c.src_buf, rng());
  // 64-aligned inside the buffer, then the misalignment.
  auto align = [](unsigned char* p) {
    return reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t{63});
  };
  g.dst = reinterpret_cast<char*>(align(c.dst_buf.data()) + dmis) + c.dst_base;
  g.src = reinterpret_cast<const char*>(align(c.src_buf.data()) + smis) + c.src_base;
  // The dims in dst-fastest-first order (as a TensorIterator hands them)
  // most of the time; any order otherwise.
  if (rng() % 4 != 0) {
    CopyGeometry sorted = g;
    for (int q = 0; q < g.ndim; ++q) {
      sorted.sizes[q] = g.sizes[dperm[q]];
      sorted.dst_strides[q] = g.dst_strides[dperm[q]];
      sorted.src_strides[q] = g.src_strides[dperm[q]];
    }
    g = sorted;
  }
}

bool run_case(uint64_t seed, int64_t itemsize, bool large, int* path_hits) {
  Case c;
  make_case(c, seed, itemsize, large);
  std::vector<unsigned char> expected = c.dst_buf;
  CopyGeometry ref = c.g;
  ref.dst = reinterpret_cast<char*>(expected.data()) + (c.g.dst - reinterpret_cast<char*>(c.dst_buf.data()));
  reference_copy(ref, itemsize);
  path_hits[static_cast<int>(st::cpu::plan_same_dtype_copy(c.g, itemsize))]++;
  st::cpu::copy_same_dtype(c.g, itemsize);
  if (c.dst_buf != expected) {
    size_t at = 0;
    while (c.dst_buf[at] == expected[at]) ++at;
    describe(c.g, itemsize, seed);
    std::printf("  path %s; first wrong byte at %zu of %zu: got %02x want %02x\n",
                st::cpu::copy_path_name(st::cpu::plan_same_dtype_copy(c.g, itemsize)), at, c.dst_buf.size(),
                c.dst_buf[at], expected[at]);
    return false;
  }
  return true;
}

// Every level this CPU has, on 1 and 2 threads.
template <typename F>
void for_each_isa_and_threads(F f) {
  const int saved = st::cpu::num_threads();
  for (int isa = 0; isa <= static_cast<int>(st::cpu::detected_cpu_isa()); ++isa) {
    st::cpu::set_cpu_isa_cap(static_cast<CpuIsa>(isa));
    for (int threads = 1; threads <= 2; ++threads) {
      st::cpu::set_num_threads(threads);
      f();
    }
  }
  st::cpu::set_cpu_isa_cap(CpuIsa::Avx512);
  st::cpu::set_num_threads(saved);
}

void random_small_geometries_match_reference(void**) {
  int hits[8] = {0};
  int failures = 0, cases = 0;
  for_each_isa_and_threads([&] {
    for (uint64_t seed = 1; seed <= 600; ++seed) {
      for (int64_t e : kItemsizes) {
        ++cases;
        if (!run_case(seed * 7919 + static_cast<uint64_t>(e), e, false, hits) && ++failures > 5) fail();
      }
    }
  });
  std::printf("  %d cases; paths: empty %d contiguous %d rows %d fill %d gather %d transpose %d strided %d\n", cases,
              hits[0], hits[1], hits[2], hits[3], hits[4], hits[5], hits[6]);
  assert_int_equal(failures, 0);
  for (int p = 0; p <= static_cast<int>(CopyPath::Strided); ++p) assert_true(hits[p] > 0);
}

// Outputs of 9-40 MB: past the streaming threshold and across many tasks.
void random_large_geometries_match_reference(void**) {
  int hits[8] = {0};
  int failures = 0;
  for_each_isa_and_threads([&] {
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      for (int64_t e : kItemsizes) {
        if (!run_case(seed * 104729 + static_cast<uint64_t>(e), e, true, hits)) ++failures;
      }
    }
  });
  assert_int_equal(failures, 0);
}

// Builds a geometry of dst contiguous (sizes fastest-first) and src given
// by strides in elements.
struct Fixed {
  CopyGeometry g;
  std::vector<unsigned char> dst, src, expected;
};

void make_fixed(Fixed& f, std::initializer_list<int64_t> sizes, std::initializer_list<int64_t> src_elem_strides,
                int64_t itemsize, int64_t src_offset_elems, int64_t src_span_elems) {
  CopyGeometry& g = f.g;
  g.ndim = static_cast<int>(sizes.size());
  int64_t numel = 1, d = 0;
  for (int64_t s : sizes) {
    g.sizes[d] = s;
    g.dst_strides[d] = numel * itemsize;
    numel *= s;
    ++d;
  }
  d = 0;
  for (int64_t s : src_elem_strides) g.src_strides[d++] = s * itemsize;
  f.dst.assign(static_cast<size_t>(numel * itemsize + 64), 0xCD);
  f.src.resize(static_cast<size_t>(src_span_elems * itemsize + 64));
  fill_random(f.src, 42);
  f.expected = f.dst;
  g.src = reinterpret_cast<const char*>(f.src.data()) + src_offset_elems * itemsize;
  CopyGeometry ref = g;
  ref.dst = reinterpret_cast<char*>(f.expected.data());
  reference_copy(ref, itemsize);
  g.dst = reinterpret_cast<char*>(f.dst.data());
}

// Edge sizes around every tile and panel size, tiny dims (3 as in NHWC
// with 3 channels), reversed reads, with the expected path.
void transposes_at_tile_edges(void**) {
  const int64_t sizes[] = {1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 129};
  int failures = 0;
  for_each_isa_and_threads([&] {
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
            if (st::cpu::plan_same_dtype_copy(f.g, e) != CopyPath::Transpose) {
              std::printf("  %" PRId64 "x%" PRId64 " itemsize %" PRId64 " not planned as a transpose\n", r, c, e);
              ++failures;
              continue;
            }
            st::cpu::copy_same_dtype(f.g, e);
            if (f.dst != f.expected) {
              describe(f.g, e, 0);
              ++failures;
            }
          }
        }
      }
    }
  });
  assert_int_equal(failures, 0);
}

// The benchmark layouts at small scale: NCHW <-> NHWC, a 3-d
// reverse permutation, the 6-d permutation, every second column, a row
// broadcast.
void benchmark_layouts_small(void**) {
  int failures = 0;
  for_each_isa_and_threads([&] {
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
        const CopyPath p = st::cpu::plan_same_dtype_copy(f.g, e);
        st::cpu::copy_same_dtype(f.g, e);
        if (p != s.path || f.dst != f.expected) {
          describe(f.g, e, 0);
          std::printf("  path %s\n", st::cpu::copy_path_name(p));
          ++failures;
        }
      }
    }
  });
  assert_int_equal(failures, 0);
}

void normalize_sorts_flips_and_merges(void**) {
  CopyGeometry g;
  g.ndim = 4;
  // dims given slowest first, with a flipped and a size-1 dim.
  const int64_t sizes[] = {2, 1, 3, 4}, ds[] = {48, 999, -16, 4}, ss[] = {4, 7, 8, 24};
  for (int d = 0; d < 4; ++d) {
    g.sizes[d] = sizes[d];
    g.dst_strides[d] = ds[d];
    g.src_strides[d] = ss[d];
  }
  static char dst[2000], src[2000];
  g.dst = dst + 1000;
  g.src = src + 1000;
  const CopyGeometry n = st::cpu::normalize_geometry(g);
  // Sorted: (4: 4, 24), (3: 16, -8), (2: 48, 4); the flipped dim moved the
  // bases by 2*-16 and 2*8. Nothing merges (src steps disagree).
  assert_int_equal(n.ndim, 3);
  assert_int_equal(n.sizes[0], 4);
  assert_int_equal(n.dst_strides[1], 16);
  assert_int_equal(n.src_strides[1], -8);
  assert_int_equal(n.sizes[2], 2);
  assert_true(n.dst == g.dst - 32);
  assert_true(n.src == g.src + 16);
  // A contiguous 3-d copy merges into one dim.
  CopyGeometry c;
  c.ndim = 3;
  const int64_t cs[] = {5, 3, 2}, cst[] = {2, 10, 30};
  for (int d = 0; d < 3; ++d) {
    c.sizes[d] = cs[d];
    c.dst_strides[d] = c.src_strides[d] = cst[d];
  }
  const CopyGeometry cn = st::cpu::normalize_geometry(c);
  assert_int_equal(cn.ndim, 1);
  assert_int_equal(cn.sizes[0], 30);
  // A zero-size dim anywhere: numel 0.
  c.sizes[2] = 0;
  assert_int_equal(st::cpu::geometry_numel(st::cpu::normalize_geometry(c)), 0);
}

void isa_cap_lowers_the_level(void**) {
  const CpuIsa detected = st::cpu::detected_cpu_isa();
  std::printf("  detected %s\n", st::cpu::cpu_isa_name(detected));
  st::cpu::set_cpu_isa_cap(CpuIsa::Scalar);
  assert_int_equal(static_cast<int>(st::cpu::cpu_isa()), static_cast<int>(CpuIsa::Scalar));
  assert_string_equal(st::cpu::active_copy_kernels().name, "scalar");
  st::cpu::set_cpu_isa_cap(CpuIsa::Avx512);
  assert_int_equal(static_cast<int>(st::cpu::cpu_isa()), static_cast<int>(detected));
  assert_string_equal(st::cpu::active_copy_kernels().name, st::cpu::cpu_isa_name(detected));
}

}  // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(normalize_sorts_flips_and_merges),
      cmocka_unit_test(isa_cap_lowers_the_level),
      cmocka_unit_test(benchmark_layouts_small),
      cmocka_unit_test(transposes_at_tile_edges),
      cmocka_unit_test(random_small_geometries_match_reference),
      cmocka_unit_test(random_large_geometries_match_reference),
  };
  if (const char* only = std::getenv("ST_TEST_FILTER")) cmocka_set_test_filter(only);
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
