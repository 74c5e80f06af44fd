#include "cuda/element_io.h"

#include "core/error.h"

namespace st {
namespace cuda {

void misaligned_access(const void* p, size_t size, size_t alignment) {
  fail(ST_ERROR_INTERNAL,
       "a %zu-byte access at %p is not aligned to %zu bytes: on a GPU it would fault (cudaErrorMisalignedAddress)", size,
       p, alignment);
}

}  // namespace cuda
}  // namespace st
