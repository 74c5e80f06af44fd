// The generational handle table behind st_tensor.
//
// An id is (generation << 32) | slot index. Each slot holds one Tensor and
// one 64-bit word: the generation, the caller's references, and the pins
// of the calls using the handle right now, counted apart (Note [References
// and pins] in handle_table.cpp). Pinning a handle for the length of a
// call is one compare-and-swap on that word, with no lock: it succeeds only
// while the generation matches and the caller holds a reference, so a
// released or forged id is refused. A release beyond the caller's
// references is refused the same way, and a slot's Tensor lives until its
// last reference and its last pin are gone; the step that drops the last
// one advances the generation, so every old id of the slot is dead from
// then on. Slots live in chunks that are never moved or freed. Retired
// slots wait for reuse in a small per-thread cache or on a lock-free stack
// (Notes [Per-thread slot cache] and [Lock-free free list]); only handing
// out a slot never used before takes a mutex.
#pragma once

#include <cstdint>

#include "core/tensor.h"
#include "stride.h"

namespace st {
namespace api {

class HandleTable {
 public:
  static HandleTable& instance();

  // A new handle holding one reference. Throws ST_ERROR_OUT_OF_MEMORY when full.
  st_tensor insert(Tensor t);
  // Adds one reference. Returns ST_OK, ST_ERROR_INVALID_HANDLE, or
  // ST_ERROR_OUT_OF_MEMORY when the handle holds 2^32 − 1 already.
  st_status retain(uint64_t id);
  // Drops one of the caller's references: ST_ERROR_INVALID_HANDLE when the
  // id holds none (a pin is never spent). The tensor goes once neither
  // references nor pins are left.
  st_status release(uint64_t id);
  struct Slot;

  // Pins a live handle: returns its slot (for the calls below) and its
  // tensor in *tensor, or NULL with the status in *why (INVALID_HANDLE, or
  // OUT_OF_MEMORY when too many calls hold it). The tensor stays valid
  // until the matching unpin(), whatever releases happen meanwhile.
  Slot* pin(uint64_t id, const Tensor** tensor, st_status* why);
  void unpin(Slot* slot, uint64_t id);
  // Turns a pin into one of the caller's references to the same handle.
  // False (the pin stays) when the caller holds no reference any more;
  // throws ST_ERROR_OUT_OF_MEMORY when the handle holds 2^32 − 1 already.
  bool pin_to_reference(Slot* slot, uint64_t id);

  // Handles with references left: for leak checks in tests. Counted by a
  // walk over every slot ever used, so that insert and release share no
  // counter.
  int64_t live_count() const;

 private:
  HandleTable() = default;
};

// Pins a handle for the length of one C call: looks it up, keeps it alive,
// and drops the pin at scope end. Throws ST_ERROR_INVALID_HANDLE naming
// the argument.
class PinnedHandle {
 public:
  PinnedHandle(st_tensor h, const char* arg);
  ~PinnedHandle();
  PinnedHandle(const PinnedHandle&) = delete;
  PinnedHandle& operator=(const PinnedHandle&) = delete;

  const Tensor& tensor() const { return *tensor_; }
  const Tensor& operator*() const { return *tensor_; }
  const Tensor* operator->() const { return tensor_; }
  // The handle itself with one more reference, for an operator that answers
  // with its argument: the pin becomes that reference. When the caller
  // released the handle meanwhile (from a callback), a new handle of the
  // same tensor.
  st_tensor keep();

 private:
  uint64_t id_;
  HandleTable::Slot* slot_;
  const Tensor* tensor_;
  bool kept_ = false;
};

}  // namespace api
}  // namespace st
