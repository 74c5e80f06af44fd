// The generational handle table behind st_copy_plan.
//
// An id is (generation << 32) | slot index; generations start at 1, so
// {0} is never issued. A slot holds one plan and one 64-bit word: the
// generation, a live bit, a pending bit and the pins of the executions
// running the plan now (Note [Pinning a plan]). Pinning is one atomic add
// on that word and unpinning one atomic subtract, with no lock; creating
// and releasing, which are rare, take a mutex for the free slots.
#pragma once

#include <cstdint>
#include <memory>

#include "ops/copy_plan.h"
#include "stride.h"

namespace st {
namespace api {

class PlanTable {
 public:
  static PlanTable& instance();
  struct Slot;

  // A new live handle for `plan`. Throws ST_ERROR_OUT_OF_MEMORY when full.
  st_copy_plan insert(std::unique_ptr<ops::CopyPlan> plan);
  // Kills the handle: ST_ERROR_INVALID_HANDLE when it is not live. The plan
  // goes when the last execution pinning it ends.
  st_status release(uint64_t id);
  // The plan of a live handle, kept until unpin(slot); null for any other id.
  const ops::CopyPlan* pin(uint64_t id, Slot** slot);
  void unpin(Slot* slot);

  // Handles created and not released.
  int64_t live_count() const;

 private:
  PlanTable() = default;
};

// Pins a plan for the length of one C call. Throws ST_ERROR_INVALID_HANDLE
// naming the argument.
class PinnedPlan {
 public:
  PinnedPlan(st_copy_plan plan, const char* arg);
  ~PinnedPlan() { PlanTable::instance().unpin(slot_); }
  PinnedPlan(const PinnedPlan&) = delete;
  PinnedPlan& operator=(const PinnedPlan&) = delete;

  const ops::CopyPlan& operator*() const { return *plan_; }
  const ops::CopyPlan* operator->() const { return plan_; }

 private:
  PlanTable::Slot* slot_ = nullptr;
  const ops::CopyPlan* plan_;
};

}  // namespace api
}  // namespace st
