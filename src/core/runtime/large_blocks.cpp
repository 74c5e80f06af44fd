#include "core/runtime/large_blocks.h"

#include <cstdint>
#include <mutex>

#include "core/runtime/environment.h"
#include "core/runtime/platform/platform.h"

namespace st {
namespace {

size_t mapped_size(size_t nbytes) { return (nbytes + kLargeBlockAlignment - 1) / kLargeBlockAlignment * kLargeBlockAlignment; }

size_t compute_limit() {
  int64_t bytes = 0;
  if (env::read_count("ST_CPU_BLOCK_CACHE_BYTES", 0, INT64_MAX, "a byte count from 0 to 9223372036854775807",
                      &bytes)) {
    return static_cast<size_t>(bytes);
  }
  const size_t cap = size_t{1} << 30, eighth = platform::physical_memory_bytes() / 8;
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
  return platform::map_pages(len, kLargeBlockAlignment);
}

void free_large_block(void* ptr, size_t nbytes) {
  const size_t len = mapped_size(nbytes);
  const size_t limit = large_block_cache_limit();
  if (len > limit) return platform::unmap_pages(ptr, len);
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
  for (int i = 0; i < n_evicted; ++i) platform::unmap_pages(evicted[i].ptr, evicted[i].len);
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
  for (int i = 0; i < n; ++i) platform::unmap_pages(all[i].ptr, all[i].len);
  return bytes;
}

size_t large_block_cache_bytes() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.bytes;
}

}  // namespace st
