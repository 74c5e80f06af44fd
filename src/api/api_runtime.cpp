// Runtime: st_set_num_threads, st_get_num_threads, st_set_cpu_allocator,
// st_set_parallel_for, st_runtime_settings.
#include <string>

#include "api/guard.h"
#include "core/runtime/allocator.h"
#include "core/runtime/parallel.h"
#include "core/runtime/settings_report.h"
#include "core/runtime/thread_count.h"

using namespace st;

extern "C" {

st_status st_set_num_threads(int32_t n) {
  return api::guarded("st_set_num_threads", [&] {
    ST_CHECK(n >= 1 && n <= kMaxThreads, ST_ERROR_INVALID_ARGUMENT, "n = %d must be from 1 to %d", n, kMaxThreads);
    set_num_threads(n);
  });
}

int32_t st_get_num_threads(void) { return num_threads(); }

st_status st_set_cpu_allocator(const st_allocator* allocator) {
  return api::guarded("st_set_cpu_allocator", [&] {
    ST_CHECK(!allocator || (allocator->alloc && allocator->free), ST_ERROR_INVALID_ARGUMENT,
             "allocator->%s is NULL", allocator && !allocator->alloc ? "alloc" : "free");
    set_cpu_allocator(allocator);
  });
}

st_status st_set_parallel_for(st_parallel_for_fn fn, void* ctx) {
  return api::guarded("st_set_parallel_for", [&] {
    ST_CHECK(fn || !ctx, ST_ERROR_INVALID_ARGUMENT,
             "fn is NULL but ctx = %p is not; pass NULL for both to remove the hook", ctx);
    set_parallel_for_hook(fn, ctx);
  });
}

const char* st_runtime_settings(void) {
  // Thread-local, as st_last_error_message's text: valid on this thread
  // until its next call. Building it can only fail for lack of memory;
  // then a fixed line says so.
  thread_local std::string text;
  try {
    text = runtime_settings();
  } catch (...) {
    return "st_runtime_settings: out of memory\n";
  }
  return text.c_str();
}

}  // extern "C"
