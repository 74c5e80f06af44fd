// The keys a call's arguments contribute (PyTorch's DispatchKeyExtractor).
// Which arguments are tensors is known from the signature at compile time:
// the fold below reads the device of each `Tensor` argument (of each
// `Device` argument when there is none, Note [Factories dispatch on their
// device]) and nothing else, so a call with one tensor costs one lookup.
#pragma once

#include <type_traits>

#include "core/device.h"
#include "core/tensor.h"
#include "dispatch/dispatch_key_set.h"

namespace st {
namespace dispatch {

// A tensor's keys follow from its device: host memory (pinned or not) is
// Dense on the CPU backend, device memory Dense on CUDA. A table rather
// than a switch: every call computes this for each tensor argument.
ST_FORCE_INLINE DispatchKeySet keys_of_device(Device device) {
  static_assert(static_cast<int>(DeviceType::CPU) == 1 && static_cast<int>(DeviceType::CUDA) == 2 &&
                    static_cast<int>(DeviceType::CUDAHost) == 3,
                "the table below is indexed by DeviceType");
  static constexpr uint64_t kKeys[4] = {0, DispatchKeySet(DispatchKey::CPU).raw_repr(),
                                        DispatchKeySet(DispatchKey::CUDA).raw_repr(),
                                        DispatchKeySet(DispatchKey::CPU).raw_repr()};
  const uint32_t type = static_cast<uint32_t>(device.type);
  return DispatchKeySet(DispatchKeySet::RAW, type < 4 ? kKeys[type] : 0);
}

// An undefined tensor contributes nothing, as in PyTorch.
ST_FORCE_INLINE DispatchKeySet keys_of_tensor(const Tensor& t) {
  return t.defined() ? keys_of_device(t.device()) : DispatchKeySet();
}

template <typename Arg>
constexpr bool kIsTensorArgument = std::is_same<std::decay_t<Arg>, Tensor>::value;
template <typename Arg>
constexpr bool kIsDeviceArgument = std::is_same<std::decay_t<Arg>, Device>::value;

// Note [Factories dispatch on their device]
// A call with tensor arguments dispatches on their devices, as in PyTorch.
// A factory, an operator without one (empty_strided), dispatches on its
// Device argument instead. PyTorch computes that key in a BackendSelect
// kernel that redispatches; computing it here gives the same keys with one
// call instead of two, and lets the call cache (Note [Call cache]) jump
// straight to the backend's kernel, so the library has no BackendSelect key.
template <typename Arg>
ST_FORCE_INLINE DispatchKeySet keys_of_argument(const Arg& arg, bool factory) {
  if constexpr (kIsTensorArgument<Arg>) {
    return keys_of_tensor(arg);
  } else if constexpr (kIsDeviceArgument<Arg>) {
    return factory ? keys_of_device(arg) : DispatchKeySet();
  } else {
    (void)arg;
    (void)factory;
    return DispatchKeySet();
  }
}

// The union of the keys of every tensor argument, or of every Device
// argument when there is no tensor argument.
template <typename... Args>
ST_FORCE_INLINE DispatchKeySet keys_of_arguments(const Args&... args) {
  constexpr bool factory = !(false || ... || kIsTensorArgument<Args>);
  return (DispatchKeySet() | ... | keys_of_argument(args, factory));
}

}  // namespace dispatch
}  // namespace st
