// FunctionRef<R(Args...)>: a non-owning, non-allocating reference to any
// callable (as llvm::function_ref and c10::function_ref). Two words: a
// pointer to the callable and a trampoline. The callable must outlive the
// reference, which holds for the usual use, a lambda passed as an argument.
#pragma once

#include <type_traits>
#include <utility>

namespace st {

template <typename Fn>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
 public:
  template <typename Callable, typename = std::enable_if_t<!std::is_same<std::decay_t<Callable>, FunctionRef>::value &&
                                                           std::is_invocable_r<R, Callable&, Args...>::value>>
  FunctionRef(Callable&& callable)  // NOLINT: implicit, as a lambda argument
      : callable_(const_cast<void*>(static_cast<const void*>(&callable))),
        trampoline_(&call<std::remove_reference_t<Callable>>) {}

  R operator()(Args... args) const { return trampoline_(callable_, std::forward<Args>(args)...); }

 private:
  template <typename Callable>
  static R call(void* callable, Args... args) {
    return (*static_cast<Callable*>(callable))(std::forward<Args>(args)...);
  }

  void* callable_;
  R (*trampoline_)(void*, Args...);
};

}  // namespace st
