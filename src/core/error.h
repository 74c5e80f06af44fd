// The one error type of the library. Code below the C boundary throws
// st::Error carrying the status; src/api/guard.h turns it into a status and
// the thread-local message. No layer below the boundary returns codes by hand.
#pragma once

#include <exception>
#include <string>

#include "core/macros.h"
#include "stride.h"

namespace st {

class Error final : public std::exception {
 public:
  Error(st_status code, std::string message) : code_(code), message_(std::move(message)) {}
  st_status code() const noexcept { return code_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  st_status code_;
  std::string message_;
};

// Throws st::Error with a printf-style message.
[[noreturn]] void fail(st_status code, const char* fmt, ...) ST_PRINTF_FORMAT(2, 3);

// The ending of a counted noun, so that messages say "1 dim" and "2 dims":
// "%d dim%s", n, plural(n).
constexpr const char* plural(long long n) noexcept { return n == 1 ? "" : "s"; }

}  // namespace st

// ST_CHECK(cond, ST_ERROR_..., "format", args...): throws when cond is false.
#define ST_CHECK(cond, code, ...)          \
  do {                                     \
    if (ST_UNLIKELY(!(cond))) {            \
      ::st::fail((code), __VA_ARGS__);     \
    }                                      \
  } while (0)
