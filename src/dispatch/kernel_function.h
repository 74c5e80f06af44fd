// KernelFunction: one kernel, an unboxed function pointer with its type
// erased, and the signature it was made from so that it is only ever called
// through that type (as PyTorch's c10/core/boxing/KernelFunction.h, without
// boxing or functors).
//
// A kernel of an operator with signature Ret(Args...) is a function
//   Ret kernel(DispatchKeySet keys, Args... args);
// `keys` are the keys of the call, so the kernel can redispatch below
// itself (see TypedOperatorHandle::redispatch).
#pragma once

#include <string>
#include <typeinfo>

#include "dispatch/dispatch_key_set.h"

namespace st {
namespace dispatch {

// Identifies a C++ signature: the address of a variable that exists once
// per signature in the program.
using SignatureId = const void*;

template <typename Signature>
struct SignatureTag {
  static constexpr char id = 0;
};

template <typename Signature>
constexpr SignatureId signature_id() {
  return &SignatureTag<Signature>::id;
}

// The erased type every kernel pointer is stored as; converting back to
// the original type before the call is what the standard allows.
using ErasedKernelFn = void (*)();

class KernelFunction {
 public:
  constexpr KernelFunction() = default;

  template <typename Ret, typename... Args>
  static KernelFunction make(Ret (*fn)(DispatchKeySet, Args...)) {
    return KernelFunction(reinterpret_cast<ErasedKernelFn>(fn), signature_id<Ret(Args...)>(),
                          signature_text_of<Ret(Args...)>);
  }

  bool valid() const { return fn_ != nullptr; }
  ErasedKernelFn erased() const { return fn_; }
  SignatureId signature() const { return signature_; }
  // The demangled C++ signature, for messages.
  std::string signature_text() const { return name_ ? name_() : std::string("(none)"); }

  template <typename Signature>
  static std::string signature_text_of() {
    return demangle(typeid(Signature).name());
  }

 private:
  using NameFn = std::string (*)();
  KernelFunction(ErasedKernelFn fn, SignatureId sig, NameFn name) : fn_(fn), signature_(sig), name_(name) {}
  static std::string demangle(const char* mangled);

  ErasedKernelFn fn_ = nullptr;
  SignatureId signature_ = nullptr;
  NameFn name_ = nullptr;
};

}  // namespace dispatch
}  // namespace st
