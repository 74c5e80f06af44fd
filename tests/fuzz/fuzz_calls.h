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
void op_runtime(Input& in);  // threads, trace, a refused allocation, the live count

}  // namespace fuzz
