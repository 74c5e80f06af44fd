// Large CPU allocations for the default allocator: 2 MiB-aligned mappings
// advised for transparent huge pages, and a small cache of freed ones.
//
// Note [Large CPU blocks]
// - Huge pages halve the page-fault cost of a fresh output, against plain
//   malloc.
// - Pages are first touched by the threads of the copy that writes them;
//   touching them beforehand in the allocator, even on all threads, was no
//   faster, so the allocator touches nothing.
// - Reusing a freed mapping skips the faults and the kernel's zeroing
//   altogether (the copy then runs at its own speed), so freed blocks are
//   kept for reuse by an allocation of the same mapped size: at most
//   kLargeBlockCacheEntries blocks and large_block_cache_limit() bytes
//   (1/8 of physical memory, at most 1 GiB; ST_CPU_BLOCK_CACHE_BYTES
//   overrides it, 0 turns the cache off), the oldest unmapped first.
// The figures are in docs/tuning.md ("Why").
#pragma once

#include <cstddef>

namespace st {

// Allocations of at least this many bytes take the large path.
constexpr size_t kLargeBlockThreshold = size_t{4} << 20;
constexpr size_t kLargeBlockAlignment = size_t{2} << 20;
constexpr int kLargeBlockCacheEntries = 16;

// A 2 MiB-aligned block of at least nbytes (the default allocator asks
// from kLargeBlockThreshold up);
// nullptr when the system has no memory for it.
void* allocate_large_block(size_t nbytes);

// Gives back a block from allocate_large_block(nbytes), with the same nbytes.
void free_large_block(void* ptr, size_t nbytes);

// The byte cap of the cache of freed blocks.
size_t large_block_cache_limit();

// Unmaps every cached block (for tests, and for hosts that want the memory
// back now); returns how many bytes were released.
size_t trim_large_block_cache();

// Bytes held in the cache now.
size_t large_block_cache_bytes();

}  // namespace st
