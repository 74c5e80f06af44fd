"""Element types, devices and memory formats: the C enums as Python values."""

import enum
import sys
from typing import NamedTuple


class DType(enum.IntEnum):
    BOOL = 0
    UINT8 = 1
    INT8 = 2
    INT16 = 3
    INT32 = 4
    INT64 = 5
    FLOAT16 = 6
    BFLOAT16 = 7
    FLOAT32 = 8
    FLOAT64 = 9
    COMPLEX64 = 10
    COMPLEX128 = 11

    @property
    def itemsize(self):
        return _ITEMSIZE[self]

    def __str__(self):
        return self.name.lower()


_ITEMSIZE = {
    DType.BOOL: 1, DType.UINT8: 1, DType.INT8: 1, DType.INT16: 2, DType.INT32: 4, DType.INT64: 8,
    DType.FLOAT16: 2, DType.BFLOAT16: 2, DType.FLOAT32: 4, DType.FLOAT64: 8,
    DType.COMPLEX64: 8, DType.COMPLEX128: 16,
}

# NumPy's array-interface type strings (native byte order); bfloat16 has none.
_E = "<" if sys.byteorder == "little" else ">"
_TYPESTR = {
    DType.BOOL: "|b1", DType.UINT8: "|u1", DType.INT8: "|i1", DType.INT16: _E + "i2", DType.INT32: _E + "i4",
    DType.INT64: _E + "i8", DType.FLOAT16: _E + "f2", DType.FLOAT32: _E + "f4", DType.FLOAT64: _E + "f8",
    DType.COMPLEX64: _E + "c8", DType.COMPLEX128: _E + "c16",
}


def typestr(dtype):
    """The __array_interface__ type string of a dtype; TypeError for bfloat16."""
    try:
        return _TYPESTR[dtype]
    except KeyError:
        raise TypeError(f"NumPy has no {dtype} type") from None


def dtype_from_numpy(np_dtype):
    """The DType of a NumPy dtype (native byte order only); TypeError otherwise."""
    if not np_dtype.isnative:
        raise TypeError(f"NumPy dtype {np_dtype} is not in native byte order")
    for dt, ts in _TYPESTR.items():
        if np_dtype.kind == ts[1] and np_dtype.itemsize == int(ts[2:]):
            return dt
    raise TypeError(f"NumPy dtype {np_dtype} has no stride dtype")


class DeviceType(enum.IntEnum):
    CPU = 1
    CUDA = 2
    CUDA_HOST = 3


class Device(NamedTuple):
    type: DeviceType
    index: int = 0

    def __str__(self):
        name = {DeviceType.CPU: "cpu", DeviceType.CUDA: "cuda", DeviceType.CUDA_HOST: "cuda_host"}[self.type]
        return name if self.type == DeviceType.CPU else f"{name}:{self.index}"


CPU = Device(DeviceType.CPU, 0)


def device(spec):
    """A Device from a Device, a (type, index) pair or text: "cpu", "cuda", "cuda:1", "cuda_host"."""
    if isinstance(spec, Device):
        return spec
    if isinstance(spec, tuple):
        return Device(DeviceType(spec[0]), int(spec[1]))
    if isinstance(spec, str):
        name, _, index = spec.partition(":")
        types = {"cpu": DeviceType.CPU, "cuda": DeviceType.CUDA, "cuda_host": DeviceType.CUDA_HOST}
        if name not in types:
            raise ValueError(f"unknown device {spec!r}")
        return Device(types[name], int(index) if index else 0)
    raise TypeError(f"cannot make a device of {spec!r}")


class MemoryFormat(enum.IntEnum):
    CONTIGUOUS = 0
    CHANNELS_LAST = 1
    CHANNELS_LAST_3D = 2
    PRESERVE = 3
