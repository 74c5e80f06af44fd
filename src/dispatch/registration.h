// Defining operators and registering kernels, in the spirit of PyTorch's
// TORCH_LIBRARY / TORCH_LIBRARY_IMPL: each is one static declaration in the
// file it concerns, and nothing else is edited.
//
// Adding an operator (one .cpp file, usually in src/ops/):
//
//   namespace {
//   ST_DEFINE_OPERATOR(Fill, "fill_", "fill_(Tensor self, float value) -> ()",
//                      void(const Tensor&, double));
//   }
//   void ops::fill_(const Tensor& self, double v) { Fill::call(self, v); }
//
// The tag struct (Fill) gives call() and redispatch(); the definition
// records the schema and the C++ signature and installs the operator's
// tracing kernel. Arguments of type `const Tensor&` (or Tensor) are the
// ones dispatched on; the kernel for the highest key of the union of their
// keys runs, so a CUDA tensor among CPU tensors selects CUDA.
//
// Adding a kernel (one static registration in the kernel's own file; the
// signature is checked against the operator's when both are known):
//
//   namespace {
//   void fill_cpu(dispatch::DispatchKeySet, const Tensor& self, double v) { ... }
//   ST_REGISTER_KERNEL("fill_", CPU, fill_cpu);
//   }
//
// Keys: CPU, CUDA, PrivateUse1 (a backend's kernel), CompositeImplicit (one
// kernel for every backend that has none of its own, written in terms of
// other operators), Tracing (a layer above the backends; every operator has
// a built-in one, below). A factory registers backend kernels like any
// operator: with no tensor argument, it dispatches on its Device argument
// (Note [Factories dispatch on their device]), so empty_strided on a CPU
// device goes straight to its CPU kernel. A kernel that redispatches passes
// its keys without its own: Op::redispatch(keys.remove(DispatchKey::Tracing),
// ...) (or find_operator(name).typed<Sig>() where the tag is not visible).
//
// register_kernel() does the same at run time and returns a
// KernelRegistration; the newest registration for a key wins, and dropping
// it restores the one before. Static registrations last for the program.
#pragma once

#include <utility>

#include "dispatch/dispatcher.h"
#include "dispatch/tracing.h"

namespace st {
namespace dispatch {

// A registered kernel; destroying or reset()ting it unregisters the kernel.
class KernelRegistration {
 public:
  KernelRegistration() = default;
  KernelRegistration(OperatorEntry& op, DispatchKey key, uint64_t id) : op_(&op), key_(key), id_(id) {}
  KernelRegistration(KernelRegistration&& o) noexcept
      : op_(std::exchange(o.op_, nullptr)), key_(o.key_), id_(o.id_) {}
  KernelRegistration& operator=(KernelRegistration&& o) noexcept {
    if (this != &o) {
      reset();
      op_ = std::exchange(o.op_, nullptr);
      key_ = o.key_;
      id_ = o.id_;
    }
    return *this;
  }
  KernelRegistration(const KernelRegistration&) = delete;
  KernelRegistration& operator=(const KernelRegistration&) = delete;
  ~KernelRegistration() { reset(); }

  void reset() noexcept {
    if (op_) std::exchange(op_, nullptr)->remove_kernel(key_, id_);
  }
  // Keeps the kernel registered for the rest of the program.
  void keep_forever() noexcept { op_ = nullptr; }

 private:
  OperatorEntry* op_ = nullptr;
  DispatchKey key_ = DispatchKey::Undefined;
  uint64_t id_ = 0;
};

// Registers `kernel` for `key` of the operator named `op_name` (defined
// now or later). Throws ST_ERROR_INVALID_ARGUMENT for a key that takes no
// kernels or a signature unlike the operator's.
KernelRegistration register_kernel(const char* op_name, DispatchKey key, KernelFunction kernel);

template <typename Ret, typename... Args>
KernelRegistration register_kernel(const char* op_name, DispatchKey key, Ret (*fn)(DispatchKeySet, Args...)) {
  return register_kernel(op_name, key, KernelFunction::make(fn));
}

// The base of an operator's tag struct (see ST_DEFINE_OPERATOR): the typed
// entry points, and the kernels every operator has, instantiated for it.
template <typename Tag, typename Signature>
struct Operator;

template <typename Tag, typename Ret, typename... Args>
struct Operator<Tag, Ret(Args...)> {
  using Signature = Ret(Args...);

  static const TypedOperatorHandle<Signature>& handle() {
    static const TypedOperatorHandle<Signature> h(Dispatcher::singleton().find_or_create(Tag::kName));
    return h;
  }
  static Ret call(Args... args) { return handle().call(std::forward<Args>(args)...); }
  static Ret redispatch(DispatchKeySet keys, Args... args) {
    return handle().redispatch(keys, std::forward<Args>(args)...);
  }

  // Times everything below the Tracing key; reports when the call returns
  // (Note [Which calls are reported]).
  static Ret tracing_kernel(DispatchKeySet keys, Args... args) {
    TraceScope scope(Tag::kName);
    return redispatch(keys.remove(DispatchKey::Tracing), std::forward<Args>(args)...);
  }

  static void define() {
    Dispatcher::singleton().find_or_create(Tag::kName).define(Tag::kSchema, KernelFunction::make(&tracing_kernel));
  }
};

struct StaticOperatorDefinition {
  explicit StaticOperatorDefinition(void (*define)()) { define(); }
};

struct StaticKernelRegistration {
  template <typename Ret, typename... Args>
  StaticKernelRegistration(const char* op_name, DispatchKey key, Ret (*fn)(DispatchKeySet, Args...)) {
    register_kernel(op_name, key, fn).keep_forever();
  }
};

}  // namespace dispatch
}  // namespace st

#define ST_DISPATCH_CONCAT_INNER(a, b) a##b
#define ST_DISPATCH_CONCAT(a, b) ST_DISPATCH_CONCAT_INNER(a, b)

// ST_DEFINE_OPERATOR(Tag, "name", "name(schema) -> result", Ret(Args...));
// At namespace scope in one .cpp file (inside an anonymous namespace).
#define ST_DEFINE_OPERATOR(Tag, op_name, op_schema, ...)      \
  struct Tag : ::st::dispatch::Operator<Tag, __VA_ARGS__> {   \
    static constexpr const char* kName = op_name;             \
    static constexpr const char* kSchema = op_schema;         \
  };                                                          \
  const ::st::dispatch::StaticOperatorDefinition ST_DISPATCH_CONCAT(st_operator_definition_, __LINE__) { \
    &Tag::define                                              \
  }

// ST_REGISTER_KERNEL("name", KEY, function); at namespace scope, in the
// kernel's own file. KEY is a DispatchKey enumerator: CPU, CompositeImplicit, ...
#define ST_REGISTER_KERNEL(op_name, key, fn)                                                                  \
  const ::st::dispatch::StaticKernelRegistration ST_DISPATCH_CONCAT(st_kernel_registration_, __LINE__)( \
      op_name, ::st::dispatch::DispatchKey::key, fn)
