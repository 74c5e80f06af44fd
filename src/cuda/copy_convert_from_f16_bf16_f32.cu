// Converting copies from Half, BFloat16, float to every other dtype (see cuda/copy_convert.cuh).
#include "cuda/copy_convert.cuh"

ST_INSTANTIATE_CONVERTING_COPIES(::st::Half);
ST_INSTANTIATE_CONVERTING_COPIES(::st::BFloat16);
ST_INSTANTIATE_CONVERTING_COPIES(float);
