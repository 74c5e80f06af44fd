// Storage: one reference-counted block of memory that tensors view.
//
// A storage knows its lowest address, its byte size and its device, and how
// to give the memory back: a MemoryRelease runs exactly once, when the last
// tensor sharing the storage dies. The release is a plain record rather than
// a virtual allocator so that memory from the default allocator, a user's
// st_allocator, a user's st_deleter, a DLPack producer or the CUDA pool all
// travel the same way.
#pragma once

#include <cstddef>
#include <new>

#include "core/device.h"
#include "core/intrusive_ptr.h"

namespace st {

struct MemoryRelease {
  using GenericFn = void (*)();
  // Runs once with this record; null for memory nobody has to free.
  void (*run)(const MemoryRelease& self) = nullptr;
  void* ptr = nullptr;       // what the owner hands back (may differ from the storage's base)
  size_t nbytes = 0;         // the byte count the owner was asked for
  void* ctx = nullptr;       // the owner's context
  GenericFn fn = nullptr;    // the owner's function, when `run` is a trampoline
  void* extra = nullptr;     // a second context (a CUDA stream, say)
};

class StorageImpl final : public RefCounted {
 public:
  // `borrowed`: memory the caller owns and may wrap again (st_tensor_from_data,
  // DLPack); memory an allocator handed out is never another storage's too.
  StorageImpl(void* base, size_t nbytes, Device device, MemoryRelease release, bool read_only = false,
              bool borrowed = false)
      : base_(base), nbytes_(nbytes), device_(device), release_(release), read_only_(read_only), borrowed_(borrowed) {}
  ~StorageImpl() {
    if (release_.run) release_.run(release_);
  }

  // Marks a storage built at the start of an ::operator new block that it
  // owns (see core/tensor_block.h): destroying it frees the block.
  struct AtBlockStart {};
  StorageImpl(AtBlockStart, void* base, size_t nbytes, Device device)
      : base_(base), nbytes_(nbytes), device_(device), read_only_(false), owns_block_(true) {}
  // How IntrusivePtr destroys a storage.
  static void destroy(StorageImpl* s);

  // Gives the storage its owner's release after the fact, for wrappers that
  // must not free foreign memory if building the tensor fails. Only before
  // the storage is shared.
  void adopt_release(const MemoryRelease& release) { release_ = release; }

  void* base() const { return base_; }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return device_; }
  // Set for imports the producer marked read-only (DLPack); writes are refused.
  bool read_only() const { return read_only_; }
  // Whether another storage may hold some of the same memory: only for
  // wrapped memory (two allocations are always disjoint while both live).
  bool borrowed() const { return borrowed_; }

 private:
  void* base_;
  size_t nbytes_;
  Device device_;
  MemoryRelease release_;
  bool read_only_;
  bool borrowed_ = false;
  bool owns_block_ = false;
};

inline void StorageImpl::destroy(StorageImpl* s) {
  if (!s->owns_block_) {
    delete s;
    return;
  }
  s->~StorageImpl();
  ::operator delete(static_cast<void*>(s));
}

using Storage = IntrusivePtr<StorageImpl>;

}  // namespace st
