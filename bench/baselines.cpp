#include "baselines.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

#include "bench.h"
#include "cpu/cpu_isa.h"

#if defined(STRIDE_HAVE_OPENMP)
#include <omp.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define BENCH_X86 1
#endif

namespace bench {

void run_parts(int threads, const std::function<void(int part, int parts)>& f) {
  if (threads <= 1) {
    f(0, 1);
    return;
  }
#if defined(STRIDE_HAVE_OPENMP)
#pragma omp parallel num_threads(threads)
  f(omp_get_thread_num(), omp_get_num_threads());
#else
  std::vector<std::thread> workers;
  for (int t = 1; t < threads; ++t) workers.emplace_back([&, t] { f(t, threads); });
  f(0, threads);
  for (std::thread& w : workers) w.join();
#endif
}

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kHugePage = size_t{2} << 20;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// Tells the compiler that the bytes at p are read here, so that a copy into
// a block freed right after it is not removed as a dead store.
inline void keep_written(void* p) { asm volatile("" : : "r"(p) : "memory"); }

// Part `part` of `parts` of [0, nbytes), at page boundaries so that no two
// threads write the same cache line or page.
void part_range(size_t nbytes, int parts, int part, size_t* begin, size_t* end) {
  const size_t step = round_up((nbytes + static_cast<size_t>(parts) - 1) / static_cast<size_t>(parts), kPage);
  *begin = std::min(nbytes, step * static_cast<size_t>(part));
  *end = std::min(nbytes, *begin + step);
}

template <typename F>
void split_bytes(size_t nbytes, int threads, const F& f) {
  run_parts(threads, [&](int part, int parts) {
    size_t begin, end;
    part_range(nbytes, parts, part, &begin, &end);
    if (begin < end) f(begin, end);
  });
}

using CopyFn = void (*)(char* dst, const char* src, size_t nbytes);

// Makes this thread's streaming stores visible (they are weakly ordered).
inline void store_fence() {
#if defined(BENCH_X86)
  _mm_sfence();
#endif
}

void plain_copy(char* dst, const char* src, size_t nbytes) { std::memcpy(dst, src, nbytes); }

#if defined(BENCH_X86)
// Each streaming copy: memcpy up to the first `kAlign`-aligned destination
// byte, full vectors with unaligned loads and streaming stores (four per
// iteration, a whole 64-byte line or more each), memcpy for the tail. The
// caller fences once after its last one, so that the stores are visible
// before the timer stops (a fence per 16 KB block costs ~20%).

__attribute__((target("avx512f"))) void nt_copy_avx512(char* dst, const char* src, size_t nbytes) {
  size_t head = (64 - reinterpret_cast<uintptr_t>(dst) % 64) % 64;
  if (head > nbytes) head = nbytes;
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 256 <= nbytes; i += 256) {
    const __m512i a = _mm512_loadu_si512(src + i);
    const __m512i b = _mm512_loadu_si512(src + i + 64);
    const __m512i c = _mm512_loadu_si512(src + i + 128);
    const __m512i d = _mm512_loadu_si512(src + i + 192);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i), a);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i + 64), b);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i + 128), c);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i + 192), d);
  }
  std::memcpy(dst + i, src + i, nbytes - i);
}

__attribute__((target("avx2"))) void nt_copy_avx2(char* dst, const char* src, size_t nbytes) {
  size_t head = (32 - reinterpret_cast<uintptr_t>(dst) % 32) % 32;
  if (head > nbytes) head = nbytes;
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 128 <= nbytes; i += 128) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 32));
    const __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 64));
    const __m256i d = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i + 96));
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i), a);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 32), b);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 64), c);
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i + 96), d);
  }
  std::memcpy(dst + i, src + i, nbytes - i);
}

// SSE2 is part of every x86-64 CPU.
void nt_copy_sse2(char* dst, const char* src, size_t nbytes) {
  size_t head = (16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16;
  if (head > nbytes) head = nbytes;
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 64 <= nbytes; i += 64) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 16));
    const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 32));
    const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i + 48), d);
  }
  std::memcpy(dst + i, src + i, nbytes - i);
}

