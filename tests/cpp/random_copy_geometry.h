// Random copy geometries for the kernel tests: 1-6 dims, sizes 0..~100
// (or outputs of 17-32 MB), dst a dense block in a random dim order (flips,
// padding, a strided fastest dim now and then), src another buffer with its
// own order, steps, flips, broadcast dims and misalignment.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "core/runtime/thread_count.h"
#include "cpu/cpu_isa.h"
#include "iter/tensor_iterator.h"

namespace test_support {

using st::Geometry;

// An empty geometry of a copy (operand 0 dst, 1 src) with `ndim` dims of
// size 0, for a test to fill in any dim order.
inline void reset_copy_geometry(Geometry& g, int ndim) {
  g = Geometry();
  g.noperands = 2;
  g.shape.assign(ndim, 0);
  g.strides[0].assign(ndim, 0);
  g.strides[1].assign(ndim, 0);
}

// What the kernels take: the test's layout in canonical form (Note [The
// canonical geometry] in iter/geometry.h), as TensorIterator::copy gives it.
inline Geometry canonical(Geometry g) {
  st::TensorIterator::canonicalize(g);
  return g;
}

// Random bytes, 8 at a time (splitmix64).
inline void fill_random(std::vector<unsigned char>& buf, uint64_t seed) {
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

// A random copy: dst is a dense block in a random dim order (some dims
// flipped, sometimes padded), src another buffer with its own order, steps,
// flips and broadcast dims. Buffers own the memory; dst/src point into them.
struct Case {
  Geometry g;
  std::vector<unsigned char> dst_buf, src_buf;
  int64_t dst_base = 0, src_base = 0;
};

// What a case's dst buffer holds before the copy: bytes outside the
// elements keep it, so a stray write shows.
constexpr unsigned char kUnwritten = 0xAB;

inline int64_t pick_size(std::mt19937_64& rng, bool large) {
  static const int64_t kSmall[] = {0, 1, 1, 2, 3, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100};
  static const int64_t kLarge[] = {1, 3, 16, 63, 64, 65, 127, 128, 129, 257, 1000, 1031, 2048, 4099};
  if (large) return kLarge[rng() % (sizeof kLarge / sizeof kLarge[0])];
  // Zero-size dims only now and then, so most cases move data.
  int64_t s = kSmall[rng() % (sizeof kSmall / sizeof kSmall[0])];
  if (s == 0 && rng() % 4 != 0) s = 2;
  return s;
}

inline void shuffle(int* perm, int n, std::mt19937_64& rng) {
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
inline void layout(const int64_t* sizes, int ndim, const int* perm, const int64_t* step, const bool* flip, int64_t pad,
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

inline void make_case(Case& c, uint64_t seed, int64_t dst_itemsize, int64_t src_itemsize, bool large) {
  const int64_t itemsize = dst_itemsize;
  std::mt19937_64 rng(seed);
  Geometry& g = c.g;
  reset_copy_geometry(g, 1 + static_cast<int>(rng() % 6));
  int64_t numel = 1;
  for (int d = 0; d < g.ndim(); ++d) {
    // Large cases: two big dims, the others small.
    const bool big = large && (d < 2);
    g.shape[d] = pick_size(rng, big);
    if (large && !big && numel * g.shape[d] * itemsize > (int64_t{16} << 20)) g.shape[d] = 1;
    if (!large && numel * g.shape[d] > 5000) g.shape[d] = 1 + static_cast<int64_t>(rng() % 3);
    numel *= g.shape[d];
  }
  // An empty copy needs no large buffers: its big dims shrink, so that
  // checking that nothing is written costs no more than a small case.
  if (large && numel == 0) {
    for (int d = 0; d < g.ndim(); ++d) g.shape[d] = std::min<int64_t>(g.shape[d], 65);
  }
  if (large && numel > 0) {
    // Outputs of 17 to 32 MB: past the streaming threshold.
    while (numel * itemsize > (int64_t{32} << 20)) {
      int big = 0;
      for (int d = 1; d < g.ndim(); ++d) big = g.shape[d] > g.shape[big] ? d : big;
      numel = numel / g.shape[big] * ((g.shape[big] + 1) / 2);
      g.shape[big] = (g.shape[big] + 1) / 2;
    }
    while (numel * itemsize < (int64_t{17} << 20)) {
      const int d = static_cast<int>(rng() % g.ndim());
      g.shape[d] *= 2;
      numel *= 2;
    }
  }
  int dperm[ST_MAX_DIMS], sperm[ST_MAX_DIMS];
  int64_t dstep[ST_MAX_DIMS], sstep[ST_MAX_DIMS];
  bool dflip[ST_MAX_DIMS], sflip[ST_MAX_DIMS];
  for (int d = 0; d < g.ndim(); ++d) {
    dperm[d] = sperm[d] = d;
    dstep[d] = 1;
    sstep[d] = rng() % 5 == 0 ? 1 + static_cast<int64_t>(rng() % 3) : 1;
    dflip[d] = rng() % 6 == 0;
    sflip[d] = rng() % 5 == 0;
  }
  shuffle(dperm, g.ndim(), rng);
  // Half the time src keeps dst's order, so row and contiguous paths are hit.
  if (rng() % 2) shuffle(sperm, g.ndim(), rng);
  else std::memcpy(sperm, dperm, sizeof dperm);
  const int64_t dpad = rng() % 6 == 0 ? 1 + static_cast<int64_t>(rng() % 3) : 0;
  const int64_t spad = rng() % 4 == 0 ? static_cast<int64_t>(rng() % 3) : 0;
  // The dst's fastest dim strided now and then: the element-wise path.
  if (rng() % 10 == 0) dstep[dperm[0]] = 2;
  int64_t dspan, sspan;
  layout(g.shape.data(), g.ndim(), dperm, dstep, dflip, dpad, dst_itemsize, g.strides[0].data(), &dspan, &c.dst_base);
  layout(g.shape.data(), g.ndim(), sperm, sstep, sflip, spad, src_itemsize, g.strides[1].data(), &sspan, &c.src_base);
  for (int d = 0; d < g.ndim(); ++d) {
    if (rng() % 7 == 0) g.strides[1][d] = 0;  // broadcast
  }
  // Misaligned bases now and then (by whole elements, or by one byte).
  const int64_t dmis = rng() % 4 == 0 ? (rng() % 2 ? itemsize : 1) : 0;
  const int64_t smis = rng() % 4 == 0 ? (rng() % 2 ? src_itemsize : 3) : 0;
  c.dst_buf.assign(static_cast<size_t>(dspan + 64 + dmis), kUnwritten);
  c.src_buf.resize(static_cast<size_t>(sspan + 64 + smis));
  fill_random(c.src_buf, rng());
  // 64-aligned inside the buffer, then the misalignment.
  auto align = [](unsigned char* p) {
    return reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(p) + 63) & ~uintptr_t{63});
  };
  g.data[0] = reinterpret_cast<char*>(align(c.dst_buf.data()) + dmis) + c.dst_base;
  g.data[1] = reinterpret_cast<char*>(align(c.src_buf.data()) + smis) + c.src_base;
  // The dims in dst-fastest-first order most of the time; any order
  // otherwise (the kernels get the canonical form either way).
  if (rng() % 4 != 0) {
    Geometry sorted = g;
    for (int q = 0; q < g.ndim(); ++q) {
      sorted.shape[q] = g.shape[dperm[q]];
      sorted.strides[0][q] = g.strides[0][dperm[q]];
      sorted.strides[1][q] = g.strides[1][dperm[q]];
    }
    g = sorted;
  }
}

// The plain multi-index walk of the tests' references, written here and
// sharing nothing with the TensorIterator: for every index of dims 1..,
// f(dst, src, n, dst_step, src_step) on dim 0's run of n elements (steps
// in bytes); one element for 0 dims, nothing when a dim is empty.
template <typename F>
void for_each_dim0_run(const Geometry& g, F f) {
  const int nd = g.ndim();
  for (int d = 0; d < nd; ++d) {
    if (g.shape[d] == 0) return;
  }
  if (nd == 0) return f(g.data[0], g.data[1], int64_t{1}, int64_t{0}, int64_t{0});
  int64_t idx[ST_MAX_DIMS] = {0};
  for (;;) {
    int64_t doff = 0, soff = 0;
    for (int d = 1; d < nd; ++d) {
      doff += idx[d] * g.strides[0][d];
      soff += idx[d] * g.strides[1][d];
    }
    f(g.data[0] + doff, g.data[1] + soff, g.shape[0], g.strides[0][0], g.strides[1][0]);
    int d = 1;
    for (; d < nd; ++d) {
      if (++idx[d] < g.shape[d]) break;
      idx[d] = 0;
    }
    if (d >= nd) return;
  }
}

// The dst buffer as the copy must leave it, into `expected`:
// `reference(geometry)` run on a copy of the untouched buffer. A case is
// made and its expectation computed once, then checked at every level and
// thread count. (A test reuses one Case and one `expected` for all its
// cases: their buffers keep their capacity, and large cases do not fault
// in fresh pages each time.)
template <typename Reference>
void expected_dst(const Case& c, std::vector<unsigned char>& expected, Reference reference) {
  expected = c.dst_buf;
  Geometry ref = c.g;
  ref.data[0] = reinterpret_cast<char*>(expected.data()) + (c.g.data[0] - reinterpret_cast<const char*>(c.dst_buf.data()));
  reference(ref);
}

// The dst buffer as make_case left it, before the case runs again.
inline void reset_dst(Case& c) { std::fill(c.dst_buf.begin(), c.dst_buf.end(), kUnwritten); }

// The index of the first byte where two buffers of one size differ (their
// size when none does), for a failure message.
inline size_t first_difference(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b) {
  size_t at = 0;
  while (at < a.size() && a[at] == b[at]) ++at;
  return at;
}

// Every level this CPU has, on 1 and 2 threads.
template <typename F>
void for_each_isa_and_threads(F f) {
  const int saved = st::num_threads();
  for (int isa = 0; isa <= static_cast<int>(st::cpu::detected_cpu_isa()); ++isa) {
    st::cpu::set_cpu_isa_cap(static_cast<st::cpu::CpuIsa>(isa));
    for (int threads = 1; threads <= 2; ++threads) {
      st::set_num_threads(threads);
      f();
    }
  }
  st::cpu::set_cpu_isa_cap(st::cpu::kHighestCpuIsa);
  st::set_num_threads(saved);
}

}  // namespace test_support
