// What the level kernels read of the process's streaming choice, as plain
// functions: cpu/stream_tuning.cpp chooses it (from the CPU and the
// environment) and defines them, outside every file built with a level's
// flags.
#pragma once

#include <cstdint>

namespace st {
namespace cpu {

// 4 KiB pages of output a streamed row writes side by side (1, 2 or 4).
int stream_pages();
// How far ahead of the line it converts a streamed row that does not widen
// prefetches its source, in bytes (0: not at all).
int64_t stream_prefetch_bytes();

}  // namespace cpu
}  // namespace st
