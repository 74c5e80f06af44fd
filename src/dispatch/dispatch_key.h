// Dispatch keys, as PyTorch's c10/core/DispatchKey.h at the size stride
// needs. Three kinds:
//  - backend components (CPU, CUDA, PrivateUse1): where the data lives;
//  - functionality keys (Dense, Tracing): what a layer of the dispatcher
//    does. Dense is "per backend": it has one runtime key per backend
//    (CPU, CUDA, PrivateUse1), which is what kernels register for;
//  - the alias key CompositeImplicit, whose kernel serves every backend
//    that has no kernel of its own.
// A key's number is its priority within its kind: higher runs first.
#pragma once

#include <cstdint>

namespace st {
namespace dispatch {

enum class BackendComponent : uint8_t {
  InvalidBit = 0,
  CPUBit,
  CUDABit,
  PrivateUse1Bit,  // reserved for an out-of-tree backend
  EndOfBackendKeys = PrivateUse1Bit,
};

constexpr int kNumBackends = static_cast<int>(BackendComponent::EndOfBackendKeys);

enum class DispatchKey : uint8_t {
  Undefined = 0,

  // Functionality keys, lowest priority first (see DispatchKeySet).
  Dense,    // per backend: a kernel that computes, for one backend
  Tracing,  // reports every call's name and duration, then redispatches
  EndOfFunctionalityKeys,

  // The runtime keys of Dense, one per backend in BackendComponent order.
  StartOfDenseBackends,
  CPU,
  CUDA,
  PrivateUse1,
  EndOfDenseBackends = PrivateUse1,

  // Alias keys: registering here fills the table entries of other keys.
  CompositeImplicit,
  EndOfAliasKeys = CompositeImplicit,
};

// Functionality keys, Undefined included: one bit each in a DispatchKeySet
// (except Undefined) and one row of the offset-and-mask table.
constexpr int kNumFunctionalityKeys = static_cast<int>(DispatchKey::EndOfFunctionalityKeys);
// Every enumerator value: the size of arrays indexed by key.
constexpr int kNumDispatchKeys = static_cast<int>(DispatchKey::EndOfAliasKeys) + 1;

constexpr bool is_functionality_key(DispatchKey k) { return k < DispatchKey::EndOfFunctionalityKeys; }

constexpr bool is_per_backend_functionality(DispatchKey k) { return k == DispatchKey::Dense; }

constexpr bool is_runtime_backend_key(DispatchKey k) {
  return k > DispatchKey::StartOfDenseBackends && k <= DispatchKey::EndOfDenseBackends;
}

constexpr bool is_alias_key(DispatchKey k) { return k == DispatchKey::CompositeImplicit; }

// The backend of a runtime per-backend key (CPU -> CPUBit); InvalidBit for other keys.
constexpr BackendComponent to_backend_component(DispatchKey k) {
  return is_runtime_backend_key(k)
             ? static_cast<BackendComponent>(static_cast<int>(k) - static_cast<int>(DispatchKey::StartOfDenseBackends))
             : BackendComponent::InvalidBit;
}

// The functionality of a key: Dense for CPU, the key itself for a
// functionality key, Undefined for alias keys.
constexpr DispatchKey to_functionality_key(DispatchKey k) {
  if (is_functionality_key(k)) return k;
  if (is_runtime_backend_key(k)) return DispatchKey::Dense;
  return DispatchKey::Undefined;
}

// (Dense, CPUBit) -> CPU. A functionality that is not per backend, or a
// missing backend, gives the functionality itself.
constexpr DispatchKey to_runtime_key(DispatchKey functionality, BackendComponent backend) {
  if (!is_per_backend_functionality(functionality) || backend == BackendComponent::InvalidBit) return functionality;
  return static_cast<DispatchKey>(static_cast<int>(DispatchKey::StartOfDenseBackends) + static_cast<int>(backend));
}

// Whether a kernel can be registered for `k`: runtime backend keys,
// functionality keys that are not per backend, and alias keys.
constexpr bool is_registrable_key(DispatchKey k) {
  return is_runtime_backend_key(k) || is_alias_key(k) ||
         (is_functionality_key(k) && k != DispatchKey::Undefined && !is_per_backend_functionality(k));
}

// "CPU", "Tracing", ...; "Unknown" for a value outside the enum.
const char* dispatch_key_name(DispatchKey k);
const char* backend_component_name(BackendComponent b);

}  // namespace dispatch
}  // namespace st
