"""arange and linspace: 1-d tensors of evenly spaced values, as NumPy's, filled without a Python list."""

from __future__ import annotations

import ctypes
import math
import operator
from typing import Optional, Union

from ._args import i64 as _i64
from ._errors import entry
from ._tensor import DeviceLike, DTypeLike, Tensor, empty
from ._types import CPU, DType, device as _device, dtype as _dtype


@entry
def arange(start: Union[int, float], stop: Union[None, int, float] = None, step: Union[int, float] = 1,
           dtype: Optional[DTypeLike] = None, device: DeviceLike = CPU) -> Tensor:
    """start, start + step, … up to but not including stop, as NumPy's arange.

    ``arange(stop)`` starts at 0; ``step`` may be negative, not zero. The
    count is ceil((stop - start) / step), or 0. Without `dtype`: int64 when
    start, stop and step are all integers, else float32 (as ``tensor``
    infers Python numbers). The values are computed in int64 or float64
    and converted to `dtype` by the library.
    """
    if stop is None:
        start, stop = 0, start
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, (bool, complex)) or not (hasattr(v, "__index__") or isinstance(v, float)):
            raise TypeError(f"arange: {name} must be a real number, not {type(v).__name__}")
    integral = all(hasattr(v, "__index__") for v in (start, stop, step))
    if step == 0:
        raise ValueError("arange: step must not be zero")
    if dtype is None:
        dtype = DType.INT64 if integral else DType.FLOAT32
    if integral:
        count = len(range(operator.index(start), operator.index(stop), operator.index(step)))
        first, step = operator.index(start), operator.index(step)
    else:
        count = max(0, math.ceil((float(stop) - float(start)) / float(step)))
        first, step = float(start), float(step)
    return _filled(count, first, step, integral, dtype, device, "arange")


@entry
def linspace(start: Union[int, float], stop: Union[int, float], num: int = 50, endpoint: bool = True,
             dtype: Optional[DTypeLike] = None, device: DeviceLike = CPU) -> Tensor:
    """`num` evenly spaced values from start to stop (stop itself unless ``endpoint=False``), as NumPy's linspace.

    The values are computed in float64 as NumPy does (the last one is
    exactly stop) and converted to `dtype`, float32 unless given (as
    ``tensor`` infers Python floats).
    """
    num = _i64(num, "linspace: num")
    if num < 0:
        raise ValueError(f"linspace: num must be 0 or more, not {num}")
    for name, v in (("start", start), ("stop", stop)):
        if isinstance(v, (bool, complex)) or not (hasattr(v, "__index__") or isinstance(v, float)):
            raise TypeError(f"linspace: {name} must be a real number, not {type(v).__name__}")
    return _filled(num, float(start), float(stop), None, DType.FLOAT32 if dtype is None else dtype, device,
                   "linspace", endpoint)


def _filled(count, a, b, integral, dtype, device, fn, endpoint=True):
    """A 1-d tensor of `count` values made natively: NumPy's arange (integral True/False: start a, step b)
    or linspace (integral None: from a to b), else a loop over a ctypes buffer where NumPy is missing."""
    carrier = DType.INT64 if integral else DType.FLOAT64
    stage = empty(count, dtype=carrier)
    if count:
        ctype = ctypes.c_int64 if integral else ctypes.c_double
        buffer = (ctype * count).from_address(stage.data_ptr)
        try:
            import numpy
        except ImportError:
            numpy = None
        if numpy is not None:
            out = numpy.frombuffer(buffer, dtype=numpy.int64 if integral else numpy.float64)
            if integral is None:
                out[:] = numpy.linspace(a, b, count, endpoint=endpoint)
            else:
                # start + i * step, as NumPy's arange computes it.
                numpy.multiply(numpy.arange(count, dtype=out.dtype), b, out=out)
                out += a
        elif integral is None:
            div = (count - 1) if endpoint else count
            delta = (b - a) / div if div else 0.0
            buffer[:] = [a + i * delta for i in range(count)]
            if endpoint and count > 1:
                buffer[count - 1] = b
        else:
            buffer[:] = [a + i * b for i in range(count)]
    if _dtype(dtype) == carrier and _device(device) == CPU:
        return stage
    out = empty(count, dtype=dtype, device=device)
    return out.copy_(stage)
