#include "core/memory_format.h"

namespace st {

const char* memory_format_name(MemoryFormat f) {
  switch (f) {
    case MemoryFormat::Contiguous:
      return "contiguous";
    case MemoryFormat::ChannelsLast:
      return "channels_last";
    case MemoryFormat::ChannelsLast3d:
      return "channels_last_3d";
    case MemoryFormat::Preserve:
      return "preserve";
  }
  return "unknown";
}

}  // namespace st
