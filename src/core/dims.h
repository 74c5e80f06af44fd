// Dims and sizes as every layer checks and names them: a dim argument
// wrapped into range, sizes checked, and sizes written out for messages.
#pragma once

#include <cstdint>
#include <string>

#include "core/dim_vector.h"

namespace st {

// Wraps `dim` into [0, ndim); throws ST_ERROR_INVALID_ARGUMENT naming `arg`.
int wrap_dim(int64_t dim, int ndim, const char* arg = "dim");

// Throws ST_ERROR_INVALID_ARGUMENT unless every size is >= 0.
void check_sizes_nonnegative(const DimVector& sizes, const char* arg = "sizes");

// "(2, 3, 4)", for messages.
std::string format_dims(const DimVector& dims);

}  // namespace st
