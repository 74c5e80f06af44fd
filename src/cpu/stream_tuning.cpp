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
//
// Rows that convert while they stream (float32 -> float8, -> bfloat16,
// float64 -> float32, ...) do a few instructions per line between their
// loads, and on the Xeon the prefetcher then falls behind: float32 ->
// float8_e4m3fn moved 27 GB/s with its source in L3 and 11 GB/s from DRAM,
// where the source read alone moves 30. Prefetching each line's source
// ahead (to L2) took the narrowing conversions (to float16, bfloat16,
// float8, uint8, int32) from 0.62-0.88 of their roofline to 0.78-1.03 at
// one thread and two (1 KiB ahead, four pages side by side; 512 B to 2 KiB
// within the noise of each other). Written in order instead, 4 KiB ahead
// does better still: stride-bench, full sizes, huge pages, against 1 KiB
// and four pages, two runs each at 1 and 2 threads: float16 -> float8
// 0.78-0.82 -> 0.82-0.86, float64 -> float32 0.89-0.96 -> 0.96-0.97, the
// scaled float32 -> float8 (written in order already) 0.60-0.63 ->
// 0.82-0.86 and -> int8 0.75 -> 0.93-0.96; 8 KiB ahead within the noise
// of 4 KiB, and 4 KiB with four pages side by side worse than 1 KiB
// (0.71-0.77). Rows that widen read a quarter or half a line per line
// written and keep up without it. AMD was measured without it and keeps
// that.
//
// Transposes (Note [Transpose blocking] in transpose_blocked.h): on AMD
// blocks of 1 KiB of each src row, the next blocks prefetched 16 KiB ahead;
// on Intel blocks of a 4 KiB page of each src row, nothing prefetched.
constexpr StreamTuning kAmd = {int64_t{16} << 20, 1, 0, 1024, 16 * 1024};
constexpr StreamTuning kIntel = {int64_t{4} << 20, 4, 4096, 4096, 0};

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
std::atomic<int64_t> g_prefetch{-1};  // -1: not chosen yet
std::atomic<int64_t> g_transpose_src{-1};
std::atomic<int64_t> g_transpose_prefetch{-1};

int64_t valid_prefetch(int64_t bytes) {
  return bytes < 0 ? 0 : bytes > kMaxStreamPrefetchBytes ? kMaxStreamPrefetchBytes : bytes;
}

bool is_transpose_src_bytes(int64_t bytes) {
  return bytes >= kMinTransposeSrcBytes && bytes <= kMaxTransposeSrcBytes && (bytes & (bytes - 1)) == 0;
}

// The largest power of two in range that is at most `bytes`.
int64_t valid_transpose_src(int64_t bytes) {
  int64_t v = kMinTransposeSrcBytes;
  while (v * 2 <= bytes && v < kMaxTransposeSrcBytes) v *= 2;
  return v;
}

void choose_once() {
  if (g_threshold.load(std::memory_order_acquire) >= 0) return;
  const StreamTuningEnv env = {std::getenv("ST_STREAM_THRESHOLD_BYTES"), std::getenv("ST_STREAM_PAGES"),
                               std::getenv("ST_STREAM_PREFETCH_BYTES"), std::getenv("ST_TRANSPOSE_SRC_BYTES"),
                               std::getenv("ST_TRANSPOSE_PREFETCH_BYTES")};
  const StreamTuning t = choose_stream_tuning(detected_cpu_vendor(), env);
  // Every part is set at most once here (a setter's value is not
  // replaced), and the threshold last: a thread that sees it set sees the
  // others (the exchanges acquire what an earlier one released).
  int expected_pages = 0;
  g_pages.compare_exchange_strong(expected_pages, t.pages);
  int64_t expected_prefetch = -1;
  g_prefetch.compare_exchange_strong(expected_prefetch, t.prefetch_bytes);
  int64_t expected_src = -1;
  g_transpose_src.compare_exchange_strong(expected_src, t.transpose_src_bytes);
  int64_t expected_transpose_prefetch = -1;
  g_transpose_prefetch.compare_exchange_strong(expected_transpose_prefetch, t.transpose_prefetch_bytes);
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

StreamTuning choose_stream_tuning(CpuVendor vendor, const StreamTuningEnv& env) {
  StreamTuning t = vendor == CpuVendor::Intel ? kIntel : kAmd;
  long long v = 0;
  if (read_count(env.threshold_bytes, &v)) t.threshold_bytes = v;
  if (read_count(env.pages, &v) && (v == 1 || v == 2 || v == 4)) t.pages = static_cast<int>(v);
  if (read_count(env.prefetch_bytes, &v) && v <= kMaxStreamPrefetchBytes) t.prefetch_bytes = v;
  if (read_count(env.transpose_src_bytes, &v) && is_transpose_src_bytes(v)) t.transpose_src_bytes = v;
  if (read_count(env.transpose_prefetch_bytes, &v) && v <= kMaxStreamPrefetchBytes) t.transpose_prefetch_bytes = v;
  return t;
}

StreamTuning stream_tuning() {
  return {stream_threshold_bytes(), stream_pages(), stream_prefetch_bytes(), transpose_src_bytes(),
          transpose_prefetch_bytes()};
}

int64_t stream_threshold_bytes() { return chosen(g_threshold); }
int stream_pages() { return chosen(g_pages); }
int64_t stream_prefetch_bytes() { return chosen(g_prefetch); }
int64_t transpose_src_bytes() { return chosen(g_transpose_src); }
int64_t transpose_prefetch_bytes() { return chosen(g_transpose_prefetch); }

void set_stream_tuning(const StreamTuning& tuning) {
  choose_once();
  g_pages.store(valid_pages(tuning.pages), std::memory_order_relaxed);
  g_prefetch.store(valid_prefetch(tuning.prefetch_bytes), std::memory_order_relaxed);
  g_transpose_src.store(valid_transpose_src(tuning.transpose_src_bytes), std::memory_order_relaxed);
  g_transpose_prefetch.store(valid_prefetch(tuning.transpose_prefetch_bytes), std::memory_order_relaxed);
  g_threshold.store(tuning.threshold_bytes < 0 ? 0 : tuning.threshold_bytes, std::memory_order_relaxed);
}

}  // namespace cpu
}  // namespace st
