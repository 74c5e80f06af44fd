#include "core/runtime/allocator.h"

#include "core/error.h"
#include "core/runtime/interned_setting.h"
#include "core/runtime/large_blocks.h"
#include "core/runtime/platform/platform.h"

namespace st {
namespace {

void default_free(const MemoryRelease& r) { platform::free_aligned(r.ptr); }

void large_free(const MemoryRelease& r) { free_large_block(r.ptr, r.nbytes); }

void user_free(const MemoryRelease& r) {
  auto fn = reinterpret_cast<void (*)(void*, void*, size_t)>(r.fn);
  fn(r.ctx, r.ptr, r.nbytes);
}

InternedSetting<st_allocator> g_user_allocator;

}  // namespace

Storage allocate_cpu_storage(size_t nbytes) {
  if (nbytes == 0) return Storage::make(nullptr, 0, cpu_device(), MemoryRelease{});
  MemoryRelease release;
  release.nbytes = nbytes;
  const st_allocator* user = g_user_allocator.get();
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
    release.ptr = platform::allocate_aligned(rounded, kCpuAlignment);
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

bool default_cpu_allocator_in_use() { return g_user_allocator.get() == nullptr; }

void set_cpu_allocator(const st_allocator* allocator) {
  g_user_allocator.set(allocator, [](const st_allocator& a, const st_allocator& b) {
    return a.alloc == b.alloc && a.free == b.free && a.ctx == b.ctx;
  });
}

}  // namespace st
