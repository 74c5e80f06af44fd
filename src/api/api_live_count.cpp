// Observing: st_live_tensor_count, the leak check's view of the handle table.
#include "api/args.h"
#include "api/guard.h"
#include "api/handle_table.h"

using namespace st;

extern "C" {

st_status st_live_tensor_count(int64_t* out) {
  return api::guarded("st_live_tensor_count", [&] {
    api::check_out(out);
    *out = api::HandleTable::instance().live_count();
  });
}

}  // extern "C"
