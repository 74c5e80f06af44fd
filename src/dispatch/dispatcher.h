// Dispatcher: the list of operators, looked up by name (PyTorch's
// c10/core/dispatch/Dispatcher.h), and TypedOperatorHandle, through which
// every call goes:
//
//   keys = (keys of the tensor arguments | included | global) − excluded
//   table[keys.table_index()](keys, args...)
//
// with no lock, no allocation and no virtual call on the way.
#pragma once

#include <atomic>
#include <mutex>
#include <string>
#include <utility>

#include "core/error.h"
#include "dispatch/dispatch_key_extractor.h"
#include "dispatch/local_dispatch_key_set.h"
#include "dispatch/operator_entry.h"

namespace st {
namespace dispatch {

template <typename Signature>
class TypedOperatorHandle;

template <typename Ret, typename... Args>
class TypedOperatorHandle<Ret(Args...)> {
 public:
  explicit TypedOperatorHandle(const OperatorEntry& op) : op_(&op) {}

  // Through the operator's call cache (Note [Call cache]) while no thread
  // holds a dispatch key guard; the full computation otherwise.
  ST_FORCE_INLINE Ret call(Args... args) const {
    using Fn = Ret (*)(DispatchKeySet, Args...);
    const DispatchKeySet arg_keys = keys_of_arguments(args...);
    if (ST_LIKELY(g_dispatch_state.active_guards.load(std::memory_order_relaxed) == 0)) {
      const uint64_t epoch = dispatch_epoch();
      const OperatorEntry::CachedCall& cached = op_->cached_call(arg_keys.raw_repr() & kFullBackendMask);
      DispatchKeySet keys;
      ErasedKernelFn fn;
      if (ST_LIKELY(cached.epoch.load(std::memory_order_acquire) == epoch)) {
        fn = cached.kernel.load(std::memory_order_relaxed);
        keys = DispatchKeySet(DispatchKeySet::RAW, cached.keys.load(std::memory_order_relaxed));
      } else {
        fn = op_->fill_call_cache(arg_keys, epoch, &keys);
      }
      return reinterpret_cast<Fn>(fn)(keys, std::forward<Args>(args)...);
    }
    return redispatch(compute_dispatch_key_set(arg_keys), std::forward<Args>(args)...);
  }

  // Runs the kernel for `keys`. A kernel passes the keys it received with
  // its own key removed (keys.remove(DispatchKey::Tracing)) to reach the
  // kernel below it.
  ST_FORCE_INLINE Ret redispatch(DispatchKeySet keys, Args... args) const {
    using Fn = Ret (*)(DispatchKeySet, Args...);
    const Fn fn = reinterpret_cast<Fn>(op_->lookup(keys));
    return fn(keys, std::forward<Args>(args)...);
  }

 private:
  const OperatorEntry* op_;
};

// An operator found by name.
class OperatorHandle {
 public:
  explicit OperatorHandle(const OperatorEntry& op) : op_(&op) {}
  const char* schema() const { return op_->schema(); }

  // The typed handle; throws ST_ERROR_INVALID_ARGUMENT when the operator is
  // not defined or its signature is not `Signature`.
  template <typename Signature>
  TypedOperatorHandle<Signature> typed() const {
    check_signature(signature_id<Signature>(), &KernelFunction::signature_text_of<Signature>);
    return TypedOperatorHandle<Signature>(*op_);
  }

 private:
  void check_signature(SignatureId id, std::string (*text)()) const;
  const OperatorEntry* op_;
};

class Dispatcher {
 public:
  // The one dispatcher; never destroyed, so calls during exit stay safe.
  static Dispatcher& singleton();

  // The entry named `name`, created undefined when there is none, so that a
  // kernel may register before its operator is defined (static
  // initialization has no order across files).
  OperatorEntry& find_or_create(const char* name);

  // The operator named `name`, or null. Lock-free: entries are only ever
  // prepended to the list and never freed, so this is safe while another
  // thread registers.
  const OperatorEntry* find(const char* name) const;

 private:
  Dispatcher() = default;
  OperatorEntry* lookup(const char* name) const;
  std::mutex mutex_;  // serializes additions to the list
  std::atomic<OperatorEntry*> head_{nullptr};
};

// The operator named `name`; throws ST_ERROR_INVALID_ARGUMENT when none is defined.
OperatorHandle find_operator(const char* name);

}  // namespace dispatch
}  // namespace st
