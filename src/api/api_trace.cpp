// Observing: st_set_trace_callback.
#include "api/guard.h"
#include "dispatch/tracing.h"

using namespace st;

extern "C" {

st_status st_set_trace_callback(st_trace_fn fn, void* ctx) {
  return api::guarded("st_set_trace_callback", [&] { dispatch::set_trace_callback(fn, ctx); });
}

}  // extern "C"
