// The default allocator's large path: 2 MiB-aligned blocks, reused through
// a cache capped in entries and bytes (the cap set to 64 MiB here through
// ST_CPU_BLOCK_CACHE_BYTES before the first use), safe across threads.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "../c/portable.h"
#include "core/runtime/allocator.h"
#include "core/runtime/large_blocks.h"
#include "cmocka_cxx.h"

namespace {

constexpr size_t kMiB = size_t{1} << 20;

bool aligned_2mib(const void* p) { return (reinterpret_cast<uintptr_t>(p) & (2 * kMiB - 1)) == 0; }

void blocks_are_aligned_and_reused(void**) {
  st::trim_large_block_cache();
  void* a = st::allocate_large_block(5 * kMiB);
  assert_non_null(a);
  assert_true(aligned_2mib(a));
  std::memset(a, 0x5A, 5 * kMiB);  // every byte is usable
  st::free_large_block(a, 5 * kMiB);
  assert_int_equal(st::large_block_cache_bytes(), 6 * kMiB);  // kept, mapped size
  void* b = st::allocate_large_block(5 * kMiB + 1);           // same mapped size: the same block
  assert_ptr_equal(a, b);
  assert_int_equal(st::large_block_cache_bytes(), 0);
  void* c = st::allocate_large_block(9 * kMiB);  // another size: a new block
  assert_true(c != b);
  st::free_large_block(b, 5 * kMiB + 1);
  st::free_large_block(c, 9 * kMiB);
  assert_int_equal(st::large_block_cache_bytes(), 16 * kMiB);
  assert_int_equal(st::trim_large_block_cache(), 16 * kMiB);
  assert_int_equal(st::large_block_cache_bytes(), 0);
}

void cache_keeps_to_its_byte_cap_dropping_the_oldest(void**) {
  st::trim_large_block_cache();
  assert_int_equal(st::large_block_cache_limit(), 64 * kMiB);
  std::vector<void*> blocks;
  for (int i = 0; i < 5; ++i) blocks.push_back(st::allocate_large_block(16 * kMiB));
  for (void* p : blocks) st::free_large_block(p, 16 * kMiB);
  assert_int_equal(st::large_block_cache_bytes(), 64 * kMiB);
  // The first block freed was dropped; the last four come back.
  std::vector<void*> again;
  for (int i = 0; i < 4; ++i) again.push_back(st::allocate_large_block(16 * kMiB));
  for (int i = 0; i < 4; ++i) {
    bool found = false;
    for (int k = 1; k < 5; ++k) found = found || again[static_cast<size_t>(i)] == blocks[static_cast<size_t>(k)];
    assert_true(found);
  }
  for (void* p : again) st::free_large_block(p, 16 * kMiB);
  // A block larger than the cap is never kept.
  void* big = st::allocate_large_block(80 * kMiB);
  st::free_large_block(big, 80 * kMiB);
  assert_int_equal(st::large_block_cache_bytes(), 64 * kMiB);
  st::trim_large_block_cache();
}

void cache_keeps_to_its_entry_cap(void**) {
  st::trim_large_block_cache();
  std::vector<void*> blocks;
  // 1 MiB blocks map 2 MiB each: 19 of them fit the byte cap, not the entry cap.
  for (int i = 0; i < st::kLargeBlockCacheEntries + 3; ++i) blocks.push_back(st::allocate_large_block(kMiB));
  for (void* p : blocks) st::free_large_block(p, kMiB);
  assert_int_equal(st::large_block_cache_bytes(), 2 * kMiB * st::kLargeBlockCacheEntries);
  st::trim_large_block_cache();
}

void storages_take_the_large_path(void**) {
  st::trim_large_block_cache();
  {
    st::Storage s = st::allocate_cpu_storage(6 * kMiB);
    assert_true(aligned_2mib(s->base()));
    std::memset(s->base(), 1, 6 * kMiB);
    st::Storage small = st::allocate_cpu_storage(1000);
    assert_int_equal(reinterpret_cast<uintptr_t>(small->base()) % st::kCpuAlignment, 0);
  }
  assert_int_equal(st::large_block_cache_bytes(), 6 * kMiB);
  st::trim_large_block_cache();
}

void concurrent_allocations_and_frees(void**) {
  st::trim_large_block_cache();
  auto worker = [](int seed) {
    for (int i = 0; i < 200; ++i) {
      const size_t n = (4 + static_cast<size_t>((i * 7 + seed) % 3) * 2) * kMiB;
      char* p = static_cast<char*>(st::allocate_large_block(n));
      if (!p) std::abort();
      p[0] = static_cast<char>(i);
      p[n - 1] = static_cast<char>(i);
      st::free_large_block(p, n);
    }
  };
  std::thread t1(worker, 1), t2(worker, 2);
  t1.join();
  t2.join();
  assert_true(st::large_block_cache_bytes() <= st::large_block_cache_limit());
  st::trim_large_block_cache();
}

}  // namespace

int main() {
  test_setenv("ST_CPU_BLOCK_CACHE_BYTES", "67108864");
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(blocks_are_aligned_and_reused),
      cmocka_unit_test(cache_keeps_to_its_byte_cap_dropping_the_oldest),
      cmocka_unit_test(cache_keeps_to_its_entry_cap),
      cmocka_unit_test(storages_take_the_large_path),
      cmocka_unit_test(concurrent_allocations_and_frees),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
