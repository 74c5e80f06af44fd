// The handle table behind st_copy_plan: one slot table (api/slot_table.h)
// of plans, as for tensors, and the pin a C call holds on its plan. A
// thread that executes one plan again and again keeps its pin between
// calls (Note [Plan leases]) and only reads the slot's word.
#pragma once

#include <cstdint>
#include <memory>

#include "api/slot_table.h"
#include "ops/copy_plan.h"
#include "stride.h"

namespace st {
namespace api {

using PlanTable = SlotTable<std::unique_ptr<const ops::CopyPlan>, st_copy_plan>;
extern template class SlotTable<std::unique_ptr<const ops::CopyPlan>, st_copy_plan>;  // in plan_table.cpp

// The plan of one C call. Throws ST_ERROR_INVALID_HANDLE naming the
// argument (ST_ERROR_OUT_OF_MEMORY when too many calls hold the plan).
// Outside any other plan call on this thread it takes the plan through
// this thread's lease (Note [Plan leases]), with no atomic
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
  uint64_t id_;
  PlanTable::Slot* slot_ = nullptr;  // pinned by this object; null when leased
  const ops::CopyPlan* plan_;
  int* depth_;  // this thread's count of plan calls running
};

}  // namespace api
}  // namespace st
