// Reference offsets of a strided layout, by walking it like an odometer
// (no division), and random layouts to feed the index-math tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

struct Layout {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;

  int ndim() const { return static_cast<int>(sizes.size()); }
  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
  std::string str() const {
    std::string s = "sizes (";
    for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
    s += ") strides (";
    for (size_t i = 0; i < strides.size(); ++i) s += (i ? ", " : "") + std::to_string(strides[i]);
    return s + ")";
  }
};

// The offset of every element in order. Row-major (the last dim moves
// fastest) unless `first_fastest`, when dim 0 moves fastest (the
// TensorIterator's order).
inline std::vector<int64_t> reference_offsets(const Layout& l, bool first_fastest = false) {
  const int n = l.ndim();
  std::vector<int64_t> out;
  const int64_t numel = l.numel();
  if (numel == 0) return out;
  out.reserve(static_cast<size_t>(numel));
  std::vector<int64_t> index(static_cast<size_t>(n), 0);
  int64_t offset = 0;
  for (int64_t k = 0; k < numel; ++k) {
    out.push_back(offset);
    for (int step = 0; step < n; ++step) {  // advance the odometer
      const int d = first_fastest ? step : n - 1 - step;
      if (++index[d] < l.sizes[d]) {
        offset += l.strides[d];
        break;
      }
      offset -= (l.sizes[d] - 1) * l.strides[d];
      index[d] = 0;
    }
  }
  return out;
}

// Random strides for `sizes`: a slice (steps of 1 to 3) of a row-major
// buffer, with dims permuted, flipped (negative strides) or broadcast
// (stride 0) at random. Many adjacent dims stay mergeable, many do not.
inline Layout random_strides(std::mt19937_64& rng, const std::vector<int64_t>& sizes) {
  auto pick = [&](int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1)); };
  const int ndim = static_cast<int>(sizes.size());
  // Row-major strides over the sliced buffer, for the sizes in a random order.
  std::vector<int> order(static_cast<size_t>(ndim));
  for (int d = 0; d < ndim; ++d) order[d] = d;
  if (pick(0, 2) == 0) std::shuffle(order.begin(), order.end(), rng);
  Layout l{sizes, std::vector<int64_t>(static_cast<size_t>(ndim))};
  int64_t stride = pick(1, 2);
  for (int k = ndim - 1; k >= 0; --k) {
    const int d = order[k];
    const int64_t step = pick(0, 3) == 0 ? pick(2, 3) : 1;
    l.strides[d] = stride * step;
    stride *= std::max<int64_t>(sizes[d], 1) * step;
  }
  for (int d = 0; d < ndim; ++d) {
    if (pick(0, 5) == 0) l.strides[d] = -l.strides[d];  // flipped
    if (pick(0, 9) == 0) l.strides[d] = 0;               // broadcast
  }
  return l;
}

// A random layout of `ndim` dims and at most `max_numel` elements, sizes of
// 1 sprinkled in, now and then empty.
inline Layout random_layout(std::mt19937_64& rng, int ndim, int64_t max_numel) {
  auto pick = [&](int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1)); };
  std::vector<int64_t> sizes(static_cast<size_t>(ndim));
  int64_t numel = 1;
  for (int d = 0; d < ndim; ++d) {
    int64_t s = pick(0, 9) < 3 ? 1 : pick(2, 6);
    if (numel * s > max_numel) s = 1;
    numel *= s;
    sizes[d] = s;
  }
  if (ndim > 0 && pick(0, 49) == 0) sizes[static_cast<size_t>(pick(0, ndim - 1))] = 0;
  return random_strides(rng, sizes);
}
