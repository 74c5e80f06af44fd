#include "api/guard.h"

#include <cstdio>

namespace st {
namespace api {
namespace {

// A fixed buffer: recording an error never allocates, so an out-of-memory
// failure can still be reported.
thread_local char t_message[1024] = "";

}  // namespace

st_status set_error(const char* fn, st_status code, const char* message) noexcept {
  std::snprintf(t_message, sizeof t_message, "%s: %s", fn, message);
  return code;
}

const char* last_error_message() noexcept { return t_message; }

}  // namespace api
}  // namespace st
