#include "core/error.h"

#include <cstdarg>
#include <cstdio>

namespace st {

void fail(st_status code, const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  throw Error(code, buf);
}

}  // namespace st
