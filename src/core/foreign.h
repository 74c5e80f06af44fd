// Tensors over memory the library did not allocate: st_tensor_from_data and
// DLPack imports. The storage is exactly the span of the wrapped elements.
#pragma once

#include "core/tensor.h"

namespace st {

// A tensor over `data` (the address of element (0, …, 0)) whose storage does
// not own the memory yet: the caller gives it its release with
// StorageImpl::adopt_release once nothing else can fail, so that a failed
// wrap never frees foreign memory. `strides` NULL means row-major; strides
// may be negative. A read-only storage refuses every write into it.
// Throws ST_ERROR_INVALID_ARGUMENT (negative size, NULL data with elements,
// elements that would lie outside the address space),
// ST_ERROR_OUT_OF_MEMORY (the span overflows int64) and what
// cuda_hooks().check_foreign_memory (a CUDA or pinned device) or
// check_host_memory (the CPU) says: the memory is not of that device,
// ST_ERROR_INVALID_ARGUMENT naming `data_name`.
Tensor wrap_foreign(void* data, const DimVector& sizes, const DimVector* strides, ScalarType dtype, Device device,
                    bool read_only = false, const char* data_name = "data");

}  // namespace st
