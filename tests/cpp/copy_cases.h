// Random copy cases for the tests of the copy paths: shapes, layouts built
// with views (dims in any order, gaps, flips, expanded dims, channels-last)
// over storages of random bytes, and broadcast sources. The GPU tests build
// the same layouts over device memory from a case's (sizes, strides, offset).
#pragma once

#include <algorithm>
#include <cstring>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/contiguity.h"
#include "core/dims.h"
#include "core/views.h"
#include "core/empty.h"
#include "core/runtime/allocator.h"
#include "core/scale_shift.h"

namespace copy_cases {

using st::DimVector;
using st::ScalarType;
using st::Tensor;

inline int64_t pick(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

inline ScalarType random_dtype(std::mt19937_64& rng) {
  return static_cast<ScalarType>(pick(rng, 0, st::kNumScalarTypes - 1));
}

// A dtype a copy into `dst` reads: dst itself or any other, but
// float4_e2m1fn_x2, which copies only to itself (st::converts).
inline ScalarType random_source_dtype(std::mt19937_64& rng, ScalarType dst) {
  for (;;) {
    const ScalarType t = random_dtype(rng);
    if (st::converts(dst, t)) return t;
  }
}

// A dtype st_fill writes: one that holds one number.
inline ScalarType random_fill_dtype(std::mt19937_64& rng) {
  for (;;) {
    const ScalarType t = random_dtype(rng);
    if (!st::is_packed(t)) return t;
  }
}

// A dtype the scaled copy takes: real, and none of the MX scale and element
// dtypes of 0.3 (float8_e8m0fnu, float6, float4).
inline ScalarType random_real_dtype(std::mt19937_64& rng) {
  for (;;) {
    const ScalarType t = random_dtype(rng);
    if (!st::is_complex(t) && t != ScalarType::Float8_e8m0fnu && t != ScalarType::Float4_e2m1fn_x2 &&
        t != ScalarType::Float6_e2m3fn && t != ScalarType::Float6_e3m2fn)
      return t;
  }
}

inline void fill_random_bytes(const Tensor& t, std::mt19937_64& rng) {
  auto* p = static_cast<unsigned char*>(t.storage()->base());
  for (size_t i = 0; i < t.storage()->nbytes(); ++i) p[i] = static_cast<unsigned char>(rng());
}

// 0 to 4 dims, at most `max_numel` elements. Now and then one dim is long
// (up to 48) so that tiled transposes have room; now and then one is 0.
inline DimVector random_sizes(std::mt19937_64& rng, int64_t max_numel = 2048) {
  const int ndim = static_cast<int>(pick(rng, 0, 4));
  DimVector sizes(ndim, 1);
  int64_t numel = 1;
  for (int d = 0; d < ndim; ++d) {
    int64_t s = pick(rng, 0, 9) < 2 ? 1 : (pick(rng, 0, 3) == 0 ? pick(rng, 16, 48) : pick(rng, 2, 7));
    if (numel * s > max_numel) s = std::max<int64_t>(1, max_numel / numel);
    numel *= s;
    sizes[d] = s;
  }
  if (ndim > 0 && pick(rng, 0, 40) == 0) sizes[static_cast<int>(pick(rng, 0, ndim - 1))] = 0;
  return sizes;
}

// A src shape that broadcasts to `dst`: some leading dims dropped, some dims 1.
inline DimVector broadcast_sizes(std::mt19937_64& rng, const DimVector& dst) {
  const int drop = dst.size() > 0 && pick(rng, 0, 3) == 0 ? static_cast<int>(pick(rng, 1, dst.size())) : 0;
  DimVector sizes;
  for (int d = drop; d < dst.size(); ++d) sizes.push_back(pick(rng, 0, 4) == 0 ? 1 : dst[d]);
  return sizes;
}

// `nbytes` of random bytes at `byte_offset` (0 to 15) within a larger
// allocation, which the storage keeps alive.
inline st::Storage random_storage(std::mt19937_64& rng, size_t nbytes, int byte_offset) {
  const Tensor base_full = st::empty_cpu(DimVector{static_cast<int64_t>(nbytes) + 16}, DimVector{1}, ScalarType::UInt8);
  fill_random_bytes(base_full, rng);
  st::Storage storage = st::Storage::make(static_cast<char*>(base_full.data()) + byte_offset, nbytes,
                                          st::cpu_device(), st::MemoryRelease{});
  // A release that holds the allocation.
  struct Holder {
    Tensor t;
  };
  st::MemoryRelease keep;
  keep.ctx = new Holder{base_full};
  keep.run = [](const st::MemoryRelease& r) { delete static_cast<Holder*>(r.ctx); };
  storage->adopt_release(keep);
  return storage;
}

// A tensor of `sizes` over a fresh storage of random bytes, laid out in a
// random dim order (channels-last among them), sometimes with gaps
// (sliced with step 2) and flipped dims. With `may_expand`, a dim may be an
// expanded view (stride 0). `byte_offset` (0 to 15) shifts the whole
// storage off the allocator's alignment, as memory a user wrapped.
inline Tensor random_tensor(std::mt19937_64& rng, const DimVector& sizes, ScalarType dtype, bool may_expand,
                            int byte_offset = 0) {
  const int ndim = sizes.size();
  std::vector<int> order(static_cast<size_t>(ndim));
  std::iota(order.begin(), order.end(), 0);
  const int64_t kind = pick(rng, 0, 5);
  if (kind <= 1) {
    std::shuffle(order.begin(), order.end(), rng);
  } else if (kind == 2 && ndim >= 3) {
    std::rotate(order.begin() + 1, order.begin() + 2, order.end());  // channels-last: dim 1 fastest
  }
  // Expanded dims are made of size 1 in the base and expanded afterwards.
  DimVector base_sizes(ndim, 1), steps(ndim, 1);
  std::vector<bool> expanded(static_cast<size_t>(ndim), false);
  for (int k = 0; k < ndim; ++k) {
    const int d = order[k];
    expanded[d] = may_expand && sizes[d] > 1 && pick(rng, 0, 5) == 0;
    steps[k] = !expanded[d] && pick(rng, 0, 5) == 0 ? 2 : 1;
    base_sizes[k] = expanded[d] ? 1 : sizes[d] * steps[k];
  }
  const st::Storage storage = random_storage(
      rng, static_cast<size_t>(st::storage_span(base_sizes, st::contiguous_strides(base_sizes), dtype)) *
               st::itemsize(dtype),
      byte_offset);
  Tensor t = Tensor::make(storage, base_sizes, st::contiguous_strides(base_sizes), 0, dtype);
  for (int k = 0; k < ndim; ++k) {
    if (steps[k] == 2 && base_sizes[k] > 0) t = st::slice(t, k, pick(rng, 0, 1), base_sizes[k], 2);
  }
  // Back to the caller's dim order: base dim k is dim order[k].
  st::InlineVector<int32_t> perm(ndim, 0);
  for (int k = 0; k < ndim; ++k) perm[order[k]] = k;
  if (ndim > 0) t = st::permute(t, perm);
  for (int d = 0; d < ndim; ++d) {
    if (pick(rng, 0, 4) == 0) t = st::flip(t, d);
  }
  if (std::find(expanded.begin(), expanded.end(), true) != expanded.end()) t = st::expand(t, sizes);
  return t;
}

// t's layout (sizes, strides, storage offset, dtype) over other memory: a
// fresh storage of random bytes at `byte_offset` (0 to 15), as a copy plan
// meets it on a later execute.
inline Tensor elsewhere(std::mt19937_64& rng, const Tensor& t, int byte_offset) {
  return Tensor::make(random_storage(rng, t.storage()->nbytes(), byte_offset), t.sizes(), t.strides(),
                      t.storage_offset(), t.dtype());
}

// Random scales and shifts for dst: per tensor or along a random dim.
inline st::ScaleShift random_scale_shift(std::mt19937_64& rng, const Tensor& dst, const Tensor& src) {
  static const double kScales[] = {1.0, 0.5, -2.0, 1.0 / 255, 3.0, 1e-3, 1e10};
  const bool per_channel = dst.ndim() > 0 && pick(rng, 0, 2) != 0;
  const int32_t dim = per_channel ? static_cast<int32_t>(pick(rng, 0, dst.ndim() - 1)) : 0;
  const int64_t n = per_channel ? dst.size(dim) : 1;
  std::vector<double> scale(static_cast<size_t>(n)), shift(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    scale[static_cast<size_t>(i)] = kScales[pick(rng, 0, 6)];
    shift[static_cast<size_t>(i)] = static_cast<double>(pick(rng, -8, 8)) * 0.5;
  }
  return st::prepare_scale_shift(dst, src, scale.data(), shift.data(), n, dim, static_cast<int32_t>(pick(rng, 0, 1)));
}

// A random copy: dst of random sizes, layout and dtype, src of its shape
// or of one that broadcasts to it (a quarter of the time), of another
// random dtype or (two thirds of the time) the same; with `real_dtypes`
// both real, as the scaled copy takes them. Storages at the given phases
// (0 to 15, as random_tensor's byte_offset).
struct Case {
  Tensor dst, src;
};
inline Case random_case(std::mt19937_64& rng, bool real_dtypes, int dst_phase = 0, int src_phase = 0) {
  const DimVector sizes = random_sizes(rng);
  const ScalarType dt = real_dtypes ? random_real_dtype(rng) : random_dtype(rng);
  const ScalarType st =
      real_dtypes ? random_real_dtype(rng) : (pick(rng, 0, 2) == 0 ? dt : random_source_dtype(rng, dt));
  const Tensor dst = random_tensor(rng, sizes, dt, false, dst_phase);
  const DimVector src_sizes = pick(rng, 0, 3) == 0 ? broadcast_sizes(rng, sizes) : sizes;
  return Case{dst, random_tensor(rng, src_sizes, st, true, src_phase)};
}

// A phase for random_case and elsewhere: the allocator's alignment half the
// time, else 1 to 15 bytes off it.
inline int random_phase(std::mt19937_64& rng) { return pick(rng, 0, 1) == 0 ? 0 : static_cast<int>(pick(rng, 1, 15)); }

inline std::string describe(const Tensor& t) {
  return std::string(st::dtype_name(static_cast<int32_t>(t.dtype()))) + " sizes " + st::format_dims(t.sizes()) +
         " strides " + st::format_dims(t.strides()) + " offset " + std::to_string(t.storage_offset());
}

// The byte offset from the storage's start of every element, row-major.
inline std::vector<int64_t> element_byte_offsets(const Tensor& t) {
  std::vector<int64_t> out;
  if (t.numel() == 0) return out;
  const int nd = t.ndim();
  std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
  for (;;) {
    int64_t e = t.storage_offset();
    for (int d = 0; d < nd; ++d) e += idx[static_cast<size_t>(d)] * t.stride(d);
    out.push_back(e * static_cast<int64_t>(t.itemsize()));
    int d = nd - 1;
    while (d >= 0 && ++idx[static_cast<size_t>(d)] == t.size(d)) idx[static_cast<size_t>(d--)] = 0;
    if (d < 0) break;
  }
  return out;
}

inline std::vector<unsigned char> storage_bytes(const Tensor& t) {
  const auto* p = static_cast<const unsigned char*>(t.storage()->base());
  return std::vector<unsigned char>(p, p + t.storage()->nbytes());
}

// A second tensor with the same layout over a copy of t's storage bytes.
inline Tensor twin(const Tensor& t) {
  const Tensor base = st::empty_cpu(DimVector{static_cast<int64_t>(t.storage()->nbytes())}, DimVector{1},
                                    ScalarType::UInt8);
  if (t.storage()->nbytes() > 0) std::memcpy(base.data(), t.storage()->base(), t.storage()->nbytes());
  return Tensor::make(base.storage(), t.sizes(), t.strides(), t.storage_offset(), t.dtype());
}

}  // namespace copy_cases
