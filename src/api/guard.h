// The one place where C++ meets C. Every exported function runs its body in
// guarded(), which turns any exception into a status and the thread-local
// message "st_function: what went wrong", and never lets one escape.
#pragma once

#include "core/error.h"  // the st::Error and ST_CHECK that guarded bodies throw
#include "stride.h"

namespace st {
namespace api {

// Records "<fn>: <message>" as this thread's last error and returns `code`.
st_status set_error(const char* fn, st_status code, const char* message) noexcept;
const char* last_error_message() noexcept;

// Called from inside a catch block: records the exception being handled as
// fn's error and returns its status (Note [From exceptions to statuses]).
st_status set_error_from_current_exception(const char* fn) noexcept;

template <typename Body>
st_status guarded(const char* fn, Body&& body) noexcept {
  try {
    body();
    return ST_OK;
  } catch (...) {
    return set_error_from_current_exception(fn);
  }
}

}  // namespace api
}  // namespace st
