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
