#include "access_limits.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <vector>

#include "baselines.h"
#include "bench.h"

namespace bench {
namespace {

int64_t magnitude(int64_t v) { return v < 0 ? -v : v; }

// t's dims ordered slowest first by |stride| (broadcast dims outermost),
// byte strides, and the address of its lowest element along each
// reversed dim, so that every run goes forward in memory.
struct Walk {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  char* start = nullptr;
};

Walk memory_order(const Layout& t) {
  const int64_t item = static_cast<int64_t>(st_dtype_itemsize(t.dtype));
  std::vector<int> dims;
  for (int d = 0; d < static_cast<int>(t.sizes.size()); ++d) dims.push_back(d);
  std::stable_sort(dims.begin(), dims.end(), [&](int x, int y) {
    const int64_t sx = magnitude(t.strides[x]), sy = magnitude(t.strides[y]);
    if (sx == 0 || sy == 0) return sx == 0 && sy != 0;
    return sx > sy;
  });
  Walk w;
  w.start = t.data;
  for (int d : dims) {
    int64_t stride = t.strides[d] * item;
    if (stride < 0) {
      w.start += (t.sizes[d] - 1) * stride;
      stride = -stride;
    }
    w.sizes.push_back(t.sizes[d]);
    w.strides.push_back(stride);
  }
  if (w.sizes.empty()) {
    w.sizes.push_back(1);
    w.strides.push_back(item);
  }
  // Neighbours that step evenly become one dim, so that runs are long.
  for (size_t d = w.sizes.size() - 1; d > 0; --d) {
    if (w.strides[d - 1] != w.sizes[d] * w.strides[d]) continue;
    w.sizes[d - 1] *= w.sizes[d];
    w.strides[d - 1] = w.strides[d];
    w.sizes.erase(w.sizes.begin() + static_cast<std::ptrdiff_t>(d));
    w.strides.erase(w.strides.begin() + static_cast<std::ptrdiff_t>(d));
  }
  return w;
}

// Each thread makes its visitor with make(), calls it for each run along
// the last dim in its share (address of the first element, count, byte
// step), then calls its finish(). Rows are shared out whole, or, when
// there are fewer rows than threads, cut into one piece per thread.
template <typename MakeVisitor>
void walk(const Walk& w, int threads, const MakeVisitor& make) {
  const int last = static_cast<int>(w.sizes.size()) - 1;
  int64_t rows = 1;
  for (int d = 0; d < last; ++d) rows *= w.sizes[d];
  const int64_t pieces = rows >= threads ? 1 : threads, units = rows * pieces, n = w.sizes[last];
  run_parts(threads, [&](int part, int parts) {
    auto visit = make();
    for (int64_t u = units * part / parts; u < units * (part + 1) / parts; ++u) {
      int64_t rest = u / pieces, offset = 0;
      for (int d = last - 1; d >= 0; --d) {
        offset += rest % w.sizes[d] * w.strides[d];
        rest /= w.sizes[d];
      }
      const int64_t piece = u % pieces, first = n * piece / pieces, stop = n * (piece + 1) / pieces;
      if (stop > first) visit(w.start + offset + first * w.strides[last], stop - first, w.strides[last]);
    }
    visit.finish();
  });
}

// Folds what it reads into registers, then into *total. A run whose
// elements are less than a cache line apart is read whole, with the CPU's
// widest loads (fold_bytes): the same lines reach the core as when only
// its elements are read. Sparser runs, and a broadcast one (step 0: one
// element, read once per use), are read element by element.
template <typename T>
struct Reader {
  std::atomic<uint64_t>* total;
  uint64_t acc = 0;
  void operator()(const char* p, int64_t count, int64_t step) {
    if (step > 0 && step < 64) {
      acc ^= fold_bytes(p, static_cast<size_t>((count - 1) * step + static_cast<int64_t>(sizeof(T))));
      return;
    }
    for (int64_t i = 0; i < count; ++i) {
      T v;
      std::memcpy(&v, p + i * step, sizeof v);
      acc ^= static_cast<uint64_t>(v);
    }
  }
  void finish() { total->fetch_xor(acc); }
};

// Writes a fixed byte pattern: contiguous runs with memset, or with
// streaming stores, others element by element.
template <typename T>
struct Writer {
  bool streaming;
  void operator()(char* p, int64_t count, int64_t step) {
    if (step == static_cast<int64_t>(sizeof(T))) {
      if (streaming) {
        nt_fill(p, static_cast<size_t>(count * step));
      } else {
        std::memset(p, 1, static_cast<size_t>(count * step));
      }
      return;
    }
    const T v = static_cast<T>(0x0101010101010101ull);
    for (int64_t i = 0; i < count; ++i) std::memcpy(p + i * step, &v, sizeof v);
    asm volatile("" : : "r"(p) : "memory");
  }
  void finish() {}
};

template <typename T>
uint64_t read_all(const Layout& t, int threads) {
  std::atomic<uint64_t> total{0};
  walk(memory_order(t), threads, [&] { return Reader<T>{&total}; });
  return total.load();
}

template <typename T>
void write_all(const Layout& t, int threads, bool streaming) {
  walk(memory_order(t), threads, [&] { return Writer<T>{streaming}; });
}

}  // namespace

void read_in_memory_order(const Layout& t, int threads) {
  uint64_t folded = 0;
  switch (st_dtype_itemsize(t.dtype)) {
    case 1: folded = read_all<uint8_t>(t, threads); break;
    case 2: folded = read_all<uint16_t>(t, threads); break;
    case 4: folded = read_all<uint32_t>(t, threads); break;
    case 8: folded = read_all<uint64_t>(t, threads); break;
    default: die("read_in_memory_order: elements of %zu bytes", st_dtype_itemsize(t.dtype));
  }
  // An empty statement the compiler must assume reads `folded`: it keeps
  // the reads it was computed from.
  asm volatile("" : : "r"(folded));
}

void write_in_memory_order(const Layout& t, int threads, bool streaming) {
  switch (st_dtype_itemsize(t.dtype)) {
    case 1: return write_all<uint8_t>(t, threads, streaming);
    case 2: return write_all<uint16_t>(t, threads, streaming);
    case 4: return write_all<uint32_t>(t, threads, streaming);
    case 8: return write_all<uint64_t>(t, threads, streaming);
    default: die("write_in_memory_order: elements of %zu bytes", st_dtype_itemsize(t.dtype));
  }
}

}  // namespace bench
