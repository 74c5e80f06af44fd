#include "core/large_blocks.h"

#include <cstdint>
#include <cstdlib>
#include <mutex>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace st {
namespace {

size_t mapped_size(size_t nbytes) { return (nbytes + kLargeBlockAlignment - 1) / kLargeBlockAlignment * kLargeBlockAlignment; }

#if defined(__linux__)
void* map_aligned(size_t len) {
  // Over-map by one alignment unit, then cut the unaligned ends off.
  const size_t over = len + kLargeBlockAlignment;
  void* raw = mmap(nullptr, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kLargeBlockAlignment - 1) & ~(uintptr_t{kLargeBlockAlignment} - 1);
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = start + over, aligned_end = aligned + len;
  if (end > aligned_end) munmap(reinterpret_cast<void*>(aligned_end), end - aligned_end);
  void* p = reinterpret_cast<void*>(aligned);
  madvise(p, len, MADV_HUGEPAGE);  // advice only: fine if THP is off
  return p;
}
void unmap(void* p, size_t len) { munmap(p, len); }
size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : 0;
}
#else
void* map_aligned(size_t len) { return std::aligned_alloc(kLargeBlockAlignment, len); }
void unmap(void* p, size_t) { std::free(p); }
size_t physical_memory() { return 0; }
#endif

size_t compute_limit() {
  if (const char* env = std::getenv("ST_CPU_BLOCK_CACHE_BYTES")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(env, &end, 10);
    if (end != env && *end == '\0') return static_cast<size_t>(v);
  }
  const size_t cap = size_t{1} << 30, eighth = physical_memory() / 8;
  return eighth && eighth < cap ? eighth : cap;
}

struct Entry {
  void* ptr;
  size_t len;
  uint64_t age;
};

// The cache: a fixed array under a mutex (taken once per large
// allocation or free, next to a copy of megabytes).
struct Cache {
  std::mutex mutex;
  Entry entries[kLargeBlockCacheEntries] = {};
  int count = 0;
  size_t bytes = 0;
  uint64_t clock = 0;
};

Cache& cache() {
  static Cache* c = new Cache();  // never destroyed: frees may run during exit
  return *c;
}

}  // namespace

size_t large_block_cache_limit() {
  static const size_t limit = compute_limit();
  return limit;
}

void* allocate_large_block(size_t nbytes) {
  const size_t len = mapped_size(nbytes);
  if (len < nbytes) return nullptr;  // overflow
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    for (int i = 0; i < c.count; ++i) {
      if (c.entries[i].len == len) {
        void* p = c.entries[i].ptr;
        c.bytes -= len;
        c.entries[i] = c.entries[--c.count];
        return p;
      }
    }
  }
  return map_aligned(len);
}

void free_large_block(void* ptr, size_t nbytes) {
  const size_t len = mapped_size(nbytes);
  const size_t limit = large_block_cache_limit();
  if (len > limit) return unmap(ptr, len);
  // Evicted blocks are unmapped after the lock is dropped.
  Entry evicted[kLargeBlockCacheEntries];
  int n_evicted = 0;
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    while (c.count > 0 && (c.count == kLargeBlockCacheEntries || c.bytes + len > limit)) {
      int oldest = 0;
      for (int i = 1; i < c.count; ++i) oldest = c.entries[i].age < c.entries[oldest].age ? i : oldest;
      evicted[n_evicted++] = c.entries[oldest];
      c.bytes -= c.entries[oldest].len;
      c.entries[oldest] = c.entries[--c.count];
    }
    c.entries[c.count++] = Entry{ptr, len, ++c.clock};
    c.bytes += len;
  }
  for (int i = 0; i < n_evicted; ++i) unmap(evicted[i].ptr, evicted[i].len);
}

size_t trim_large_block_cache() {
  Entry all[kLargeBlockCacheEntries];
  int n = 0;
  size_t bytes = 0;
  {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mutex);
    for (int i = 0; i < c.count; ++i) all[n++] = c.entries[i];
    bytes = c.bytes;
    c.count = 0;
    c.bytes = 0;
  }
  for (int i = 0; i < n; ++i) unmap(all[i].ptr, all[i].len);
  return bytes;
}

size_t large_block_cache_bytes() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

}  // namespace st
