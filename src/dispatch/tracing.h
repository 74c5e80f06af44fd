// The Tracing key: while a trace callback is set, every operator call on
// every thread passes through its operator's tracing kernel (made for each
// operator by dispatch::Operator), which times the call, redispatches below
// itself and reports the operator's name and the duration when the call
// ends, by return or by exception. Nested calls report first, since they
// end first. Operators called from inside the callback are not traced.
#pragma once

#include <cstdint>

#include "core/clock.h"

namespace st {
namespace dispatch {

using TraceFn = void (*)(void* ctx, const char* op_name, int64_t duration_ns);

// Sets the callback; a null `fn` turns tracing off. Calls that begin
// afterwards report to the new callback. When it returns, no thread is
// running the previous callback or will run it again, so its `ctx` may be
// freed -- except when called from inside the callback, where it only
// switches (see Note [Changing the trace callback]).
void set_trace_callback(TraceFn fn, void* ctx);

// Hands one finished call to the callback, if one is set. Never throws.
void report_trace(const char* op_name, int64_t duration_ns) noexcept;

// Reports the time from its construction to its destruction.
class TraceScope {
 public:
  explicit TraceScope(const char* op_name) : op_name_(op_name), start_ns_(monotonic_ns()) {}
  ~TraceScope() { report_trace(op_name_, monotonic_ns() - start_ns_); }
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  const char* op_name_;
  int64_t start_ns_;
};

}  // namespace dispatch
}  // namespace st
