// Converting copies from int16_t, int32_t, int64_t to every other dtype (see cuda/copy_convert.cuh).
#include "cuda/copy_convert.cuh"

ST_INSTANTIATE_CONVERTING_COPIES(int16_t);
ST_INSTANTIATE_CONVERTING_COPIES(int32_t);
ST_INSTANTIATE_CONVERTING_COPIES(int64_t);
