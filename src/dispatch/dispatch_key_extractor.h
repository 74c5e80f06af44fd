// The keys a call's arguments contribute (PyTorch's DispatchKeyExtractor).
// Which arguments are tensors is known from the signature at compile time:
// the fold below reads the device of each `Tensor` argument and nothing
// else, so a call with one tensor costs one switch.
#pragma once

#include <type_traits>

#include "core/device.h"
#include "core/tensor.h"
#include "dispatch/dispatch_key_set.h"

namespace st {
namespace dispatch {

// A tensor's keys follow from its device: host memory (pinned or not) is
// Dense on the CPU backend, device memory Dense on CUDA.
ST_FORCE_INLINE DispatchKeySet keys_of_device(Device device) {
  switch (device.type) {
    case DeviceType::CPU:
    case DeviceType::CUDAHost:
      return DispatchKeySet(DispatchKey::CPU);
    case DeviceType::CUDA:
      return DispatchKeySet(DispatchKey::CUDA);
  }
  return DispatchKeySet();
}

// An undefined tensor contributes nothing, as in PyTorch.
ST_FORCE_INLINE DispatchKeySet keys_of_tensor(const Tensor& t) {
  return t.defined() ? keys_of_device(t.device()) : DispatchKeySet();
}

template <typename Arg>
ST_FORCE_INLINE DispatchKeySet keys_of_argument(const Arg& arg) {
  if constexpr (std::is_same<std::decay_t<Arg>, Tensor>::value) {
    return keys_of_tensor(arg);
  } else {
    (void)arg;
    return DispatchKeySet();
  }
}

// The union of the keys of every tensor argument.
template <typename... Args>
ST_FORCE_INLINE DispatchKeySet keys_of_arguments(const Args&... args) {
  return (DispatchKeySet() | ... | keys_of_argument(args));
}

}  // namespace dispatch
}  // namespace st
