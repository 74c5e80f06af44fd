// The Tracing key: while a trace callback is set, every operator call on
// every thread passes through its operator's tracing kernel (made for each
// operator by dispatch::Operator), which times the call, redispatches below
// itself and reports the operator's name and the duration when the call
// returns. Nested calls report first, since they end first. Operators called
// from inside the callback are not traced.
//
// Note [Which calls are reported]
// A call is reported when it succeeds, and only then: one that fails, at
// the C boundary or in any layer below it, is not (the operators it
// completed before failing are). The rule needs no knowledge of where a
// failure was found, so every operator and st_copy_plan_execute follow it
// alike (include/stride.h, st_set_trace_callback). A failure leaves by
// exception, so TraceScope tells the two apart by the count of exceptions
// in flight.
#pragma once

#include <cstdint>
#include <exception>

#include "core/runtime/clock.h"
#include "dispatch/local_dispatch_key_set.h"

namespace st {
namespace dispatch {

using TraceFn = void (*)(void* ctx, const char* op_name, int64_t duration_ns);

// Sets the callback; a null `fn` turns tracing off. Calls that begin
// afterwards report to the new callback. When it returns, no thread is
// running the previous callback or will run it again, so its `ctx` may be
// freed -- except when called from inside the callback, where it only
// switches (see Note [Changing the trace callback]).
void set_trace_callback(TraceFn fn, void* ctx);

// Hands one finished call to the callback, if one is set and this thread is
// not already running it (calls made from inside the callback are never
// reported, so a callback never nests). Never throws.
void report_trace(const char* op_name, int64_t duration_ns) noexcept;

// Whether a call that begins now on this thread is traced: a callback is set
// and the thread has not excluded the Tracing key (it does while it runs the
// callback). Operators learn this from their dispatch keys; a call that does
// not go through the dispatcher (a copy plan's execute) asks here.
inline bool tracing_this_call() {
  return compute_dispatch_key_set(DispatchKeySet()).has(DispatchKey::Tracing);
}

// Reports the time from its construction to its destruction, unless the
// scope ends by an exception (Note [Which calls are reported]).
class TraceScope {
 public:
  explicit TraceScope(const char* op_name)
      : op_name_(op_name), exceptions_at_start_(std::uncaught_exceptions()), start_ns_(monotonic_ns()) {}
  ~TraceScope() {
    if (std::uncaught_exceptions() == exceptions_at_start_) report_trace(op_name_, monotonic_ns() - start_ns_);
  }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  const char* op_name_;
  int exceptions_at_start_;
  int64_t start_ns_;
};

}  // namespace dispatch
}  // namespace st
