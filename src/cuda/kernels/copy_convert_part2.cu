// Converting copies from the dtypes whose value is 2 modulo kConvertParts
// (Note [Splitting the converting copies] in cuda/kernels/copy_convert.cuh).
#define ST_CONVERT_PART 2
#include "cuda/kernels/copy_convert.cuh"
