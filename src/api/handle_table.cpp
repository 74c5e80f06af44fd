#include "api/handle_table.h"

#include "core/error.h"

namespace st {
namespace api {

template class SlotTable<Tensor, st_tensor>;

PinnedHandle::PinnedHandle(st_tensor h, const char* arg) : id_(h.id) {
  st_status why;
  slot_ = HandleTable::instance().pin(h.id, &tensor_, &why);
  if (!slot_) {
    if (why == ST_ERROR_OUT_OF_MEMORY) fail(why, "%s is in use by too many calls at once", arg);
    if (h.id == 0) fail(ST_ERROR_INVALID_HANDLE, "%s is the null handle", arg);
    fail(ST_ERROR_INVALID_HANDLE, "%s = {0x%llx} is not a live handle (released, or never issued)", arg,
         static_cast<unsigned long long>(h.id));
  }
}

PinnedHandle::~PinnedHandle() {
  if (!kept_) HandleTable::instance().unpin(slot_, id_);
}

st_tensor PinnedHandle::keep() {
  if (HandleTable::instance().pin_to_reference(slot_, id_)) {
    kept_ = true;
    return st_tensor{id_};
  }
  return HandleTable::instance().insert(*tensor_);
}

}  // namespace api
}  // namespace st
