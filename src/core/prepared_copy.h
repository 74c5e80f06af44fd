// PreparedCopy: a backend's copy of one layout and dtype pair, worked out
// once (the geometry, the kernel, its blocking, the thread split) and run
// on new memory every time. ops/copy_plan.h (st_copy_plan) keeps one; the
// backends make it in their "copy_plan" kernel (src/cpu/copy_plan.cpp,
// src/cuda/copy_plan.cpp).
// It lives here, below both, because ops reaches the backends only through
// the dispatcher and the backends may not see ops.
#pragma once

#include <cstdint>

namespace st {

class PreparedCopy {
 public:
  virtual ~PreparedCopy() = default;
  // Copies with element (0, …, 0) of dst at `dst` and of src at `src`, the
  // caller having ruled out any sharing of memory between them, and
  // returns true; or returns false, having copied nothing, where it does
  // not take these addresses: a device conversion loads and stores typed
  // elements, which want element-aligned addresses, and the plan then goes
  // through the copy_ operator, which stages such memory through an aligned
  // temporary. On a device: queued on the calling thread's current stream,
  // allocating nothing, and waited for unless `non_blocking` (host copies
  // are synchronous either way). Callable from several threads at once on
  // different memory.
  virtual bool run(char* dst, const char* src, bool non_blocking) const = 0;
};

// What a backend's copy_plan kernel is asked for.
enum class PlanEffort : int32_t {
  Estimate = 0,  // st_copy's own choices
  Measure = 1,   // time the candidates on the given tensors, keep the fastest
};

}  // namespace st
