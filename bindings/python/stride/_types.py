"""Element types, devices and memory formats: the C enums as Python values.

The members are include/stride.h's, from the generated _capi.py.
`dtype()` turns anything dtype-like into a DType: a DType, its name, a
NumPy dtype or scalar type, a Python type, or a torch dtype.
"""

import difflib
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

# The names a dtype argument takes besides NumPy's spellings (read by NumPy,
# which is asked second): stride's own, then the spellings of PyTorch, C and
# other libraries that NumPy does not read, or reads as a dtype stride has
# not. Each is unambiguous; "f16" is left out (NumPy's float128), and so are
# "i8"/"u8" (NumPy's int64/uint64: 8 bytes) and "float"/"int" (NumPy's
# float64/int64, not PyTorch's float32/int32), which NumPy reads.
_BY_NAME = {str(d): d for d in DType}
_ALIASES = {
    "half": DType.FLOAT16, "fp16": DType.FLOAT16, "bf16": DType.BFLOAT16,
    "f32": DType.FLOAT32, "fp32": DType.FLOAT32, "f64": DType.FLOAT64, "fp64": DType.FLOAT64,
    "i16": DType.INT16, "i32": DType.INT32, "i64": DType.INT64,
    "u16": DType.UINT16, "u32": DType.UINT32, "u64": DType.UINT64,
    **{f"{str(d)}_t": d for d in DType if d.kind in "iu"},  # C's int8_t ... uint64_t
}
# Python's own types, as NumPy reads them.
_BY_PYTHON_TYPE = {bool: DType.BOOL, int: DType.INT64, float: DType.FLOAT64, complex: DType.COMPLEX128}
# Offered when a name is not read: the nearest of these is suggested.
_KNOWN_NAMES = list(_BY_NAME) + list(_ALIASES) + ["double", "float", "int", "long", "short", "cfloat", "cdouble"]


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

    Accepts a DType; a name: stride's ("float16", "bfloat16"), PyTorch's
    and other libraries' short ones ("half", "fp16", "bf16", "f32",
    "fp32", "f64", "i32", "u16", ...), C's ("int8_t" ... "uint64_t"), and
    NumPy's spellings ("f4", "double"), which mean what they mean to NumPy:
    "float" is float64 and "int" int64 (as Python's float and int; PyTorch's
    torch.float and torch.int objects are float32 and int32), "i8" is
    int64 (8 bytes); a NumPy dtype or scalar type (np.float16); bool, int,
    float or complex (as NumPy reads them); a torch dtype (torch.float16).
    TypeError for anything else; for a name, it lists the names and
    suggests the nearest.
    """
    if isinstance(obj, DType):
        return obj
    if isinstance(obj, str):
        found = _BY_NAME.get(obj) or _ALIASES.get(obj)
        return found if found is not None else _from_name(obj)
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


def _from_name(name):
    """The DType of a name NumPy reads; TypeError listing the names, with the nearest, otherwise."""
    np_dtype = None
    try:
        import numpy

        np_dtype = numpy.dtype(name)
    except (ImportError, TypeError):
        pass
    why = []
    if np_dtype is not None and np_dtype.kind != "V":  # "V": NumPy reads some text as raw bytes
        try:
            return dtype_from_numpy(np_dtype)
        except TypeError:
            why.append(f"NumPy reads {name!r} as {np_dtype}, which stride has not")
    text = name.strip().lower()
    # A name cut short ("bfloat") first, then the nearest by spelling.
    nearest = sorted((k for k in _KNOWN_NAMES if text and k.startswith(text)), key=len)[:1] or \
        difflib.get_close_matches(text, _KNOWN_NAMES, n=1, cutoff=0.6)
    if nearest:
        why.append(f"did you mean {nearest[0]!r}?")
    raise TypeError(f"cannot read {name!r} as a dtype ({'; '.join(why) or 'no dtype has that name'}). The dtypes: "
                    f"{', '.join(_BY_NAME)}; also {', '.join(_ALIASES)}, and NumPy's spellings such as 'f4' or "
                    f"'double'")


def _via_numpy(spec, shown):
    try:
        np_dtype = __import__("numpy").dtype(spec)
    except TypeError:
        raise TypeError(f"cannot read {shown!r} as a dtype") from None
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