// Each reader folds whole 64-byte lines with four independent
// accumulators of the widest vectors, and the rest byte by byte: loads at
// the rate the copies' own vector loads reach (at -O3 for the baseline
// ISA, 16-byte loads leave one core ~20% short of it).
__attribute__((target("avx512f"))) uint64_t fold_avx512(const char* p, size_t nbytes) {
  __m512i a = _mm512_setzero_si512(), b = a, c = a, d = a;
  size_t i = 0;
  for (; i + 256 <= nbytes; i += 256) {
    a = _mm512_xor_si512(a, _mm512_loadu_si512(p + i));
    b = _mm512_xor_si512(b, _mm512_loadu_si512(p + i + 64));
    c = _mm512_xor_si512(c, _mm512_loadu_si512(p + i + 128));
    d = _mm512_xor_si512(d, _mm512_loadu_si512(p + i + 192));
  }
  for (; i + 64 <= nbytes; i += 64) a = _mm512_xor_si512(a, _mm512_loadu_si512(p + i));
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, d)));
  uint64_t r = 0;
  for (uint64_t v : lanes) r ^= v;
  for (; i < nbytes; ++i) r ^= static_cast<unsigned char>(p[i]);
  return r;
}

__attribute__((target("avx2"))) uint64_t fold_avx2(const char* p, size_t nbytes) {
  __m256i a = _mm256_setzero_si256(), b = a, c = a, d = a;
  size_t i = 0;
  for (; i + 128 <= nbytes; i += 128) {
    a = _mm256_xor_si256(a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)));
    b = _mm256_xor_si256(b, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32)));
    c = _mm256_xor_si256(c, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 64)));
    d = _mm256_xor_si256(d, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 96)));
  }
  for (; i + 32 <= nbytes; i += 32) a = _mm256_xor_si256(a, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)));
  alignas(32) uint64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), _mm256_xor_si256(_mm256_xor_si256(a, b), _mm256_xor_si256(c, d)));
  uint64_t r = lanes[0] ^ lanes[1] ^ lanes[2] ^ lanes[3];
  for (; i < nbytes; ++i) r ^= static_cast<unsigned char>(p[i]);
  return r;
}
#endif

// Any CPU: 8-byte words, which the compiler widens to its baseline vectors.
uint64_t fold_words(const char* p, size_t nbytes) {
  uint64_t acc[8] = {};
  size_t i = 0;
  for (; i + 64 <= nbytes; i += 64) {
    uint64_t words[8];
    std::memcpy(words, p + i, 64);
    for (int k = 0; k < 8; ++k) acc[k] ^= words[k];
  }
  uint64_t r = 0;
  for (uint64_t v : acc) r ^= v;
  for (; i < nbytes; ++i) r ^= static_cast<unsigned char>(p[i]);
  return r;
}

using FoldFn = uint64_t (*)(const char* p, size_t nbytes);

// The baselines with a variant per instruction set run the level the
// library's kernels run at, by the library's own rule (cpu/cpu_isa.h:
// AVX-512 means F, BW, VL and DQ), so both use the same vectors.
FoldFn choose_fold() {
#if defined(BENCH_X86)
  switch (st::cpu::cpu_isa()) {
    case st::cpu::CpuIsa::Avx512: return fold_avx512;
    case st::cpu::CpuIsa::Avx2: return fold_avx2;
    case st::cpu::CpuIsa::Scalar: break;
  }
#endif
  return fold_words;
}

struct NtChoice {
  CopyFn fn;
  const char* name;
};

NtChoice choose_nt_copy() {
#if defined(BENCH_X86)
  switch (st::cpu::cpu_isa()) {
    case st::cpu::CpuIsa::Avx512: return NtChoice{nt_copy_avx512, "AVX-512 streaming stores (vmovntdq zmm)"};
    case st::cpu::CpuIsa::Avx2: return NtChoice{nt_copy_avx2, "AVX2 streaming stores (vmovntdq ymm)"};
    case st::cpu::CpuIsa::Scalar: break;
  }
  return NtChoice{nt_copy_sse2, "SSE2 streaming stores (movntdq xmm)"};
#else
  return NtChoice{plain_copy, "memcpy (no streaming-store copy for this CPU architecture)"};
#endif
}

