// Converting copies from bool, uint8_t, int8_t to every other dtype (see cuda/copy_convert.cuh).
#include "cuda/copy_convert.cuh"

ST_INSTANTIATE_CONVERTING_COPIES(bool);
ST_INSTANTIATE_CONVERTING_COPIES(uint8_t);
ST_INSTANTIATE_CONVERTING_COPIES(int8_t);
