#include "cpu/copy_same_dtype.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/error.h"
#include "core/macros.h"
#include "cpu/copy_transpose.h"
#include "cpu/kernel_parallel.h"
#include "cpu/levels/copy_kernel_table.h"
#include "cpu/row_tasks.h"
#include "cpu/calibration.h"
#include "cpu/stream_tuning.h"

namespace st {
namespace cpu {
namespace {

// A contiguous copy is cut into tasks of this many bytes (a multiple of
// 64, so task boundaries keep the cache-line alignment of the base).
constexpr int64_t kContiguousTaskBytes = 256 * 1024;

// Copies up to this many bytes over at most two dims go on the calling
// thread, one memcpy when contiguous, else element by element: for a 4x4
// transpose, planning tiles and tasks costs more than the moves.
constexpr int64_t kTinyBytes = 256;

template <int E>
void strided_rows_e(const Rows2d& r) {
  const int64_t n = r.n, dstep = r.dst_inner, sstep = r.src_inner;
  for (int64_t k = 0; k < r.m; ++k) {
    char* d = r.dst + k * r.dst_outer;
    const char* s = r.src + k * r.src_outer;
    for (int64_t i = 0; i < n; ++i, d += dstep, s += sstep) {
      unsigned char v[E];
      std::memcpy(v, s, E);
      std::memcpy(d, v, E);
    }
  }
}

}  // namespace

void strided_rows(const Rows2d& r) {
  switch (r.itemsize) {
    case 1: return strided_rows_e<1>(r);
    case 2: return strided_rows_e<2>(r);
    case 4: return strided_rows_e<4>(r);
    case 8: return strided_rows_e<8>(r);
    default: return strided_rows_e<16>(r);
  }
}

CopyPath plan_same_dtype_copy(const Geometry& g, int64_t itemsize) {
  if (g.numel() == 0) return CopyPath::Empty;
  if (g.ndim() == 0) return CopyPath::Contiguous;
  if (g.strides[0][0] != itemsize) return CopyPath::Strided;
  const int64_t ss = g.strides[1][0];
  if (ss == itemsize) return g.ndim() == 1 ? CopyPath::Contiguous : CopyPath::Rows;
  if (ss == 0) return CopyPath::Fill;
  if (ss != -itemsize && find_src_unit_dim(g, itemsize) > 0) return CopyPath::Transpose;
  return CopyPath::Gather;
}

namespace {

void copy_contiguous_run(char* dst, const char* src, int64_t nbytes, bool stream, const CopyKernelTable& kernels) {
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

// A contiguous copy measures a streaming part the first time one is worth
// measuring on it (Note [Tuning from the machine]): in bands of whole
// pages, each spread over the threads as the copy is. The order of
// streamed lines on a copy that streams and moves at least
// kCalibrateMinBytes; whether to stream at all on one whose output lies
// between the two candidate thresholds.
void copy_contiguous(char* dst, const char* src, int64_t nbytes, bool stream, const CopyKernelTable& kernels) {
  const StreamPart part = stream ? StreamPart::Pages : StreamPart::Threshold;
  const bool worth = stream ? 2 * nbytes >= kCalibrateMinBytes
                            : nbytes >= kStreamCandidate[0][1] && nbytes < kStreamCandidate[0][0];
  if (!worth || !may_calibrate() || !claim_measuring(part)) {
    return copy_contiguous_run(dst, src, nbytes, stream, kernels);
  }
  const int64_t band = nbytes / kCalibrationBands / 4096 * 4096;
  const int winner = calibrate(2, calibration_rounds(2), [&](int sample, int candidate) -> int64_t {
    const int64_t begin = sample * band, end = sample == kCalibrationBands - 1 ? nbytes : begin + band;
    if (stream) try_stream_candidate(part, candidate);
    copy_contiguous_run(dst + begin, src + begin, end - begin, stream || candidate == 1, kernels);
    return 2 * (end - begin);
  });
  finish_measuring(part, winner);
}

// Rows of exactly N elements of E bytes, unrolled: the rows of a tiny copy
// are short, and a loop of a few steps per row ends each row with a
// mispredicted branch (half the time of a 4x4 float32 transpose). dst and
// src share no memory here, so a row is read whole before it is written.
template <int E, int N>
void short_rows(const Rows2d& r) {
  // Locals, so that the stores (through char*) do not make the compiler
  // read r again.
  const int64_t dstep = r.dst_inner, sstep = r.src_inner, dout = r.dst_outer, sout = r.src_outer, m = r.m;
  char* d = r.dst;
  const char* s = r.src;
  for (int64_t k = 0; k < m; ++k, d += dout, s += sout) {
    unsigned char v[N][E];
    for (int i = 0; i < N; ++i) std::memcpy(v[i], s + i * sstep, E);
    for (int i = 0; i < N; ++i) std::memcpy(d + i * dstep, v[i], E);
  }
}

#if defined(__SSE2__)
// The 4x4 transpose of 4-byte elements (a transposed 4x4 float32 into a
// contiguous one, case K of stride-bench) in four 16-byte rows each way and
// SSE's register transpose, which every x86-64 CPU has: its shuffles move
// bits, so NaN payloads pass unchanged. src holds rows of the outer index
// (src_outer == 4), dst rows of the inner one (dst_inner == 4).
void transpose_4x4_e4(const Rows2d& r) {
  __m128 row0 = _mm_loadu_ps(reinterpret_cast<const float*>(r.src));
  __m128 row1 = _mm_loadu_ps(reinterpret_cast<const float*>(r.src + r.src_inner));
  __m128 row2 = _mm_loadu_ps(reinterpret_cast<const float*>(r.src + 2 * r.src_inner));
  __m128 row3 = _mm_loadu_ps(reinterpret_cast<const float*>(r.src + 3 * r.src_inner));
  _MM_TRANSPOSE4_PS(row0, row1, row2, row3);
  _mm_storeu_ps(reinterpret_cast<float*>(r.dst), row0);
  _mm_storeu_ps(reinterpret_cast<float*>(r.dst + r.dst_outer), row1);
  _mm_storeu_ps(reinterpret_cast<float*>(r.dst + 2 * r.dst_outer), row2);
  _mm_storeu_ps(reinterpret_cast<float*>(r.dst + 3 * r.dst_outer), row3);
}
#endif

template <int E>
void (*short_rows_kernel(int64_t n))(const Rows2d&) {
  switch (n) {
    case 2: return short_rows<E, 2>;
    case 3: return short_rows<E, 3>;
    case 4: return short_rows<E, 4>;
    case 8: return short_rows<E, 8>;
    default: return strided_rows;
  }
}

// The kernel for the tiny rows r.
ST_FORCE_INLINE void (*tiny_rows_kernel(const Rows2d& r))(const Rows2d&) {
#if defined(__SSE2__)
  if (r.itemsize == 4 && r.n == 4 && r.m == 4 && r.dst_inner == 4 && r.src_outer == 4) return transpose_4x4_e4;
#endif
  switch (r.itemsize) {
    case 1: return short_rows_kernel<1>(r.n);
    case 2: return short_rows_kernel<2>(r.n);
    case 4: return short_rows_kernel<4>(r.n);
    case 8: return short_rows_kernel<8>(r.n);
    default: return short_rows_kernel<16>(r.n);
  }
}

// The rows of g's two fastest dims (g.ndim() >= 1), dst and src left null:
// the tiny copies and the row tasks both start from them.
ST_FORCE_INLINE Rows2d rows_of(const Geometry& g, int64_t itemsize) {
  Rows2d r{};
  r.n = g.shape[0];
  r.m = g.ndim() > 1 ? g.shape[1] : 1;
  r.dst_inner = g.strides[0][0];
  r.src_inner = g.strides[1][0];
  r.dst_outer = g.ndim() > 1 ? g.strides[0][1] : 0;
  r.src_outer = g.ndim() > 1 ? g.strides[1][1] : 0;
  r.itemsize = itemsize;
  return r;
}

void run_rows(const Geometry& g, int64_t itemsize, bool stream, void (*kernel)(const Rows2d&)) {
  Rows2d base = rows_of(g, itemsize);
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

// Whether dst and src of g are each one block of bytes, in the same order:
// one memcpy copies them.
ST_FORCE_INLINE bool is_one_block(const Geometry& g, int64_t itemsize) {
  return g.ndim() == 0 || (g.ndim() == 1 && g.strides[0][0] == itemsize && g.strides[1][0] == itemsize);
}

// Fills *out and answers true when g is a tiny copy (out_bytes of g's
// elements, 0 < out_bytes <= kTinyBytes, over at most two dims): one memcpy
// when dst and src are each one block in the same order, else the rows
// and their kernel. *out is left alone otherwise.
ST_FORCE_INLINE bool tiny_copy_of(const Geometry& g, int64_t itemsize, int64_t out_bytes, TinyCopy* out) {
  if (out_bytes <= 0 || out_bytes > kTinyBytes || g.ndim() > 2) return false;
  if (is_one_block(g, itemsize)) {
    out->memcpy_bytes = out_bytes;
    return true;
  }
  out->memcpy_bytes = 0;
  out->rows = rows_of(g, itemsize);
  out->kernel = tiny_rows_kernel(out->rows);
  return true;
}

}  // namespace

bool plan_tiny_copy(const Geometry& g, int64_t itemsize, TinyCopy* out) {
  *out = TinyCopy{};
  return tiny_copy_of(g, itemsize, g.numel() * itemsize, out);
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

void copy_same_dtype(const Geometry& g, int64_t itemsize) {
  ST_CHECK(itemsize > 0 && itemsize <= 16 && (itemsize & (itemsize - 1)) == 0, ST_ERROR_INTERNAL,
           "copy: no kernel for elements of %lld bytes", static_cast<long long>(itemsize));
  const int64_t out_bytes = g.numel() * itemsize;
  if (out_bytes == 0) return;
  // Inlined, so that a tiny copy of one block (a clone, a contiguous
  // source) is one memcpy, with no rows filled in.
  TinyCopy tiny;
  if (tiny_copy_of(g, itemsize, out_bytes, &tiny)) return run_tiny_copy(tiny, g.data[0], g.data[1]);
  const CopyPath path = plan_same_dtype_copy(g, itemsize);
  const bool stream = out_bytes >= stream_threshold_bytes();
  const CopyKernelTable& kernels = active_copy_kernels();
  switch (path) {
    case CopyPath::Empty:
      return;
    case CopyPath::Contiguous:
      return copy_contiguous(g.data[0], g.data[1], out_bytes, stream, kernels);
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
