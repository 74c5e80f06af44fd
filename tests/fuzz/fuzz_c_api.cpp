// The C API fuzz target: the input bytes become a sequence of calls —
// create, create_strided, create_like, from_data, every view, contiguous,
// clone, to, copy, copy plans (create, execute or execute_raw, release),
// fill, zero, reshape, retain, release and the metadata reads — with arguments drawn from valid and invalid ranges: live, stale,
// forged and null handles, NULL pointers, huge sizes and strides, dims out
// of range, unknown enum values, and destinations that overlap their source.
// Around them the host turns hostile (fuzz_hostile.h): it installs a job
// system that may run a chunk twice, skip one, overlap or reorder them,
// changes the rounding mode and flushes denormals around the operators,
// releases the handle a call is using from that call's trace callback, as
// often as it likes, and calls back into the library from that callback
// (copies, plan executes, switching the callback). Scaled copies and plans
// get scale/shift counts far past what memory holds, on empty tensors.
//
// After every call it checks what the contract promises, against a
// reference model of its own (fuzz_layout.h, fuzz_values.h):
//  - the status is one of st_status, ST_ERROR_INTERNAL exactly when the job
//    system broke its contract, and a failure leaves a message that starts
//    with the function's name;
//  - on failure no handle was issued (out == {0}, the live count is
//    unchanged, no allocation is left over) and the destination's bytes
//    are unchanged (but after ST_ERROR_INTERNAL, which may leave it partly
//    written);
//  - a release answers ST_OK only within the caller's references, also
//    from inside a call using the handle, and that call still finishes;
//  - on success the sizes, strides and offset match the model, every
//    element lies inside its storage, and for tensors under 4096 elements
//    the values a copy wrote match a reference loop (in the default
//    floating-point environment; values written under another one go
//    unchecked);
//  - where the model can tell (a dead handle, a dim out of range, an
//    as_strided view outside the storage, a broadcast that cannot work),
//    the call fails or succeeds as it must.
// At the end of each input everything is released: the handle table is
// empty, every allocation was freed with its own size, and every deleter of
// wrapped memory ran exactly once.
//
// Any broken promise aborts with a message (libFuzzer keeps the input).#include <cstdint>

#include "fuzz_calls.h"
#include "fuzz_checks.h"
#include "stride.h"

namespace fuzz {
namespace {

// ---- One input -------------------------------------------------------------

void release_everything() {
  Model& m = *g_model;
  while (!m.handles.empty()) {
    const int last = static_cast<int>(m.handles.size() - 1);
    FUZZ_CHECK(st_tensor_release(st_tensor{m.handles[last].id}) == ST_OK, "releasing a live handle");
    drop_reference(last);
  }
  FUZZ_CHECK(live_count() == 0, "%lld handles are live after releasing every one", (long long)live_count());
  {
    std::lock_guard<std::mutex> lock(g_heap.mutex);
    FUZZ_CHECK(g_heap.live.empty() && g_heap.allocs == g_heap.frees, "%zu allocations were never freed",
               g_heap.live.size());
    g_heap.fail_next = false;
  }
  for (Wrapped* w : m.wrapped) {
    std::free(w->block);
    delete w;
  }
  m.wrapped.clear();
}

void run(const uint8_t* data, size_t size) {
  static bool initialized = false;
  static st_allocator heap{heap_alloc, heap_free, nullptr};
  if (!initialized) {
    int32_t count = 0;
    FUZZ_CHECK(st_cuda_device_count(&count) == ST_OK, "st_cuda_device_count");
    g_has_cuda = count > 0;
    initialized = true;
  }
  FUZZ_CHECK(live_count() == 0, "handles are live before the input starts");
  FUZZ_CHECK(st_set_cpu_allocator(&heap) == ST_OK, "st_set_cpu_allocator");
  const int32_t threads = st_get_num_threads();
  Model model;
  g_model = &model;
  Input in(data, size);
  for (int call = 0; call < kMaxCalls && !in.empty(); ++call) {
    const uint8_t op = in.u8();
    switch (op % 16) {
      case 0:
      case 1: op_create(in, false); break;
      case 2: op_create(in, true); break;
      case 3: op_create_like(in); break;
      case 4: op_from_data(in); break;
      case 5: op_retain_release(in, true); break;
      case 6:
      case 7: op_retain_release(in, false); break;
      case 8: op_query(in); break;
      case 9:
      case 10:
      case 11: op_view(in); break;
      case 12:
      case 13: op_make(in); break;
      case 14: op_write(in); break;
      default: op_runtime(in); break;
    }
    while (model.handles.size() > kMaxHandles) {  // keep the working set small
      FUZZ_CHECK(st_tensor_release(st_tensor{model.handles[0].id}) == ST_OK, "releasing a live handle");
      drop_reference(0);
    }
  }
  release_everything();
  set_counting_trace(false);
  FUZZ_CHECK(st_set_parallel_for(nullptr, nullptr) == ST_OK, "no job system");
  g_fp_env = FpEnv();
  FUZZ_CHECK(st_set_num_threads(threads) == ST_OK, "threads");
  g_model = nullptr;
}

}  // namespace
}  // namespace fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::run(data, size);
  return 0;
}
