#include "api/guard.h"

#include <cstdio>
#include <new>
#include <stdexcept>
#include <system_error>

#include "core/error.h"

namespace st {
namespace api {
namespace {

// A fixed buffer: recording an error never allocates, so an out-of-memory
// failure can still be reported.
thread_local char t_message[1024] = "";

// Whether a failed system call ran out of a resource rather than being
// asked something wrong (thread creation answers EAGAIN when it does).
bool is_exhaustion(const std::system_error& e) {
  const std::error_condition c = e.code().default_error_condition();
  return c == std::errc::not_enough_memory || c == std::errc::resource_unavailable_try_again;
}

}  // namespace

st_status set_error(const char* fn, st_status code, const char* message) noexcept {
  std::snprintf(t_message, sizeof t_message, "%s: %s", fn, message);
  return code;
}

const char* last_error_message() noexcept { return t_message; }

// Note [From exceptions to statuses]
// Code below the boundary reports what it checks as st::Error, whose status
// it chose. A standard exception means a check was missed, but the status
// still follows what went wrong, as include/stride.h documents it, so that
// a caller can act on it:
//  - bad_alloc (bad_array_new_length too), length_error (a container asked
//    for more than it can hold), overflow_error and range_error (a count
//    that does not fit), and system_error for ENOMEM or EAGAIN (thread
//    creation out of resources): ST_ERROR_OUT_OF_MEMORY, "allocation
//    failed, or a byte count overflows";
//  - invalid_argument and domain_error: ST_ERROR_INVALID_ARGUMENT;
//  - out_of_range: ST_ERROR_OUT_OF_BOUNDS;
//  - anything else, other system_errors included: ST_ERROR_INTERNAL, a bug.
// The most derived classes are caught first (length_error and
// out_of_range derive from logic_error, bad_array_new_length from bad_alloc).
st_status set_error_from_current_exception(const char* fn) noexcept {
  try {
    throw;
  } catch (const Error& e) {
    return set_error(fn, e.code(), e.what());
  } catch (const std::bad_alloc&) {
    return set_error(fn, ST_ERROR_OUT_OF_MEMORY, "out of memory");
  } catch (const std::length_error& e) {
    return set_error(fn, ST_ERROR_OUT_OF_MEMORY, e.what());
  } catch (const std::overflow_error& e) {
    return set_error(fn, ST_ERROR_OUT_OF_MEMORY, e.what());
  } catch (const std::range_error& e) {
    return set_error(fn, ST_ERROR_OUT_OF_MEMORY, e.what());
  } catch (const std::invalid_argument& e) {
    return set_error(fn, ST_ERROR_INVALID_ARGUMENT, e.what());
  } catch (const std::domain_error& e) {
    return set_error(fn, ST_ERROR_INVALID_ARGUMENT, e.what());
  } catch (const std::out_of_range& e) {
    return set_error(fn, ST_ERROR_OUT_OF_BOUNDS, e.what());
  } catch (const std::system_error& e) {
    return set_error(fn, is_exhaustion(e) ? ST_ERROR_OUT_OF_MEMORY : ST_ERROR_INTERNAL, e.what());
  } catch (const std::exception& e) {
    return set_error(fn, ST_ERROR_INTERNAL, e.what());
  } catch (...) {
    return set_error(fn, ST_ERROR_INTERNAL, "unknown exception");
  }
}

}  // namespace api
}  // namespace st
