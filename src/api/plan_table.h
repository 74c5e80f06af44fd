// The generational handle table behind st_copy_plan.
//
// An id is (generation << 32) | slot index; generations start at 1, so
// {0} is never issued. A slot holds one plan and one 64-bit word: the
// generation, a live bit, a pending bit and the pins of the executions
// running the plan now (Note [Pinning a plan]). Pinning is one atomic add
// on that word and unpinning one atomic subtract, with no lock; a thread
// that executes one plan again and again keeps its pin between calls
// (Note [Plan leases]) and only reads the word. Creating and releasing,
// which are rare, take a mutex for the free slots.
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
  // The plan of a live handle, kept by this thread's lease until the
  // thread leases another plan or ends; null for any other id.
  const ops::CopyPlan* lease(uint64_t id);

  // Handles created and not released.
  int64_t live_count() const;

 private:
  PlanTable() = default;
};

// The plan of one C call. Throws ST_ERROR_INVALID_HANDLE naming the
// argument. Outside any other plan call on this thread it takes the
// plan through this thread's lease (Note [Plan leases]), with no atomic
// read-modify-write when the thread used the same plan last; a nested
// call (from a callback) pins and unpins instead.
class PinnedPlan {
 public:
  PinnedPlan(st_copy_plan plan, const char* arg);
  ~PinnedPlan();
  PinnedPlan(const PinnedPlan&) = delete;
  PinnedPlan& operator=(const PinnedPlan&) = delete;

  const ops::CopyPlan& operator*() const { return *plan_; }
  const ops::CopyPlan* operator->() const { return plan_; }

 private:
  PlanTable::Slot* slot_ = nullptr;  // pinned by this object; null when leased
  const ops::CopyPlan* plan_;
  int* depth_;  // this thread's count of plan calls running
};

}  // namespace api
}  // namespace st
