#include "dispatch/kernel_function.h"

#include <cxxabi.h>

#include <cstdlib>

namespace st {
namespace dispatch {

std::string KernelFunction::demangle(const char* mangled) {
  int status = 0;
  char* text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  if (status != 0 || !text) return mangled;
  std::string out(text);
  std::free(text);
  return out;
}

}  // namespace dispatch
}  // namespace st
