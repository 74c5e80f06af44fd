// The copies every bandwidth case is measured against: the fastest ways to
// move the same number of bytes on this machine, split over the same
// number of threads as the case.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>

#include "bench.h"

namespace bench {

// Each copy is split into `threads` parts of [0, nbytes) at 4 KiB
// boundaries, run on OpenMP threads (std::thread without OpenMP); one
// thread runs on the caller.

// Calls f(part, parts) once for each part 0 … parts − 1, each on its own
// thread (OpenMP's, or std::thread without OpenMP; part 0 on the caller's).
void run_parts(int threads, const std::function<void(int part, int parts)>& f);

// memcpy, each thread copying its part.
void parallel_memcpy(char* dst, const char* src, size_t nbytes, int threads);

// A copy with non-temporal (streaming) stores, each thread copying its part:
// AVX-512, AVX2 or SSE2 stores as the CPU allows (chosen at run time), or
// memcpy on other CPUs.
void parallel_nt_copy(char* dst, const char* src, size_t nbytes, int threads);

// Writes nbytes of a byte pattern with parallel_nt_copy's streaming stores,
// on the calling thread.
void nt_fill(char* dst, size_t nbytes);

// Reads nbytes at p, on the calling thread, with the widest loads the CPU
// has (chosen at run time), and returns a value computed from every byte.
uint64_t fold_bytes(const char* p, size_t nbytes);

// Which instructions parallel_nt_copy uses on this CPU.
const char* nt_copy_variant();

// An anonymous mapping of at least nbytes, not yet written (its pages are
// faulted in by whoever writes them first). Pages::Huge: as fast to fault
// in as Linux allows, 2 MiB-aligned and advised MADV_HUGEPAGE; Pages::Small:
// 4 KiB pages, advised MADV_NOHUGEPAGE. Freed with unmap_pages() and the
// same nbytes and pages. The bench's only calls to mmap and madvise.
char* map_pages(size_t nbytes, Pages pages);
void unmap_pages(char* p, size_t nbytes, Pages pages);

// Copies `nbytes` from src into a fresh huge-page block (pages faulted in
// by the copying threads), then unmaps it: the page-fault floor of an
// operator that returns a new tensor.
void hugepage_alloc_copy_free(const char* src, size_t nbytes, int threads);

// The same with malloc and free.
void malloc_copy_free(const char* src, size_t nbytes, int threads);

}  // namespace bench
