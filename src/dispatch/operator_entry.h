// OperatorEntry: one operator's name, schema, dispatch table and registered
// kernels (PyTorch's c10/core/dispatch/OperatorEntry.h).
//
// Note [Dispatch table updates]
// The table holds one atomic function pointer per entry (see Note
// [Dispatch table index]), so a call reads its kernel with one load and
// never sees half a kernel. Registrations change under the entry's mutex,
// and every change recomputes the whole table: each entry takes the newest
// kernel registered for its runtime key, else the newest CompositeImplicit
// kernel (for the backends' Dense entries and for Undefined, as PyTorch's
// computeDispatchTableEntryWithDebug), else, for Tracing, the operator's
// built-in tracing kernel, else nothing (the call fails with
// ST_ERROR_NOT_IMPLEMENTED). Dropping a registration therefore restores the
// one before it in a single store. Kernel code is never freed, so a call
// that loaded an old pointer can still run it.
//
// Note [Dispatch table epoch]
// Every change to any operator's table, and every change of the global
// included keys (a trace callback set or cleared), bumps one process-wide
// counter after the change is stored. Code that caches a conclusion drawn
// from the tables (the call cache, Note [Call cache]) records the epoch it
// read before looking and trusts the conclusion only while it is unchanged.
//
// Note [Call cache]
// A call's kernel follows from its keys, and while no thread holds a
// dispatch key guard its keys follow from the backends of its tensor
// arguments and the global included keys alone. So each operator keeps,
// per set of argument backends, the kernel and keys its last call computed
// and the epoch they were computed at; a call whose epoch matches jumps
// straight to the kernel (one load of the epoch, three of the entry)
// instead of computing keys and indexing the table. The entry's fields are
// separate atomics: a call racing with a registration may pair a kernel
// with the keys of the table before or after the change, which is as right
// as running either table's kernel (kernels redispatch from the keys they
// get, and kernel code is never freed).
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "core/macros.h"
#include "dispatch/dispatch_epoch.h"
#include "dispatch/kernel_function.h"

namespace st {
namespace dispatch {

class OperatorEntry {
 public:
  explicit OperatorEntry(std::string name);
  OperatorEntry(const OperatorEntry&) = delete;
  OperatorEntry& operator=(const OperatorEntry&) = delete;

  const std::string& name() const { return name_; }
  // The schema text; "" until the operator is defined.
  const char* schema() const;
  bool defined() const { return schema_.load(std::memory_order_acquire) != nullptr; }
  // The C++ signature of its kernels; null until defined.
  SignatureId signature() const { return signature_.load(std::memory_order_acquire); }

  // The kernel for `keys`; throws ST_ERROR_NOT_IMPLEMENTED when there is none.
  ST_FORCE_INLINE ErasedKernelFn lookup(DispatchKeySet keys) const {
    ErasedKernelFn fn = table_[keys.table_index()].load(std::memory_order_acquire);
    if (ST_UNLIKELY(fn == nullptr)) report_missing_kernel(keys);
    return fn;
  }

  // The call cache entry for calls whose tensor arguments have the
  // backends `backend_bits` (DispatchKeySet bits under kFullBackendMask).
  struct CachedCall {
    std::atomic<uint64_t> epoch{~uint64_t{0}};  // never a real epoch: empty
    std::atomic<ErasedKernelFn> kernel{nullptr};
    std::atomic<uint64_t> keys{0};
  };
  ST_FORCE_INLINE const CachedCall& cached_call(uint64_t backend_bits) const { return call_cache_[backend_bits]; }
  // Computes the kernel and keys for a call with `arg_keys` and no guard
  // active, records them in the cache with `epoch`, and returns the kernel
  // (throws ST_ERROR_NOT_IMPLEMENTED when there is none).
  ErasedKernelFn fill_call_cache(DispatchKeySet arg_keys, uint64_t epoch, DispatchKeySet* keys) const;

  // Keys with at least one registered kernel, in DispatchKey order.
  std::vector<DispatchKey> registered_keys() const;

  // Defines the operator. `tracing` is its built-in kernel for the Tracing
  // key; its signature is the operator's. Throws if defined already, or if
  // a registered kernel has another signature.
  void define(const char* schema, KernelFunction tracing);

  // Adds a kernel for a registrable key (is_registrable_key) and returns
  // the id that removes it. Throws ST_ERROR_INVALID_ARGUMENT for another
  // key or a signature unlike the operator's (or unlike the kernels already
  // registered, before the definition).
  uint64_t add_kernel(DispatchKey key, KernelFunction kernel);
  // Removes the registration `id` of `key`, wherever it is in the order.
  void remove_kernel(DispatchKey key, uint64_t id);

  // The dispatcher's list of operators (Dispatcher); set once, before publication.
  OperatorEntry* next_in_list = nullptr;

 private:
  struct Registration {
    uint64_t id;
    KernelFunction kernel;
  };

  [[noreturn]] void report_missing_kernel(DispatchKeySet keys) const;
  void check_signature(DispatchKey key, const KernelFunction& kernel) const;  // mutex held
  KernelFunction compute_table_entry(int index) const;                        // mutex held
  void update_dispatch_table();                                                // mutex held

  const std::string name_;
  std::atomic<ErasedKernelFn> table_[kDispatchTableSize];
  std::atomic<const char*> schema_{nullptr};
  std::atomic<SignatureId> signature_{nullptr};
  mutable CachedCall call_cache_[uint64_t{1} << kNumBackends];

  mutable std::mutex mutex_;  // guards everything below and every table change
  KernelFunction tracing_kernel_;
  std::vector<Registration> kernels_[kNumDispatchKeys];  // per key, newest last
  uint64_t next_id_ = 1;
};

}  // namespace dispatch
}  // namespace st
