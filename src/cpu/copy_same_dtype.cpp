#include "cpu/copy_same_dtype.h"

#include <cstring>

#include "core/error.h"
#include "cpu/copy_kernel_table.h"
#include "cpu/copy_transpose.h"
#include "cpu/kernel_parallel.h"
#include "cpu/row_tasks.h"

namespace st {
namespace cpu {
namespace {

// A contiguous copy is cut into tasks of this many bytes (a multiple of
// 64, so task boundaries keep the cache-line alignment of the base).
constexpr int64_t kContiguousTaskBytes = 256 * 1024;

// Copies up to this many bytes over at most two dims go element by element
// on the calling thread: for a 4x4 transpose, planning tiles and tasks
// costs more than the moves.
constexpr int64_t kTinyBytes = 256;

CopyPath plan_normalized(const CopyGeometry& g, int64_t itemsize) {
  if (g.ndim == 1 && g.sizes[0] == 0) return CopyPath::Empty;
  if (g.ndim == 0) return CopyPath::Contiguous;
  if (g.dst_strides[0] != itemsize) return CopyPath::Strided;
  const int64_t ss = g.src_strides[0];
  if (ss == itemsize) return g.ndim == 1 ? CopyPath::Contiguous : CopyPath::Rows;
  if (ss == 0) return CopyPath::Fill;
  if (ss != -itemsize && find_src_unit_dim(g, itemsize) > 0) return CopyPath::Transpose;
  return CopyPath::Gather;
}

void copy_contiguous(char* dst, const char* src, int64_t nbytes, bool stream, const CopyKernelTable& kernels) {
  const int64_t tasks = (nbytes + kContiguousTaskBytes - 1) / kContiguousTaskBytes;
  run_tasks(tasks, grain_for_bytes(kContiguousTaskBytes), [&](int64_t begin, int64_t end) {
    const int64_t off = begin * kContiguousTaskBytes;
    const int64_t stop = end * kContiguousTaskBytes < nbytes ? end * kContiguousTaskBytes : nbytes;
    if (stream) {
      kernels.stream_copy(dst + off, src + off, stop - off);
    } else {
      std::memcpy(dst + off, src + off, static_cast<size_t>(stop - off));
    }
  });
}

template <int E>
void strided_rows_e(const Rows2d& r) {
  for (int64_t k = 0; k < r.m; ++k) {
    char* d = r.dst + k * r.dst_outer;
    const char* s = r.src + k * r.src_outer;
    for (int64_t i = 0; i < r.n; ++i) {
      unsigned char v[E];
      std::memcpy(v, s + i * r.src_inner, E);
      std::memcpy(d + i * r.dst_inner, v, E);
    }
  }
}

void strided_rows(const Rows2d& r) {
  switch (r.itemsize) {
    case 1: return strided_rows_e<1>(r);
    case 2: return strided_rows_e<2>(r);
    case 4: return strided_rows_e<4>(r);
    case 8: return strided_rows_e<8>(r);
    default: return strided_rows_e<16>(r);
  }
}

void run_rows(const CopyGeometry& g, int64_t itemsize, bool stream, void (*kernel)(const Rows2d&)) {
  Rows2d base{};
  base.n = g.sizes[0];
  base.dst_inner = g.dst_strides[0];
  base.src_inner = g.src_strides[0];
  base.dst_outer = g.ndim > 1 ? g.dst_strides[1] : 0;
  base.src_outer = g.ndim > 1 ? g.src_strides[1] : 0;
  base.itemsize = itemsize;
  base.nt = stream;
  run_row_tasks(g, 2 * itemsize, [&](char* dst, const char* src, int64_t n, int64_t m) {
    Rows2d piece = base;
    piece.dst = dst;
    piece.src = src;
    piece.n = n;
    piece.m = m;
    kernel(piece);
  });
}

}  // namespace

CopyPath plan_same_dtype_copy(const CopyGeometry& g, int64_t itemsize) {
  return plan_normalized(normalize_geometry(g), itemsize);
}

const char* copy_path_name(CopyPath p) {
  switch (p) {
    case CopyPath::Empty: return "empty";
    case CopyPath::Contiguous: return "contiguous";
    case CopyPath::Rows: return "rows";
    case CopyPath::Fill: return "fill";
    case CopyPath::Gather: return "gather";
    case CopyPath::Transpose: return "transpose";
    case CopyPath::Strided: return "strided";
  }
  return "unknown";
}

void copy_same_dtype(const CopyGeometry& geometry, int64_t itemsize) {
  ST_CHECK(itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8 || itemsize == 16, ST_ERROR_INTERNAL,
           "copy: no kernel for elements of %lld bytes", static_cast<long long>(itemsize));
  const CopyGeometry g = normalize_geometry(geometry);
  const CopyKernelTable& kernels = active_copy_kernels();
  const CopyPath path = plan_normalized(g, itemsize);
  const int64_t out_bytes = geometry_numel(g) * itemsize;
  const bool stream = out_bytes >= kStreamingThresholdBytes;
  if (out_bytes <= kTinyBytes && g.ndim <= 2 && path != CopyPath::Contiguous && path != CopyPath::Empty) {
    Rows2d r{};
    r.dst = g.dst;
    r.src = g.src;
    r.n = g.sizes[0];
    r.m = g.ndim > 1 ? g.sizes[1] : 1;
    r.dst_inner = g.dst_strides[0];
    r.src_inner = g.src_strides[0];
    r.dst_outer = g.ndim > 1 ? g.dst_strides[1] : 0;
    r.src_outer = g.ndim > 1 ? g.src_strides[1] : 0;
    r.itemsize = itemsize;
    return strided_rows(r);
  }
  switch (path) {
    case CopyPath::Empty:
      return;
    case CopyPath::Contiguous:
      return copy_contiguous(g.dst, g.src, out_bytes, stream, kernels);
    case CopyPath::Rows:
      return run_rows(g, itemsize, stream, kernels.copy_rows);
    case CopyPath::Fill:
      return run_rows(g, itemsize, stream, kernels.fill_rows);
    case CopyPath::Gather:
      return run_rows(g, itemsize, stream, kernels.gather_rows);
    case CopyPath::Transpose:
      return copy_transposed(g, find_src_unit_dim(g, itemsize), itemsize, stream, kernels);
    case CopyPath::Strided:
      return run_rows(g, itemsize, false, strided_rows);
  }
}

}  // namespace cpu
}  // namespace st
