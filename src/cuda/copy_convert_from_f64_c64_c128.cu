// Converting copies from double, complex<float>, complex<double> to every other dtype (see cuda/copy_convert.cuh).
#include "cuda/copy_convert.cuh"

ST_INSTANTIATE_CONVERTING_COPIES(double);
ST_INSTANTIATE_CONVERTING_COPIES(::st::complex<float>);
ST_INSTANTIATE_CONVERTING_COPIES(::st::complex<double>);
