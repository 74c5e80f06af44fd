#include "dispatch/dispatch_key.h"

namespace st {
namespace dispatch {

const char* dispatch_key_name(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined:
      return "Undefined";
    case DispatchKey::Dense:
      return "Dense";
    case DispatchKey::Tracing:
      return "Tracing";
    case DispatchKey::EndOfFunctionalityKeys:
      return "EndOfFunctionalityKeys";
    case DispatchKey::StartOfDenseBackends:
      return "StartOfDenseBackends";
    case DispatchKey::CPU:
      return "CPU";
    case DispatchKey::CUDA:
      return "CUDA";
    case DispatchKey::PrivateUse1:
      return "PrivateUse1";
    case DispatchKey::CompositeImplicit:
      return "CompositeImplicit";
  }
  return "Unknown";
}

const char* backend_component_name(BackendComponent b) {
  switch (b) {
    case BackendComponent::InvalidBit:
      return "InvalidBit";
    case BackendComponent::CPUBit:
      return "CPUBit";
    case BackendComponent::CUDABit:
      return "CUDABit";
    case BackendComponent::PrivateUse1Bit:
      return "PrivateUse1Bit";
  }
  return "Unknown";
}

}  // namespace dispatch
}  // namespace st
