"""Element types, devices and memory formats: the C enums as Python values.

The members are include/stride.h's, from the generated _capi.py.
`dtype()` turns anything dtype-like into a DType: a DType, its name, a
NumPy dtype or scalar type, a Python type, or a torch dtype.
"""

import enum
import re
import sys
from typing import NamedTuple

from . import _capi


class _DTypeMethods(enum.IntEnum):
    """What a DType knows of itself; the members are include/stride.h's st_dtype values (DType below)."""

    @property
    def itemsize(self):
        """Bytes per element."""
        return _ROWS[self].itemsize

    @property
    def kind(self):
        """'b' (bool), 'u', 'i' (integers), 'f' (floating) or 'c' (complex), as NumPy's dtype.kind."""
        return _ROWS[self].kind

    def __str__(self):
        return self.name.lower()

    def __repr__(self):
        return f"stride.{self}"

    # Equal to whatever names the same dtype: its name ("float32"), NumPy's
    # dtype or scalar type, a torch dtype. Integers compare as the st_dtype
    # value, as an IntEnum does; what is no dtype compares unequal.
    def __eq__(self, other):
        if isinstance(other, int) and not isinstance(other, bool):
            return int(self) == int(other)
        try:
            return self is dtype(other)
        except TypeError:
            return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = enum.IntEnum.__hash__

    @property
    def dtype(self):
        """The NumPy dtype of the same name, so that ``numpy.dtype(stride.float32)`` works.

        TypeError for bfloat16 and the float8 types, which NumPy does not have.
        """
        import numpy

        if not _NUMPY_NAMES.fullmatch(str(self)):
            raise TypeError(f"NumPy has no {self} dtype")
        return numpy.dtype(_ROWS[self].typestr)


DType = _DTypeMethods("DType", _capi.ENUMS["st_dtype"], module=__name__, qualname="DType")
DType.__doc__ = """The element types, include/stride.h's st_dtype; stride.float32 and friends are its members.

A member equals its name ("float32"), the NumPy dtype and the torch dtype
of the same name, and NumPy reads it: ``numpy.dtype(stride.float32)``.
"""


class _Row(NamedTuple):
    kind: str
    itemsize: int
    typestr: str  # NumPy's array-interface type string, "" where NumPy has none; float8's bytes show as uint8
    dlpack_code: int  # DLDataTypeCode


_E = "<" if sys.byteorder == "little" else ">"
# The dtypes NumPy has under the same name; NumPy sees the bytes of any other 1-byte dtype as uint8.
_NUMPY_NAMES = re.compile(r"bool|u?int(8|16|32|64)|float(16|32|64)|complex(64|128)")


def _typestr(name, kind, itemsize):
    if _NUMPY_NAMES.fullmatch(name):
        return ("|" if itemsize == 1 else _E) + kind + str(itemsize)
    return "|u1" if itemsize == 1 else ""


# One row per dtype, from the generated table (tools/gen_bindings.py).
_ROWS = {DType(value): _Row(kind, itemsize, _typestr(name, kind, itemsize), code)
         for _, value, name, itemsize, kind, code, _ in _capi.DTYPES}

# Other spellings ("f4", "double", "float") are NumPy's, read by NumPy.
_BY_NAME = {str(d): d for d in DType}
# Python's own types, as NumPy reads them.
_BY_PYTHON_TYPE = {bool: DType.BOOL, int: DType.INT64, float: DType.FLOAT64, complex: DType.COMPLEX128}


def typestr(dtype):
    """The __array_interface__ type string of a dtype; TypeError where NumPy has none (bfloat16).

    A float8 dtype answers "|u1": NumPy sees its bytes as uint8.
    """
    s = _ROWS[dtype].typestr
    if not s:
        raise TypeError(f"NumPy has no {dtype} type")
    return s


def dlpack_code(dtype):
    return _ROWS[dtype].dlpack_code


def dtype_from_numpy(np_dtype):
    """The DType of a NumPy dtype (native byte order only); TypeError otherwise."""
    if not np_dtype.isnative:
        raise TypeError(f"NumPy dtype {np_dtype} is not in native byte order")
    for dt, row in _ROWS.items():
        if row.typestr and np_dtype.kind == row.kind and np_dtype.itemsize == row.itemsize:
            return dt
    raise TypeError(f"NumPy dtype {np_dtype} has no stride dtype")


