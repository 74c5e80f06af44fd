"""stride: strided tensors from libstride, through ctypes.

    import stride
    t = stride.tensor([[1.5, 2, 3], [4, 5, 6]])   # a copy, float32
    print(t.T.flip(0))                            # views, negative strides included
    t.to("float16").tolist()                      # conversions by the library's rules
    stride.from_numpy(array); stride.from_dlpack(torch_tensor)   # zero-copy
    numpy.asarray(t); torch.from_dlpack(t)                       # and back
    stride.arange(1, 5, 0.5); stride.linspace(0, 1, 11)          # as NumPy's
    values, scales = stride.quantize_blocks(x, "mxfp4")          # block-scaled formats, and back:
    stride.dequantize_blocks(values, scales, "mxfp4")
    stride.float32 == numpy.float32 == "float32"; numpy.dtype(stride.float16)

The library is the file $STRIDE_LIBRARY names, else the copy bundled with
this package, else libstride.so.0 from the system's loader path.
"""

from ._blocks import dequantize_blocks, quantize_blocks
from ._errors import (DeviceFailureError, DeviceUnavailableError, InternalError, InvalidArgumentError,
                      InvalidHandleError, NotImplementedByBackendError, OutOfBoundsError, OutOfMemoryError,
                      OverlapError, ReadOnlyError, ShapeMismatchError, StrideError, UnsupportedDtypeError)
from ._numpy import from_numpy
from ._plan import PLAN_ESTIMATE, PLAN_MEASURE, CopyPlan, live_plan_count
from ._scaled import copy_scaled
from ._runtime import (cuda_device_count, cuda_empty_cache, cuda_set_stream, cuda_synchronize, get_num_threads, set_cpu_allocator,
                       set_num_threads, set_parallel_for, set_trace_callback, version, version_string)
from ._ranges import arange, linspace
from ._tensor import (Tensor, as_tensor, empty, empty_like, empty_strided, from_dlpack, full, live_tensor_count,
                      tensor, zeros)
from ._types import CPU as cpu, Device, DeviceType, DType, MemoryFormat, device, dtype

# One name per dtype, as torch spells it: stride.float32, ...; stride.bool_ (bool is Python's own).
globals().update({("bool_" if d is DType.BOOL else str(d)): d for d in DType})

contiguous_format = MemoryFormat.CONTIGUOUS
channels_last = MemoryFormat.CHANNELS_LAST
channels_last_3d = MemoryFormat.CHANNELS_LAST_3D
preserve_format = MemoryFormat.PRESERVE


__version__ = version_string()
