// The one place where C++ meets C. Every exported function runs its body in
// guarded(), which turns any exception into a status and the thread-local
// message "st_function: what went wrong", and never lets one escape.
#pragma once

#include <new>

#include "core/error.h"
#include "stride.h"

namespace st {
namespace api {

// Records "<fn>: <message>" as this thread's last error and returns `code`.
st_status set_error(const char* fn, st_status code, const char* message) noexcept;
const char* last_error_message() noexcept;

template <typename Body>
st_status guarded(const char* fn, Body&& body) noexcept {
  try {
    body();
    return ST_OK;
  } catch (const Error& e) {
    return set_error(fn, e.code(), e.what());
  } catch (const std::bad_alloc&) {
    return set_error(fn, ST_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& e) {
    return set_error(fn, ST_ERROR_INTERNAL, e.what());
  } catch (...) {
    return set_error(fn, ST_ERROR_INTERNAL, "unknown exception");
  }
}

}  // namespace api
}  // namespace st
