"""stride: strided tensors from libstride, through ctypes.

    import numpy as np, stride
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = stride.from_numpy(a)          # zero-copy
    v = t.transpose(0, 1)[::-1]       # views, negative strides included
    np.asarray(v)                     # zero-copy back to NumPy
    stride.from_dlpack(torch_tensor)  # and DLPack with any framework

The library is found at $STRIDE_LIBRARY, in $STRIDE_LIB_DIR, or on the
system's search path.
"""

from ._errors import (DeviceFailureError, DeviceUnavailableError, InternalError, InvalidArgumentError,
                      InvalidHandleError, NotImplementedByBackendError, OutOfBoundsError, OutOfMemoryError,
                      OverlapError, ReadOnlyError, ShapeMismatchError, StrideError, UnsupportedDtypeError)
from ._numpy import from_numpy
from ._runtime import (cuda_device_count, cuda_set_stream, cuda_synchronize, get_num_threads, set_cpu_allocator,
                       set_num_threads, set_parallel_for, set_trace_callback, version, version_string)
from ._tensor import Tensor, as_tensor, empty, empty_like, empty_strided, from_dlpack
from ._types import CPU as cpu, Device, DeviceType, DType, MemoryFormat, device

bool_ = DType.BOOL
uint8 = DType.UINT8
int8 = DType.INT8
int16 = DType.INT16
int32 = DType.INT32
int64 = DType.INT64
float16 = DType.FLOAT16
bfloat16 = DType.BFLOAT16
float32 = DType.FLOAT32
float64 = DType.FLOAT64
complex64 = DType.COMPLEX64
complex128 = DType.COMPLEX128

contiguous_format = MemoryFormat.CONTIGUOUS
channels_last = MemoryFormat.CHANNELS_LAST
channels_last_3d = MemoryFormat.CHANNELS_LAST_3D
preserve_format = MemoryFormat.PRESERVE


__version__ = version_string()
