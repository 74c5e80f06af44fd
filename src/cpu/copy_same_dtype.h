// Same-dtype copies over the canonical geometry of a copy (operand 0 dst,
// 1 src; Note [The canonical geometry] in iter/geometry.h), at memory
// bandwidth for every layout: one bandwidth-optimal copy when both sides
// are contiguous, row copies when the fastest dims agree, cache-blocked
// register transposes when they differ, row fills for broadcast inner dims,
// strided gathers otherwise, and tiny copies element by element.
// Instruction sets are chosen at run time (cpu_isa.h).
//
// Call it once for the whole copy, not per for_each chunk: it splits the
// work over threads itself, in layout-aware tasks (inside a parallel_for
// it runs serially).
#pragma once

#include <cstdint>
#include <cstring>

#include "cpu/levels/copy_kernel_table.h"
#include "iter/geometry.h"

namespace st {
namespace cpu {

// Copies every element of `itemsize` bytes (1, 2, 4, 8 or 16) of g, over
// up to st_get_num_threads() threads.
void copy_same_dtype(const Geometry& g, int64_t itemsize);

// A copy small enough that copy_same_dtype does it on the calling thread
// (at most 256 bytes over at most two dims): one memcpy of `memcpy_bytes`
// when both sides are one run, else `kernel` moving `rows` element by
// element. A copy plan keeps one and runs it with new addresses.
struct TinyCopy {
  Rows2d rows;                          // dst and src: element (0, 0) of each
  int64_t memcpy_bytes;                 // > 0: one memcpy of this many bytes
  void (*kernel)(const Rows2d& rows);  // otherwise
};
// False when g is not such a copy (the rows then say nothing).
bool plan_tiny_copy(const Geometry& g, int64_t itemsize, TinyCopy* out);
inline void run_tiny_copy(const TinyCopy& t, char* dst, const char* src) {
  if (t.memcpy_bytes > 0) {
    std::memcpy(dst, src, static_cast<size_t>(t.memcpy_bytes));
    return;
  }
  Rows2d r = t.rows;
  r.dst = dst;
  r.src = src;
  t.kernel(r);
}

// Any Rows2d of any itemsize (1, 2, 4, 8 or 16), element by element, each
// element moved as one fixed-size copy: the portable kernel of the Strided
// path, and the converting copies' gathers and scatters.
void strided_rows(const Rows2d& r);

// Which kernel copy_same_dtype picks for a geometry (for tests and probes).
enum class CopyPath {
  Empty,       // numel 0
  Contiguous,  // one run of bytes: memcpy or streaming copy
  Rows,        // dst and src contiguous along the fastest dim
  Fill,        // src stride 0 along the fastest dim
  Gather,      // dst contiguous, src strided (reversed, every 2nd, ...)
  Transpose,   // src contiguous along another dim than dst
  Strided,     // dst not contiguous along any dim: element by element
};
CopyPath plan_same_dtype_copy(const Geometry& g, int64_t itemsize);
const char* copy_path_name(CopyPath p);

}  // namespace cpu
}  // namespace st
