// The order in which a long run of streaming stores is written (in order,
// or a few 4 KiB pages side by side) and the prefetch of what a streamed
// row reads (Note [Streaming stores] in stream_tuning.cpp says why
// and where). Included by the per-level kernel sources; nothing here
// depends on a level.
#pragma once

#include <cstdint>

#include "core/macros.h"

namespace st {
namespace cpu {
namespace {

constexpr int64_t kStreamPageBytes = 4096;

template <int kPages, class Step>
ST_FORCE_INLINE int64_t pages_side_by_side(int64_t count, int64_t per_page, Step& step) {
  const int64_t block = per_page * kPages;
  int64_t b = 0;
  for (; b + block <= count; b += block) {
    for (int64_t u = 0; u < per_page; ++u) {
      for (int p = 0; p < kPages; ++p) step(b + p * per_page + u);
    }
  }
  return b;
}

// Prefetches (to L2) the kBytes a step reads at src, `ahead` bytes on
// (none when 0): stream_tuning.h's prefetch_bytes. The address is formed
// as an integer: past the end of a row it is no object's, and a prefetch
// of it does nothing.
template <int64_t kBytes>
ST_FORCE_INLINE void prefetch_ahead(const char* src, int64_t ahead) {
  if (ahead == 0) return;
  const uintptr_t at = reinterpret_cast<uintptr_t>(src) + static_cast<uintptr_t>(ahead);
  for (int64_t q = 0; q < kBytes; q += 64) {
    ST_PREFETCH_TO_L2(reinterpret_cast<const char*>(at + static_cast<uintptr_t>(q)));
  }
}

// step(k) for every k < count, where unit k is the k-th `unit_bytes` of the
// output (a power of two up to 4 KiB): with pages > 1, whole blocks of
// `pages` pages go a unit of each page in turn, and what is left in order.
template <class Step>
ST_FORCE_INLINE void for_each_unit(int64_t count, int64_t unit_bytes, int pages, Step&& step) {
  const int64_t per_page = kStreamPageBytes / unit_bytes;
  int64_t k = 0;
  if (pages >= 4) {
    k = pages_side_by_side<4>(count, per_page, step);
  } else if (pages == 2) {
    k = pages_side_by_side<2>(count, per_page, step);
  }
  for (; k < count; ++k) step(k);
}

}  // namespace
}  // namespace cpu
}  // namespace st
