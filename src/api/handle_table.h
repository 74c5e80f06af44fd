// The handle table behind st_tensor: one slot table (api/slot_table.h) of
// tensors, and the pin a C call holds on each handle it is given.
#pragma once

#include <cstdint>

#include "api/slot_table.h"
#include "core/tensor.h"
#include "stride.h"

namespace st {
namespace api {

using HandleTable = SlotTable<Tensor, st_tensor>;
extern template class SlotTable<Tensor, st_tensor>;  // instantiated in handle_table.cpp

// Pins a handle for the length of one C call: looks it up, keeps it alive,
// and drops the pin at scope end. Throws ST_ERROR_INVALID_HANDLE naming
// the argument.
class PinnedHandle {
 public:
  PinnedHandle(st_tensor h, const char* arg);
  ~PinnedHandle();
  PinnedHandle(const PinnedHandle&) = delete;
  PinnedHandle& operator=(const PinnedHandle&) = delete;

  const Tensor& tensor() const { return *tensor_; }
  const Tensor& operator*() const { return *tensor_; }
  const Tensor* operator->() const { return tensor_; }
  // The handle itself with one more reference, for an operator that answers
  // with its argument: the pin becomes that reference. When the caller
  // released the handle meanwhile (from a callback), a new handle of the
  // same tensor.
  st_tensor keep();

 private:
  uint64_t id_;
  HandleTable::Slot* slot_;
  const Tensor* tensor_;
  bool kept_ = false;
};

}  // namespace api
}  // namespace st
