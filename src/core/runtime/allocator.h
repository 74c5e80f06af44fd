// CPU memory for tensors: the default allocator (64-byte aligned; 2 MiB
// aligned and huge-page advised from 4 MiB, with a capped cache of freed
// large blocks, see core/runtime/large_blocks.h) or the host's own through
// st_set_cpu_allocator. Every storage remembers how to free itself, so
// swapping allocators never frees memory with the wrong one.
#pragma once

#include <cstddef>

#include "core/storage.h"
#include "stride.h"

namespace st {

constexpr size_t kCpuAlignment = 64;

// A new CPU storage of `nbytes` from the current allocator. Zero bytes
// allocate nothing (base NULL). Throws ST_ERROR_OUT_OF_MEMORY on failure.
Storage allocate_cpu_storage(size_t nbytes);

// True while no st_set_cpu_allocator allocator is installed, that is while
// allocate_cpu_storage would use the default one.
bool default_cpu_allocator_in_use();

// Installs a copy of `allocator`; NULL restores the default.
void set_cpu_allocator(const st_allocator* allocator);

}  // namespace st
