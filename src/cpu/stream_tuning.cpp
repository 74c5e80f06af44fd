#include "cpu/stream_tuning.h"

#include <atomic>
#include <cstdlib>

namespace st {
namespace cpu {
namespace {

// Note [Streaming on each vendor]
// Streaming stores skip the read for ownership that an ordinary store of a
// line not in the cache costs, so a copy larger than the caches streams.
// The two x86 vendors differ in how such a copy is best written.
//
// AMD (the 2-core AVX-512 EPYC machines; a copy of n bytes into an
// already-written buffer, memcpy vs AVX-512 streaming stores): on one
// thread streaming is 6-20% faster at every size from 1 MB; on two threads
// memcpy is ~20% faster up to 12 MB, even at 16 MB, and 16-35% slower from
// 24 MB up: a threshold of 16 MiB. Written in order.
//
// Intel (a 2-core Xeon, family 6 model 207, AVX-512, 2 MiB of L2 a core;
// 256 MiB copied into an already-written buffer, one thread): written in
// order, AVX-512 streaming stores move 20.5 GB/s (read + written) where
// glibc's memcpy moves 23.4; written four pages side by side, a line of
// each in turn, they move 23.5-26.0 (two pages: 23.4), on 2 MiB pages and
// on 4 KiB pages alike. Each page is a stream of its own for the L2
// prefetcher, which does not cross 4 KiB boundaries, so four of them keep
// four times the reads in flight; glibc's large memcpy interleaves pages for
// the same reason. Software prefetching on top gained nothing. Streaming
// beats memcpy at every size from 1 MiB on one thread there (1.4-1.7x),
// and from 2 MiB on two (4, 8, 16 MiB: 1.8x; memcpy's rep movsb moves
// 36-40 GB/s there, four pages streamed 58-70): a threshold of 4 MiB, the
// two cores' L2, below which the output can still stay in the caches for
// whoever reads it next.
constexpr StreamTuning kAmd = {int64_t{16} << 20, 1};
constexpr StreamTuning kIntel = {int64_t{4} << 20, 4};

int valid_pages(long pages) { return pages >= 4 ? 4 : pages >= 2 ? 2 : 1; }

bool read_count(const char* env, long long* out) {
  if (!env || !*env) return false;
  char* end = nullptr;
  const long long v = std::strtoll(env, &end, 10);
  if (*end != '\0' || v < 0) return false;
  *out = v;
  return true;
}

std::atomic<int64_t> g_threshold{-1};  // -1: not chosen yet
std::atomic<int> g_pages{0};

void choose_once() {
  if (g_threshold.load(std::memory_order_acquire) >= 0) return;
  const StreamTuning t = choose_stream_tuning(detected_cpu_vendor(), std::getenv("ST_STREAM_THRESHOLD_BYTES"),
                                              std::getenv("ST_STREAM_PAGES"));
  int expected_pages = 0;
  g_pages.compare_exchange_strong(expected_pages, t.pages, std::memory_order_relaxed);
  int64_t expected = -1;
  g_threshold.compare_exchange_strong(expected, t.threshold_bytes, std::memory_order_release);
}

}  // namespace

StreamTuning choose_stream_tuning(CpuVendor vendor, const char* threshold_env, const char* pages_env) {
  StreamTuning t = vendor == CpuVendor::Intel ? kIntel : kAmd;
  long long v = 0;
  if (read_count(threshold_env, &v)) t.threshold_bytes = v;
  if (read_count(pages_env, &v) && (v == 1 || v == 2 || v == 4)) t.pages = static_cast<int>(v);
  return t;
}

StreamTuning stream_tuning() { return {stream_threshold_bytes(), stream_pages()}; }

int64_t stream_threshold_bytes() {
  choose_once();
  return g_threshold.load(std::memory_order_relaxed);
}

int stream_pages() {
  choose_once();
  return g_pages.load(std::memory_order_relaxed);
}

void set_stream_tuning(const StreamTuning& tuning) {
  choose_once();
  g_pages.store(valid_pages(tuning.pages), std::memory_order_relaxed);
  g_threshold.store(tuning.threshold_bytes < 0 ? 0 : tuning.threshold_bytes, std::memory_order_relaxed);
}

}  // namespace cpu
}  // namespace st
