#include "core/allocator.h"

#include <atomic>
#include <cstdlib>
#include <deque>
#include <mutex>

#include "core/error.h"
#include "core/large_blocks.h"

namespace st {
namespace {

void default_free(const MemoryRelease& r) { std::free(r.ptr); }

void large_free(const MemoryRelease& r) { free_large_block(r.ptr, r.nbytes); }

void user_free(const MemoryRelease& r) {
  auto fn = reinterpret_cast<void (*)(void*, void*, size_t)>(r.fn);
  fn(r.ctx, r.ptr, r.nbytes);
}

// Installed allocators are interned and never freed: a thread that loaded
// the pointer may still be reading it while another thread installs a new
// one. There are as many records as distinct allocators ever installed.
std::atomic<const st_allocator*> g_user_allocator{nullptr};
std::mutex g_intern_mutex;
std::deque<st_allocator>* g_interned = nullptr;

}  // namespace

Storage allocate_cpu_storage(size_t nbytes) {
  if (nbytes == 0) return Storage::make(nullptr, 0, cpu_device(), MemoryRelease{});
  MemoryRelease release;
  release.nbytes = nbytes;
  const st_allocator* user = g_user_allocator.load(std::memory_order_acquire);
  if (user) {
    release.ptr = user->alloc(user->ctx, nbytes, kCpuAlignment);
    ST_CHECK(release.ptr != nullptr, ST_ERROR_OUT_OF_MEMORY,
             "the installed CPU allocator returned NULL for %zu bytes", nbytes);
    release.run = user_free;
    release.fn = reinterpret_cast<MemoryRelease::GenericFn>(user->free);
    release.ctx = user->ctx;
  } else if (nbytes >= kLargeBlockThreshold) {
    // Note [Large CPU blocks] in core/large_blocks.h.
    release.ptr = allocate_large_block(nbytes);
    ST_CHECK(release.ptr != nullptr, ST_ERROR_OUT_OF_MEMORY, "cannot allocate %zu bytes", nbytes);
    release.run = large_free;
  } else {
    size_t rounded = (nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment;
    ST_CHECK(rounded >= nbytes, ST_ERROR_OUT_OF_MEMORY, "cannot allocate %zu bytes", nbytes);
    release.ptr = std::aligned_alloc(kCpuAlignment, rounded);
    ST_CHECK(release.ptr != nullptr, ST_ERROR_OUT_OF_MEMORY, "cannot allocate %zu bytes", nbytes);
    release.run = default_free;
  }
  try {
    return Storage::make(release.ptr, nbytes, cpu_device(), release);
  } catch (...) {
    release.run(release);
    throw;
  }
}

bool default_cpu_allocator_in_use() { return g_user_allocator.load(std::memory_order_acquire) == nullptr; }

void set_cpu_allocator(const st_allocator* allocator) {
  if (!allocator) {
    g_user_allocator.store(nullptr, std::memory_order_release);
    return;
  }
  std::lock_guard<std::mutex> lock(g_intern_mutex);
  if (!g_interned) g_interned = new std::deque<st_allocator>();
  const st_allocator* found = nullptr;
  for (const st_allocator& a : *g_interned) {
    if (a.alloc == allocator->alloc && a.free == allocator->free && a.ctx == allocator->ctx) found = &a;
  }
  if (!found) {
    g_interned->push_back(*allocator);
    found = &g_interned->back();
  }
  g_user_allocator.store(found, std::memory_order_release);
}

}  // namespace st
