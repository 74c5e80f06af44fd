// Orders of dims in memory; the numbers of st_memory_format.
#pragma once

#include <cstdint>

#include "stride.h"

namespace st {

enum class MemoryFormat : int32_t {
  Contiguous = ST_MEMORY_FORMAT_CONTIGUOUS,
  ChannelsLast = ST_MEMORY_FORMAT_CHANNELS_LAST,
  ChannelsLast3d = ST_MEMORY_FORMAT_CHANNELS_LAST_3D,
  Preserve = ST_MEMORY_FORMAT_PRESERVE,
};

constexpr bool is_valid_memory_format(int32_t v) { return v >= 0 && v <= 3; }

}  // namespace st
