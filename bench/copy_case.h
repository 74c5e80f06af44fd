// The bandwidth cases (A–J): one source view copied in
// three modes, each timed against the fastest copies of the same bytes.
//
// Bytes moved = numel × (source itemsize + destination itemsize): what the
// copy reads plus what it writes, counting each logical element once (a
// skipped half of a strided source or a re-read broadcast row counts as
// the elements copied, not as the memory touched).
//
// Modes:
//  - prealloc: st_copy into an existing contiguous destination whose pages
//    were written before.
//  - plan: st_copy_plan_execute_raw of a plan made with ST_PLAN_MEASURE at
//    the row's thread count, into the same destination.
//  - alloc: the operator that returns a new tensor (st_clone, st_contiguous
//    or st_to), plus st_tensor_release of the result: allocation, page
//    faults and freeing included.
//  - read, write: no copy, but each half of it alone: the source view
//    only read, the destination only written (plain or streaming stores,
//    whichever is faster), each in its own memory order (Note [Each operand
//    alone] in access_limits.h). Their fractions count
//    the copy's bytes, so a half that streams at memcpy's byte rate shows
//    about 2. With the best copy they make the case's roofline (Note [The
//    roofline] in bench.h), which every row is also compared with.
//
// Baselines, each moving the same bytes on the same number of threads
// (bytes moved / 2 copied from one buffer to another, both 2 MiB-aligned,
// huge-page-advised and already written):
//  - memcpy: glibc memcpy, split into one part per thread.
//  - NT copy: streaming stores (see baselines.h), split the same way.
//  - hugepage alloc: a fresh 2 MiB-aligned, MADV_HUGEPAGE mapping, memcpy
//    into it, unmapped: the floor for the alloc mode.
//  - malloc: malloc, memcpy, free (for information).
//
// Pages (--pages): the destination, and the baselines' destination with
// it, on huge pages (the library's allocation) or on 4 KiB pages mapped by
// the bench; the sources stay on huge pages. The alloc mode, whose tensor
// the library allocates, runs with huge pages only.
//
// A round runs every baseline and every mode once, each timed on its own;
// one untimed round warms up, then rounds repeat (at least 3, more while
// the time allows, or --reps); each figure is the median of its rounds. A
// fraction is baseline time / case time: 1.0 means as fast as the baseline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench.h"
#include "stride.h"

namespace bench {

// The operator the alloc mode times.
enum class AllocOp {
  Clone,       // st_clone(view, PRESERVE)
  Contiguous,  // st_contiguous(view, CONTIGUOUS)
  To,          // st_to(view, dst_dtype, cpu, CONTIGUOUS)
};

struct CopyCase {
  std::string label;                // the row's name in the table
  std::vector<int64_t> base_sizes;  // the contiguous tensor the view is made of
  st_dtype src_dtype = ST_FLOAT32;
  st_dtype dst_dtype = ST_FLOAT32;
  // Makes the view that is copied from the base (a new reference).
  std::function<st_tensor(st_tensor base)> view;
  AllocOp alloc_op = AllocOp::Contiguous;
  // A scaled copy (st_copy_scaled) when `scaled`: prealloc times
  // st_copy_scaled into dst, alloc st_tensor_create + st_copy_scaled +
  // release; the values are checked by the tests, not here.
  bool scaled = false;
  std::vector<double> scale, shift;  // n values each (n = 1: per tensor)
  int32_t dim = 0;
  int32_t saturate = 0;
};

// Runs the case with every page kind and at every thread count of
// `options`, and adds a row for each mode of each to `table`.
void run_copy_case(Table& table, const Options& options, const CopyCase& c);

// Whether `rounds` timed rounds begun at start_ns are enough: --quick's
// few, --reps, or at least 3 and then more while 2 s allow, at most 9.
bool enough_rounds(const Options& options, int rounds, int64_t start_ns);

// The baselines' source and destination, each at least nbytes, kept
// between cases (grown when a case needs more) so that their pages are
// faulted in once: the source on huge pages, the destination on dst_pages.
struct BaselineBuffers {
  const char* src;
  char* dst;
};
BaselineBuffers baseline_buffers(size_t nbytes, Pages dst_pages);

// A case's destination, contiguous: the library's own allocation for
// Pages::Huge (today's st_tensor_create), 4 KiB pages mapped here and
// wrapped for Pages::Small (unmapped when the tensor is released). Written
// once, so that its pages are faulted in before anything is timed.
st_tensor make_destination(const std::vector<int64_t>& sizes, st_dtype dtype, Pages pages);

// View makers.
std::function<st_tensor(st_tensor)> same_tensor();
std::function<st_tensor(st_tensor)> permuted(std::vector<int32_t> dims);
std::function<st_tensor(st_tensor)> sliced(int32_t dim, int64_t step);
std::function<st_tensor(st_tensor)> expanded(std::vector<int64_t> sizes);

}  // namespace bench
