#include "cpu/stream_tuning.h"

#include <atomic>
#include <cstdlib>

#include "core/runtime/environment.h"

namespace st {
namespace cpu {
namespace {

// Note [Streaming stores]
// Streaming stores skip the read for ownership that an ordinary store of a
// line not in the cache costs, so a copy larger than the caches streams
// (AVX2 and AVX-512; AArch64 has no such stores). Below the threshold the
// output stays in the caches for whoever reads it next. Streamed lines go
// in order unless the pages part says otherwise: a few 4 KiB pages side by
// side keep more reads in flight on CPUs whose prefetcher follows each
// page as a stream of its own and stops at page ends; converting rows that
// do not widen may prefetch their source ahead instead, when their own
// work between loads leaves the hardware prefetcher behind. The figures
// behind each choice, and the CPUs they were measured on, are in
// docs/tuning.md ("Why").

int valid_pages(long pages) { return pages >= 4 ? 4 : pages >= 2 ? 2 : 1; }

bool is_pages(int64_t v) { return v == 1 || v == 2 || v == 4; }

std::atomic<int64_t> g_threshold{-1};  // -1: not chosen yet
std::atomic<int> g_pages{0};
std::atomic<int64_t> g_prefetch{-1};

int64_t valid_prefetch(int64_t bytes) {
  return bytes < 0 ? 0 : bytes > kMaxStreamPrefetchBytes ? kMaxStreamPrefetchBytes : bytes;
}

StreamTuning choose(const StreamTuningEnv& env) {
  StreamTuning t = kDefaultStreamTuning;
  int64_t v = 0;
  if (env::count_from("ST_STREAM_THRESHOLD_BYTES", env.threshold_bytes, 0, INT64_MAX,
                      "a byte count from 0 to 9223372036854775807", &v)) {
    t.threshold_bytes = v;
  }
  if (env::count_from("ST_STREAM_PAGES", env.pages, 1, 4, "1, 2 or 4", &v, is_pages)) t.pages = static_cast<int>(v);
  if (env::count_from("ST_STREAM_PREFETCH_BYTES", env.prefetch_bytes, 0, kMaxStreamPrefetchBytes,
                      "a byte count from 0 to 65536", &v)) {
    t.prefetch_bytes = v;
  }
  return t;
}

void choose_once() {
  if (g_threshold.load(std::memory_order_acquire) >= 0) return;
  const StreamTuning t = choose({std::getenv("ST_STREAM_THRESHOLD_BYTES"), std::getenv("ST_STREAM_PAGES"),
                                 std::getenv("ST_STREAM_PREFETCH_BYTES")});
  // Every part is set at most once here (a setter's value is not
  // replaced), and the threshold last: a thread that sees it set sees the
  // others (the exchanges acquire what an earlier one released).
  int expected_pages = 0;
  g_pages.compare_exchange_strong(expected_pages, t.pages);
  int64_t expected_prefetch = -1;
  g_prefetch.compare_exchange_strong(expected_prefetch, t.prefetch_bytes);
  int64_t expected = -1;
  g_threshold.compare_exchange_strong(expected, t.threshold_bytes);
}

// A part of this process's choice, made first if it is not yet.
template <typename T>
T chosen(const std::atomic<T>& part) {
  choose_once();
  return part.load(std::memory_order_relaxed);
}

}  // namespace

StreamTuning choose_stream_tuning(const StreamTuningEnv& env) { return choose(env); }

StreamTuning stream_tuning() { return {stream_threshold_bytes(), stream_pages(), stream_prefetch_bytes()}; }

int64_t stream_threshold_bytes() { return chosen(g_threshold); }
int stream_pages() { return chosen(g_pages); }
int64_t stream_prefetch_bytes() { return chosen(g_prefetch); }

void set_stream_tuning(const StreamTuning& tuning) {
  choose_once();
  g_pages.store(valid_pages(tuning.pages), std::memory_order_relaxed);
  g_prefetch.store(valid_prefetch(tuning.prefetch_bytes), std::memory_order_relaxed);
  g_threshold.store(tuning.threshold_bytes < 0 ? 0 : tuning.threshold_bytes, std::memory_order_relaxed);
}

std::string stream_tuning_report() {
  const StreamTuning t = stream_tuning();
  return "stream threshold: " + std::to_string(t.threshold_bytes) + " B\nstream pages side by side: " +
         std::to_string(t.pages) + "\nstream prefetch: " + std::to_string(t.prefetch_bytes) + " B\n";
}

}  // namespace cpu
}  // namespace st