def dtype(obj):
    """The DType that `obj` stands for.

    Accepts a DType; a name ("float16", "bfloat16", and NumPy's spellings
    such as "f4" or "double"); a NumPy dtype or scalar type (np.float16);
    bool, int, float or complex (as NumPy reads them); a torch dtype
    (torch.float16). TypeError for anything else.
    """
    if isinstance(obj, DType):
        return obj
    if isinstance(obj, str):
        if obj in _BY_NAME:
            return _BY_NAME[obj]
        return _via_numpy(obj, obj)
    if isinstance(obj, type) and obj in _BY_PYTHON_TYPE:
        return _BY_PYTHON_TYPE[obj]
    kind = type(obj)
    if kind.__module__ == "torch" and kind.__name__ == "dtype":
        # str(torch.float16) is "torch.float16"; torch need not be imported here.
        name = str(obj).replace("torch.", "", 1)
        if name in _BY_NAME:
            return _BY_NAME[name]
        raise TypeError(f"{obj} has no stride dtype")
    if kind.__module__ == "numpy" or getattr(obj, "__module__", None) == "numpy":
        return _via_numpy(obj, obj)
    raise TypeError(f"cannot read {obj!r} as a dtype: give a stride dtype, a name such as 'float32', "
                    f"a NumPy dtype or a torch dtype")


def _via_numpy(spec, shown):
    try:
        import numpy
    except ImportError:
        raise TypeError(f"{shown!r} is not a stride dtype name") from None
    try:
        np_dtype = numpy.dtype(spec)
    except TypeError:
        raise TypeError(f"cannot read {shown!r} as a dtype") from None
    if np_dtype.kind == "V" and isinstance(spec, str):
        raise TypeError(f"{shown!r} is not a dtype name")
    return dtype_from_numpy(np_dtype)


DeviceType = enum.IntEnum("DeviceType", _capi.ENUMS["st_device_type"], module=__name__, qualname="DeviceType")
DeviceType.__doc__ = "Kinds of device, include/stride.h's st_device_type (DLPack's codes): CPU, CUDA, CUDA_HOST."


_DEVICE_NAMES = {DeviceType.CPU: "cpu", DeviceType.CUDA: "cuda", DeviceType.CUDA_HOST: "cuda_host"}


class Device(NamedTuple):
    type: DeviceType
    index: int = 0

    def __str__(self):
        name = _DEVICE_NAMES[self.type]
        return name if self.type == DeviceType.CPU else f"{name}:{self.index}"


CPU = Device(DeviceType.CPU, 0)


def device(spec):
    """A Device from a Device, a (type, index) pair or text: "cpu", "cuda", "cuda:1", "cuda_host"."""
    if isinstance(spec, Device):
        return spec
    if isinstance(spec, tuple) and len(spec) == 2:
        try:
            return Device(DeviceType(int(spec[0])), int(spec[1]))
        except ValueError:
            raise ValueError(f"unknown device type in {spec!r}") from None
    if isinstance(spec, str):
        name, _, index = spec.partition(":")
        types = {v: k for k, v in _DEVICE_NAMES.items()}
        if name not in types or (index and not index.isdigit()):
            raise ValueError(f"unknown device {spec!r}: give 'cpu', 'cuda', 'cuda:N' or 'cuda_host'")
        return Device(types[name], int(index) if index else 0)
    kind = type(spec)
    if kind.__module__ == "torch" and kind.__name__ == "device":
        return device(str(spec))
    raise TypeError(f"cannot read {spec!r} as a device")


def is_device_like(obj):
    if isinstance(obj, Device) or (type(obj).__module__ == "torch" and type(obj).__name__ == "device"):
        return True
    if isinstance(obj, str):
        return obj.partition(":")[0] in _DEVICE_NAMES.values()
    return False


MemoryFormat = enum.IntEnum("MemoryFormat", _capi.ENUMS["st_memory_format"], module=__name__, qualname="MemoryFormat")
MemoryFormat.__doc__ = "Stride orders, include/stride.h's st_memory_format: stride.contiguous_format, channels_last, ..."


def memory_format(obj):
    if isinstance(obj, MemoryFormat):
        return obj
    if isinstance(obj, int) and not isinstance(obj, bool):
        try:
            return MemoryFormat(obj)
        except ValueError:
            raise ValueError(f"{obj} is not a memory format") from None
    raise TypeError(f"memory_format must be a stride memory format (stride.channels_last, ...), not {obj!r}")
