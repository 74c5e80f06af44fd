// The generational handle table behind st_tensor.
//
// An id is (generation << 32) | slot index. Each slot holds one Tensor and
// one 64-bit word, (generation << 32) | references. Looking a handle up
// ("pinning" it for the length of a call) is one compare-and-swap on that
// word, with no lock: it succeeds only while the generation matches and the
// count is above zero, so a released or forged id is refused and a slot's
// Tensor is never read after its last reference is gone. The last release
// advances the generation in the same compare-and-swap, so every old id of
// the slot is dead from that instant. Slots live in chunks that are never
// moved or freed. Retired slots wait for reuse in a small per-thread cache
// or on a lock-free stack (Notes [Per-thread slot cache] and [Lock-free
// free list] in handle_table.cpp); only handing out a slot never used
// before takes a mutex.
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
  // ST_ERROR_OUT_OF_MEMORY when the count would overflow.
  st_status retain(uint64_t id);
  // Drops one reference; the last one empties the slot.
  st_status release(uint64_t id);
  // Adds one reference and returns the slot's tensor, or NULL (with the
  // status in *why) when the id is not live. The tensor stays valid until
  // the matching release().
  const Tensor* pin(uint64_t id, st_status* why);

  // Handles issued and not yet released: for leak checks in tests. Counted
  // by a walk over every slot ever used, so that insert and release share
  // no counter.
  int64_t live_count() const;

 private:
  HandleTable() = default;
};

// Pins a handle for the length of one C call: looks it up, keeps it alive,
// and drops the pin at scope end unless keep() hands it to the caller as a
// returned reference. Throws ST_ERROR_INVALID_HANDLE naming the argument.
class PinnedHandle {
 public:
  PinnedHandle(st_tensor h, const char* arg);
  ~PinnedHandle();
  PinnedHandle(const PinnedHandle&) = delete;
  PinnedHandle& operator=(const PinnedHandle&) = delete;

  const Tensor& tensor() const { return *tensor_; }
  const Tensor& operator*() const { return *tensor_; }
  const Tensor* operator->() const { return tensor_; }
  // The pin becomes the caller's reference to the same handle.
  st_tensor keep() {
    kept_ = true;
    return st_tensor{id_};
  }

 private:
  uint64_t id_;
  const Tensor* tensor_;
  bool kept_ = false;
};

}  // namespace api
}  // namespace st
