// How many threads CPU kernels may use: the number of cores, or
// ST_NUM_THREADS from the environment, until st_set_num_threads changes it.
#pragma once

namespace st {

int num_threads();
void set_num_threads(int n);

}  // namespace st
