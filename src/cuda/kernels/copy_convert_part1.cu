// Converting copies from the dtypes whose value is 1 modulo kConvertParts
// (Note [Splitting the converting copies] in cuda/kernels/copy_convert.cuh).
#define ST_CONVERT_PART 1
#include "cuda/kernels/copy_convert.cuh"
