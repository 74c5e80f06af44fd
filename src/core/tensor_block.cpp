#include "core/tensor_block.h"

#include <cstdint>
#include <new>

#include "core/error.h"
#include "core/runtime/allocator.h"

namespace st {
namespace {

constexpr size_t kImplsBytes = sizeof(StorageImpl) + sizeof(TensorImpl);
static_assert(alignof(StorageImpl) <= alignof(std::max_align_t) && alignof(TensorImpl) <= alignof(std::max_align_t) &&
                  sizeof(StorageImpl) % alignof(TensorImpl) == 0,
              "both objects sit at operator new's alignment");

}  // namespace

bool fits_tensor_block(size_t nbytes) {
  return nbytes > 0 && nbytes <= kTensorBlockMaxBytes && default_cpu_allocator_in_use();
}

Tensor make_tensor_in_block(const DimVector& sizes, const DimVector& strides, ScalarType dtype, int64_t numel,
                            size_t nbytes) {
  // Room to move the data up to the next kCpuAlignment boundary, wherever
  // operator new's block starts.
  const size_t total = kImplsBytes + (kCpuAlignment - 1) + nbytes;
  void* block = ::operator new(total);  // std::bad_alloc reaches the C boundary as ST_ERROR_OUT_OF_MEMORY
  const uintptr_t after_impls = reinterpret_cast<uintptr_t>(block) + kImplsBytes;
  const uintptr_t data = (after_impls + kCpuAlignment - 1) & ~static_cast<uintptr_t>(kCpuAlignment - 1);
  // From here the storage owns the block: if the TensorImpl's constructor
  // throws, dropping the storage reference frees it.
  Storage storage = Storage::adopt_new(
      new (block) StorageImpl(StorageImpl::AtBlockStart{}, reinterpret_cast<void*>(data), nbytes, cpu_device()));
  void* impl_place = static_cast<char*>(block) + sizeof(StorageImpl);
  return Tensor(IntrusivePtr<TensorImpl>::adopt_new(
      new (impl_place) TensorImpl(TensorImpl::InBlock{}, std::move(storage), sizes, strides, dtype, numel)));
}

}  // namespace st
