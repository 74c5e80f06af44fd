#include "dispatch/registration.h"

namespace st {
namespace dispatch {

KernelRegistration register_kernel(const char* op_name, DispatchKey key, KernelFunction kernel) {
  OperatorEntry& op = Dispatcher::singleton().find_or_create(op_name);
  const uint64_t id = op.add_kernel(key, kernel);
  return KernelRegistration(op, key, id);
}

}  // namespace dispatch
}  // namespace st
