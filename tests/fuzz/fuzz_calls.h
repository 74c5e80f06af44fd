// The calls the fuzz target makes, one function per kind; each reads its
// arguments from the input, makes the call and checks it.
#pragma once

#include "fuzz_input.h"

namespace fuzz {

void op_create(Input& in, bool strided);  // st_tensor_create, st_tensor_create_strided
void op_create_like(Input& in);
void op_from_data(Input& in);
void op_retain_release(Input& in, bool retain);
void op_query(Input& in);    // the metadata reads
void op_view(Input& in);     // every view
void op_make(Input& in);     // contiguous, clone, to, reshape
void op_write(Input& in);    // copy, fill, zero
void op_runtime(Input& in);  // threads, trace, a refused allocation, the live count, and the three below

// A hostile host (fuzz_calls_hostile.cpp).
void op_job_system(Input& in);            // installs a job system that may break its contract
void op_fp_env(Input& in);                // the rounding mode and denormal flushing of later operators
void probe_rounding(Input& in);           // a copy whose values hang on that environment (fuzz_calls_rounding.cpp)
void op_release_inside_trace(Input& in);  // releases a handle from the trace callback of a call using it
void op_trace_reentry(Input& in);         // a trace callback that copies, executes plans and switches itself
void op_scale_shift_counts(Input& in);    // scale/shift counts past what memory holds, on empty tensors
void count_trace(void* ctx, const char* op, int64_t ns);  // the callback that only checks its reports

inline bool g_counting_trace = false;  // the trace callback that only checks its reports is on
void set_counting_trace(bool on);

}  // namespace fuzz