const NtChoice& nt_choice() {
  static const NtChoice choice = choose_nt_copy();
  return choice;
}

}  // namespace

void parallel_memcpy(char* dst, const char* src, size_t nbytes, int threads) {
  split_bytes(nbytes, threads, [&](size_t begin, size_t end) { plain_copy(dst + begin, src + begin, end - begin); });
}

void parallel_nt_copy(char* dst, const char* src, size_t nbytes, int threads) {
  const CopyFn fn = nt_choice().fn;
  split_bytes(nbytes, threads, [&](size_t begin, size_t end) {
    fn(dst + begin, src + begin, end - begin);
    store_fence();
  });
}

const char* nt_copy_variant() { return nt_choice().name; }

uint64_t fold_bytes(const char* p, size_t nbytes) {
  static const FoldFn fold = choose_fold();
  return fold(p, nbytes);
}

void nt_fill(char* dst, size_t nbytes) {
  // The streaming copy from a block that stays in L1: the stores reach
  // memory, the loads never leave the core.
  constexpr size_t kBlock = 16 * 1024;
  static const std::vector<char> pattern(kBlock, 1);
  const CopyFn fn = nt_choice().fn;
  for (size_t at = 0; at < nbytes; at += kBlock) fn(dst + at, pattern.data(), std::min(kBlock, nbytes - at));
  store_fence();
}

// A huge-page mapping is one huge page longer than needed, so that a 2
// MiB-aligned block of the rounded-up size fits in it; the unaligned ends
// are unmapped at once, so unmap_pages needs only the block and its size.
char* map_pages(size_t nbytes, Pages pages) {
  const size_t unit = pages == Pages::Huge ? kHugePage : kPage;
  const size_t block = round_up(std::max<size_t>(nbytes, 1), unit);
  const size_t length = pages == Pages::Huge ? block + kHugePage : block;
  void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) die("mmap of %zu bytes failed", length);
  char* base = static_cast<char*>(p);
  if (pages == Pages::Small) {
    // Before the first write, which would otherwise fault in huge pages
    // where transparent huge pages are "always". A kernel without them
    // refuses the advice, and maps 4 KiB pages anyway.
    (void)madvise(base, block, MADV_NOHUGEPAGE);
    return base;
  }
  char* aligned = reinterpret_cast<char*>(round_up(reinterpret_cast<uintptr_t>(base), kHugePage));
  if (aligned > base) munmap(base, static_cast<size_t>(aligned - base));
  char* block_end = aligned + block;
  char* map_end = base + length;
  if (map_end > block_end) munmap(block_end, static_cast<size_t>(map_end - block_end));
  // Advice only: a kernel without transparent huge pages still maps 4 KiB pages.
  (void)madvise(aligned, block, MADV_HUGEPAGE);
  return aligned;
}

void unmap_pages(char* p, size_t nbytes, Pages pages) {
  munmap(p, round_up(std::max<size_t>(nbytes, 1), pages == Pages::Huge ? kHugePage : kPage));
}

void hugepage_alloc_copy_free(const char* src, size_t nbytes, int threads) {
  char* dst = map_pages(nbytes, Pages::Huge);
  parallel_memcpy(dst, src, nbytes, threads);
  keep_written(dst);
  unmap_pages(dst, nbytes, Pages::Huge);
}

void malloc_copy_free(const char* src, size_t nbytes, int threads) {
  char* dst = static_cast<char*>(std::malloc(nbytes == 0 ? 1 : nbytes));
  if (!dst) die("malloc of %zu bytes failed", nbytes);
  parallel_memcpy(dst, src, nbytes, threads);
  keep_written(dst);
  std::free(dst);
}

}  // namespace bench
