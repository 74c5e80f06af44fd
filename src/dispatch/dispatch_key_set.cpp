#include "dispatch/dispatch_key_set.h"

namespace st {
namespace dispatch {

std::string to_string(DispatchKeySet ks) {
  std::string out = "{";
  for (int f = kNumFunctionalityKeys - 1; f >= 1; --f) {
    const auto key = static_cast<DispatchKey>(f);
    if (ks.has(key)) {
      if (out.size() > 1) out += ", ";
      out += dispatch_key_name(key);
    }
  }
  for (int b = kNumBackends; b >= 1; --b) {
    const auto backend = static_cast<BackendComponent>(b);
    if (ks.has_backend(backend)) {
      if (out.size() > 1) out += ", ";
      out += backend_component_name(backend);
    }
  }
  return out + "}";
}

DispatchKey runtime_key_of_table_index(int index) {
  for (int f = kNumFunctionalityKeys - 1; f >= 0; --f) {
    const FunctionalityOffsetAndMask& om = kFunctionalityOffsetsAndMasks[f];
    if (index < om.offset) continue;
    const auto functionality = static_cast<DispatchKey>(f);
    if (om.mask == 0) return index == om.offset ? functionality : DispatchKey::Undefined;
    return to_runtime_key(functionality, static_cast<BackendComponent>(index - om.offset + 1));
  }
  return DispatchKey::Undefined;
}

}  // namespace dispatch
}  // namespace st
