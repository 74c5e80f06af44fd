#include "core/device.h"

namespace st {

const char* device_type_name(int32_t type) {
  switch (type) {
    case ST_DEVICE_CPU:
      return "cpu";
    case ST_DEVICE_CUDA:
      return "cuda";
    case ST_DEVICE_CUDA_HOST:
      return "cuda_host";
    default:
      return "unknown";
  }
}

}  // namespace st
