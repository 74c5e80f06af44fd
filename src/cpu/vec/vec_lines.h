// Lines of output over a level's vector traits (vec_base.h): what the row
// converters of convert_kernels.inl and the tiny-dim deinterleaves of both
// kernel sources are written over.
//
// A pair P names its element types From and To, and P::line<V>(...) makes
// one vector of To from the V::kBytes / sizeof(To) elements of From that a
// line covers, given as k vectors (To k times narrower than From, k >= 1),
// a half vector (To twice as wide) or a quarter (four times as wide). A
// pair whose steps serve two vectors of output at once (P::kVectors = 2)
// makes a VecLine of two from the elements of both, given as one vector, a
// half or a quarter likewise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace st {
namespace cpu {
namespace {

// n vectors of output, in order.
template <class V, int n>
struct VecLine {
  typename V::Vec v[n];
};

// What a line of n vectors is: a vector, or a VecLine.
template <class V, int n>
struct LineOf {
  using type = VecLine<V, n>;
};
template <class V>
struct LineOf<V, 1> {
  using type = typename V::Vec;
};

// P::kVectors, or 1 where P does not say.
template <class P, class = void>
struct VectorsOf {
  static constexpr int value = 1;
};
template <class P>
struct VectorsOf<P, decltype(void(P::kVectors))> {
  static constexpr int value = P::kVectors;
};

template <class V, class P>
struct Lines {
  using Vec = typename V::Vec;
  static constexpr int kVectors = VectorsOf<P>::value;
  using Line = typename LineOf<V, kVectors>::type;
  static constexpr int64_t kIn = sizeof(typename P::From), kOut = sizeof(typename P::To);
  static constexpr int64_t kOutBytes = kVectors * V::kBytes;
  static constexpr int64_t kPer = kOutBytes / kOut;  // elements per line
  static constexpr int64_t kInBytes = kPer * kIn;

  using Vectors = std::make_index_sequence<static_cast<size_t>(kInBytes / V::kBytes)>;

  static Line line(const char* s) {
    if constexpr (kInBytes >= V::kBytes) {
      return from_vectors(s, Vectors{});
    } else if constexpr (2 * kInBytes == V::kBytes) {
      return P::template line<V>(V::load_half(s));
    } else {
      static_assert(4 * kInBytes == V::kBytes, "a line reads whole vectors, a half or a quarter");
      return P::template line<V>(V::load_quarter(s));
    }
  }

  // The first n elements of a line (none for n <= 0, all for n >= kPer),
  // reading nothing past them; levels with masks only.
  static Line line_part(const char* s, int64_t n) {
    const int64_t bytes = n * kIn;
    if constexpr (kInBytes >= V::kBytes) {
      return from_vector_parts(s, bytes, Vectors{});
    } else if constexpr (2 * kInBytes == V::kBytes) {
      return P::template line<V>(V::load_half_part(s, V::mask(bytes)));
    } else {
      return P::template line<V>(V::load_quarter_part(s, V::mask(bytes)));
    }
  }

  // A line stored (or streamed: its vectors on their alignment), and its
  // first `bytes` (levels with masks only).
  static void store(char* d, const Line& l, bool stream) {
    if constexpr (kVectors == 1) {
      stream ? V::stream(d, l) : V::store(d, l);
    } else {
      for (int k = 0; k < kVectors; ++k) {
        stream ? V::stream(d + k * V::kBytes, l.v[k]) : V::store(d + k * V::kBytes, l.v[k]);
      }
    }
  }
  static void store_part(char* d, const Line& l, int64_t bytes) {
    if constexpr (kVectors == 1) {
      V::store_part(d, l, V::mask(bytes));
    } else {
      for (int k = 0; k < kVectors; ++k) V::store_part(d + k * V::kBytes, l.v[k], V::mask(bytes - k * V::kBytes));
    }
  }

 private:
  template <size_t... k>
  static Line from_vectors(const char* s, std::index_sequence<k...>) {
    return P::template line<V>(V::load(s + k * V::kBytes)...);
  }
  template <size_t... k>
  static Line from_vector_parts(const char* s, int64_t bytes, std::index_sequence<k...>) {
    return P::template line<V>(
        V::load_part(s + k * V::kBytes, V::mask(bytes - static_cast<int64_t>(k) * V::kBytes))...);
  }
};

// 4-byte elements as they are: a same-dtype copy.
struct Dwords {
  using From = uint32_t;
  using To = uint32_t;
  template <class V>
  static typename V::Vec line(typename V::Vec v) {
    return v;
  }
};

// dst row c < n (2 <= n <= 4, at dst + c * dst_col) takes elements c, c + n,
// c + 2n, ... of the `rows` groups of n src elements at src, converted by
// P to 4-byte elements: a line per group of kPer rows, split into the n
// dst rows by the level's small permutes. nt: stream (dst rows 64-byte
// aligned); the caller fences.
template <class V, class P>
void deinterleave_lines(char* dst, int64_t dst_col, const char* src, int64_t rows, int n, bool nt) {
  using L = Lines<V, P>;
  static_assert(L::kOut == 4, "the permutes move dwords");
  const auto& p = V::deinterleave_permute(n);
  typename V::Vec in[4];
  int64_t i = 0;
  for (; i + L::kPer <= rows; i += L::kPer) {
    const char* s = src + i * n * L::kIn;
    for (int q = 0; q < 4; ++q) in[q] = q < n ? L::line(s + q * L::kInBytes) : in[0];
    for (int c = 0; c < n; ++c) {
      if (nt) {
        V::stream(dst + c * dst_col + i * 4, p.apply(c, in));
      } else {
        V::store(dst + c * dst_col + i * 4, p.apply(c, in));
      }
    }
  }
  if (i < rows) {
    const int64_t left = rows - i, flat = left * n;
    const char* s = src + i * n * L::kIn;
    for (int q = 0; q < 4; ++q) in[q] = q < n ? L::line_part(s + q * L::kInBytes, flat - L::kPer * q) : in[0];
    const auto m = V::mask(left * 4);
    for (int c = 0; c < n; ++c) V::store_part(dst + c * dst_col + i * 4, p.apply(c, in), m);
  }
}

}  // namespace
}  // namespace cpu
}  // namespace st
