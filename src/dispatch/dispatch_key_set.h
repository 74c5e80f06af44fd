// DispatchKeySet: the keys of one call in one 64-bit word, as PyTorch's
// c10/core/DispatchKeySet.h.
//
// Note [Dispatch key set layout]
// Bit b-1 (b = 1..kNumBackends) is backend component b; above them, bit
// kNumBackends + f - 1 is functionality key f (Undefined has no bit):
//
//   bit:  4        3      2            1       0
//         Tracing  Dense  PrivateUse1  CUDA    CPU
//
// A runtime per-backend key sets two bits: CPU is Dense | CPUBit. The
// highest functionality bit is the key that runs; for a per-backend
// functionality the highest backend bit picks the backend, so a call with
// CPU and CUDA tensors runs the CUDA kernel.
//
// Note [Dispatch table index]
// Each functionality owns a run of entries in an operator's dispatch table:
// one entry, or kNumBackends for a per-backend functionality. The start of
// the run and the backend bits that select inside it come from a table
// indexed by functionality, computed once (here at compile time), as
// PyTorch's initializeFunctionalityOffsetsAndMasks; the index is then two
// bit scans and one table read (getDispatchTableIndexForDispatchKeySet).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "core/macros.h"
#include "dispatch/dispatch_key.h"

namespace st {
namespace dispatch {

// 1-based position of the highest set bit; 0 for 0.
constexpr int index_of_highest_bit(uint64_t x) { return x == 0 ? 0 : 64 - leading_zeros64(x); }

constexpr uint64_t kFullBackendMask = (uint64_t{1} << kNumBackends) - 1;

struct FunctionalityOffsetAndMask {
  uint16_t offset = 0;  // first table entry of the functionality
  uint64_t mask = 0;    // backend bits that select within it: all of them, or none
};

constexpr std::array<FunctionalityOffsetAndMask, kNumFunctionalityKeys> compute_functionality_offsets_and_masks() {
  std::array<FunctionalityOffsetAndMask, kNumFunctionalityKeys> table{};
  // Undefined owns entry 0: calls with no keys at all.
  for (int f = 1; f < kNumFunctionalityKeys; ++f) {
    const FunctionalityOffsetAndMask& prev = table[f - 1];
    table[f].offset = static_cast<uint16_t>(prev.offset + (prev.mask == 0 ? 1 : kNumBackends));
    table[f].mask = is_per_backend_functionality(static_cast<DispatchKey>(f)) ? kFullBackendMask : 0;
  }
  return table;
}

constexpr std::array<FunctionalityOffsetAndMask, kNumFunctionalityKeys> kFunctionalityOffsetsAndMasks =
    compute_functionality_offsets_and_masks();

// Entries in every operator's dispatch table.
constexpr int kDispatchTableSize =
    kFunctionalityOffsetsAndMasks[kNumFunctionalityKeys - 1].offset +
    (kFunctionalityOffsetsAndMasks[kNumFunctionalityKeys - 1].mask == 0 ? 1 : kNumBackends);

class DispatchKeySet {
 public:
  enum Raw { RAW };

  constexpr DispatchKeySet() = default;
  constexpr DispatchKeySet(Raw, uint64_t repr) : repr_(repr) {}

  constexpr explicit DispatchKeySet(BackendComponent b)
      : repr_(b == BackendComponent::InvalidBit ? 0 : uint64_t{1} << (static_cast<int>(b) - 1)) {}

  // A functionality key sets its bit; a runtime backend key its
  // functionality bit and its backend bit. Undefined and alias keys are empty.
  constexpr explicit DispatchKeySet(DispatchKey k)
      : repr_(functionality_bit(to_functionality_key(k)) | DispatchKeySet(to_backend_component(k)).repr_) {}

  constexpr uint64_t raw_repr() const { return repr_; }
  constexpr bool empty() const { return repr_ == 0; }

  // A runtime backend key is present when both its bits are.
  constexpr bool has(DispatchKey k) const {
    const uint64_t bits = DispatchKeySet(k).repr_;
    return bits != 0 && (repr_ & bits) == bits;
  }
  constexpr bool has_backend(BackendComponent b) const {
    return b != BackendComponent::InvalidBit && (repr_ & DispatchKeySet(b).repr_) != 0;
  }

  constexpr DispatchKeySet operator|(DispatchKeySet o) const { return DispatchKeySet(RAW, repr_ | o.repr_); }
  constexpr DispatchKeySet operator&(DispatchKeySet o) const { return DispatchKeySet(RAW, repr_ & o.repr_); }
  // Removes `o`'s functionality bits and keeps every backend bit, as
  // PyTorch's: excluding CPU must not take the CPU bit from other layers.
  constexpr DispatchKeySet operator-(DispatchKeySet o) const {
    return DispatchKeySet(RAW, repr_ & (kFullBackendMask | ~o.repr_));
  }
  constexpr bool operator==(DispatchKeySet o) const { return repr_ == o.repr_; }
  constexpr bool operator!=(DispatchKeySet o) const { return repr_ != o.repr_; }

  // This set without `k`'s functionality (backend bits stay).
  constexpr DispatchKeySet remove(DispatchKey k) const { return *this - DispatchKeySet(k); }

  constexpr DispatchKey highest_functionality_key() const {
    return static_cast<DispatchKey>(index_of_highest_bit(repr_ >> kNumBackends));
  }
  constexpr BackendComponent highest_backend() const {
    return static_cast<BackendComponent>(index_of_highest_bit(repr_ & kFullBackendMask));
  }
  // The key whose kernel runs: the highest functionality, made a runtime
  // key with the highest backend when it is per backend.
  constexpr DispatchKey highest_priority_key() const {
    return to_runtime_key(highest_functionality_key(), highest_backend());
  }

  // The entry of an operator's dispatch table that serves this set; see
  // Note [Dispatch table index].
  ST_FORCE_INLINE int table_index() const {
    const int functionality = index_of_highest_bit(repr_ >> kNumBackends);
    const FunctionalityOffsetAndMask& om = kFunctionalityOffsetsAndMasks[functionality];
    // CPUBit (bit 0) shifted out gives 0, CUDABit gives 1, ...
    const int backend = index_of_highest_bit((repr_ & om.mask) >> 1);
    return om.offset + backend;
  }

 private:
  static constexpr uint64_t functionality_bit(DispatchKey f) {
    return f == DispatchKey::Undefined ? 0 : uint64_t{1} << (kNumBackends + static_cast<int>(f) - 1);
  }

  uint64_t repr_ = 0;
};

// "{Tracing, Dense, CPUBit}", highest first; for messages and tests.
std::string to_string(DispatchKeySet ks);

// The runtime key of table entry `index`: the inverse of table_index().
DispatchKey runtime_key_of_table_index(int index);

}  // namespace dispatch
}  // namespace st
