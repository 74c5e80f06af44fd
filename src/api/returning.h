// Helpers for exported functions that hand a tensor back through `out`.
#pragma once

#include "api/args.h"
#include "api/guard.h"
#include "api/handle_table.h"

namespace st {
namespace api {

// Runs `body` (returning a Tensor) under the guard. `*out` is {0} unless
// the call succeeds, and then holds a new handle with one reference.
template <typename Body>
st_status guarded_out(const char* fn, st_tensor* out, Body&& body) noexcept {
  if (out) out->id = 0;
  return guarded(fn, [&] {
    check_out(out);
    Tensor result = body();
    *out = HandleTable::instance().insert(std::move(result));
  });
}

}  // namespace api
}  // namespace st
