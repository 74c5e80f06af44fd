// Converting copies from the dtypes whose value is 0 modulo kConvertParts
// (Note [Splitting the converting copies] in cuda/copy_convert.cuh).
#define ST_CONVERT_PART 0
#include "cuda/copy_convert.cuh"
