#include "cuda/device_copy.h"

#include <cstring>

#include "core/error.h"
#include "core/numeric/dtype_dispatch.h"
#include "cuda/kernels/copy_launch.h"
#include "cuda/kernels/device_conversions.h"
#include "cuda/kernels/device_copy_plan.h"
#include "cuda/kernels/iter_offsets.h"
#include "cuda/runtime/device_guard.h"
#include "cuda/runtime/empty.h"
#include "cuda/runtime/stream.h"
#include "iter/tensor_iterator.h"

namespace st {
namespace cuda {
void launch_copy_part(const CopyPart& part, cudaStream_t stream) {
  const DeviceCopyPlan plan = plan_device_copy(part);
  const ScalarType dst_type = plan.kernel_dst, src_type = part.dtype(1);
  const bool same = plan.same;
  const int item_size = static_cast<int>(part.element_size(0));
  switch (plan.kernel) {
    case CopyKernel::Bytes:
      launch_copy_bytes(BytesCopyArgs{part.data_ptr(0), part.data_ptr(1), plan.bytes}, stream);
      return;
    case CopyKernel::Vectorized: {
      const VectorCopyArgs args{part.data_ptr(0), part.data_ptr(1), plan.vector};
      ST_DISPATCH_ALL_TYPES(src_type, "copy", [&] { ConvertingCopies<scalar_t>::vectorized(dst_type, args, stream); });
      return;
    }
    case CopyKernel::Transpose: {
      const TransposeCopyArgs args = make_transpose_args(part, plan.transpose_col);
      if (same) {
        launch_copy_transpose_same(item_size, args, stream);
      } else {
        ST_DISPATCH_ALL_TYPES(src_type, "copy", [&] { ConvertingCopies<scalar_t>::transpose(dst_type, args, stream); });
      }
      return;
    }
    case CopyKernel::Strided: {
      const StridedCopyArgs args{part.data_ptr(0), part.data_ptr(1), make_offset_calculator<2>(part),
                                 static_cast<uint32_t>(part.numel())};
      if (same) {
        launch_copy_strided_same(item_size, plan.aligned, args, stream);
      } else {
        ST_DISPATCH_ALL_TYPES(src_type, "copy", [&] { ConvertingCopies<scalar_t>::strided(dst_type, args, stream); });
      }
      return;
    }
  }
}

void copy_on_device(const Tensor& dst, const Tensor& src) {
  const Device device = dst.device();
  ST_CHECK(device.is_cuda() && src.device() == device, ST_ERROR_INTERNAL,
           "copy_on_device: dst on %s:%d, src on %s:%d", device_type_name(static_cast<int32_t>(device.type)),
           device.index, device_type_name(static_cast<int32_t>(src.device().type)), src.device().index);
  // Conversions load and store typed elements, which the device wants at
  // aligned addresses; memory a user wrapped at an odd address goes
  // through an aligned temporary with a raw-byte copy (rare, and cheap on
  // the device).
  if (!kernels_take(dst.dtype(), src.dtype(), false, dst.data(), src.data())) {
    const Tensor& odd = element_aligned(src) ? dst : src;
    const Tensor aligned = empty_contiguous_on(odd.sizes(), odd.dtype(), device);
    copy_on_device(aligned, src);
    copy_on_device(dst, aligned);
    return;
  }
  DeviceGuard guard(device.index);
  const cudaStream_t stream = current_stream(device.index);
  const TensorIterator iter = TensorIterator::copy(dst, src);
  if (iter.numel() == 0) return;
  iter.with_32bit_indexing([&](const TensorIterator& part) { launch_copy_part(CopyPart(part), stream); });
}

void fill_on_device(const Tensor& dst, const Word16& value) {
  if (dst.numel() == 0) return;
  const Device device = dst.device();
  DeviceGuard guard(device.index);
  const cudaStream_t stream = current_stream(device.index);
  const TensorIterator iter = TensorIterator::fill(dst);
  const int item_size = static_cast<int>(dst.itemsize());
  iter.with_32bit_indexing([&](const TensorIterator& part) {
    const bool aligned = is_aligned_to(part.data_ptr(0), item_size);
    if (part.is_contiguous() && aligned) {
      const uintptr_t at = reinterpret_cast<uintptr_t>(part.data_ptr(0));
      FillContiguousArgs args{part.data_ptr(0), plan_copy_bytes(at, at, part.numel() * item_size), Word16{}};
      // The element's bytes, repeated over 16 (element sizes divide 16).
      char pattern[16];
      for (int i = 0; i < 16; ++i) pattern[i] = reinterpret_cast<const char*>(&value)[i % item_size];
      std::memcpy(&args.pattern, pattern, 16);
      launch_fill_contiguous(item_size, args, stream);
      return;
    }
    launch_fill_strided(item_size, aligned, part.data_ptr(0), make_offset_calculator<1>(part),
                        static_cast<uint32_t>(part.numel()), value, stream);
  });
}

}  // namespace cuda
}  // namespace st
