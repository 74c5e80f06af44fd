"""The Tensor class: one reference to a libstride tensor handle."""

from __future__ import annotations

import ctypes
import operator
import sys
from typing import Any, Optional, Sequence, Tuple, Union

from . import _dlpack, _errors
from ._errors import StrideError, UnsupportedDtypeError, entry
from ._args import dim as _dim, dims as _dims, i64 as _i64, i64s as _i64s, shape_args as _shape_args
from ._capi import ST_ERROR_OUT_OF_BOUNDS, st_device, st_format_options, st_tensor
from ._lib import lib
from ._scale_shift import scale_shift
from ._types import (CPU, Device, DeviceType, DType, MemoryFormat, device as _device, dtype as _dtype,
                     is_device_like, memory_format as _memory_format, typestr)

_NO_ELEMENTS = (ctypes.c_longdouble * 1)()

# NumPy's default line width: str() and repr() keep within it.
_LINE_WIDTH = 75

# What the annotations call dtype-like and device-like: anything dtype() and device() read.
DTypeLike = Any
DeviceLike = Union[Device, str, Tuple[int, int], Any]
Number = Union[bool, int, float, complex]

# The dtype Python numbers of each kind travel through, and the ctypes type
# that reads it: every value of the kind is exact in it.
_CARRIER = {"b": (DType.BOOL, ctypes.c_bool), "u": (DType.UINT64, ctypes.c_uint64), "i": (DType.INT64, ctypes.c_int64),
            "f": (DType.FLOAT64, ctypes.c_double), "c": (DType.COMPLEX128, ctypes.c_double)}


class Tensor:
    """A strided tensor living in libstride.

    A Tensor owns one reference to its handle: ``release()`` (or leaving a
    ``with`` block, or garbage collection) drops it. Views share memory with
    their source and keep it alive on their own, as do NumPy arrays and
    DLPack capsules made from it. Metadata never changes.
    """

    # _ref holds this object's st_tensor until release() pops it: one pop,
    # atomic under the GIL, so that threads releasing one object at once
    # drop its reference once (docs/bindings.md, "Python").
    __slots__ = ("_ref", "__weakref__")

    def __init__(self):
        raise TypeError("make tensors with stride.tensor, stride.empty, stride.from_numpy or stride.from_dlpack")

    @classmethod
    def _adopt(cls, handle):
        t = object.__new__(cls)
        t._ref = [handle]
        return t

    def _handle(self, what="the tensor"):
        """This tensor's st_tensor; InvalidHandleError naming it `what` once released."""
        try:
            return self._ref[0]
        except IndexError:
            raise _errors.released(what) from None

    @property
    def _h(self):
        return self._handle()

    # ---- life -------------------------------------------------------------

    @property
    def handle(self) -> int:
        """The st_tensor id (0 once released)."""
        try:
            return self._ref[0].id
        except IndexError:
            return 0

    @entry
    def release(self) -> None:
        """Drops this object's reference now; later calls raise InvalidHandleError.

        Views, NumPy arrays and DLPack capsules made from this tensor hold
        references of their own: their memory stays until they are gone.
        A second release() is a no-op.
        """
        try:
            h = self._ref.pop()
        except IndexError:
            return
        lib.check(lib.st_tensor_release(h))

    def __del__(self):
        if sys.is_finalizing():
            return  # the library may already be gone
        ref = getattr(self, "_ref", None)
        if ref:
            lib.st_tensor_release(ref.pop())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    # ---- copying and pickling (as NumPy arrays do) --------------------------

    @entry("copy.copy(Tensor)")
    def __copy__(self) -> Tensor:
        """``copy.copy``: a new tensor over the same memory (a view with this one's sizes, strides and offset)."""
        return self.as_strided(self.shape, self.strides, self.storage_offset)

    @entry("copy.deepcopy(Tensor)")
    def __deepcopy__(self, memo: dict) -> Tensor:
        """``copy.deepcopy``: a new tensor with its own copy of the data, on the same device."""
        return self.clone()

    @entry("pickle of a Tensor")
    def __reduce__(self):
        """Pickles the dtype, shape, device and the elements as contiguous bytes (never the handle)."""
        host = self.to(device=CPU, memory_format=MemoryFormat.CONTIGUOUS)
        data = ctypes.string_at(host.data_ptr, host.nbytes) if host.nbytes else b""
        return _unpickle, (str(self.dtype), self.shape, str(self.device), data)

    def _new(self, fn, *args):
        out = st_tensor()
        lib.call(fn, self._h, *args, ctypes.byref(out))
        return Tensor._adopt(out)

    # ---- metadata ---------------------------------------------------------

    @property
    @entry
    def ndim(self) -> int:
        """The number of dims (0 for a scalar)."""
        out = ctypes.c_int32()
        lib.call("st_tensor_ndim", self._h, ctypes.byref(out))
        return out.value

    def _dims(self, fn):
        n = self.ndim
        buf = (ctypes.c_int64 * max(n, 1))()
        lib.call(fn, self._h, buf, n)
        return tuple(buf[:n])

    @property
    @entry
    def shape(self) -> Tuple[int, ...]:
        """The sizes of the dims."""
        return self._dims("st_tensor_sizes")

    @entry
    def size(self, dim: Optional[int] = None) -> Union[int, Tuple[int, ...]]:
        """The shape, or the size of one dim (negative counts from the end)."""
        return self.shape if dim is None else self._at(self.shape, dim, "size")

    @property
    @entry
    def strides(self) -> Tuple[int, ...]:
        """Strides in elements (NumPy's are in bytes); any sign."""
        return self._dims("st_tensor_strides")

    @entry
    def stride(self, dim: Optional[int] = None) -> Union[int, Tuple[int, ...]]:
        """The strides in elements, or the stride of one dim (negative counts from the end)."""
        return self.strides if dim is None else self._at(self.strides, dim, "stride")

    @staticmethod
    def _at(values, dim, fn):
        d = _dim(dim, f"{fn}: dim")
        if not -len(values) <= d < len(values):
            raise IndexError(f"{fn}: dim {d} is out of range for a tensor of {_count(len(values), 'dim')}")
        return values[d]

    @property
    @entry
    def dtype(self) -> DType:
        """The element type."""
        out = ctypes.c_int32()
        lib.call("st_tensor_dtype", self._h, ctypes.byref(out))
        return DType(out.value)

    @property
    @entry
    def itemsize(self) -> int:
        """Bytes per element."""
        return self.dtype.itemsize

    @property
    @entry
    def nbytes(self) -> int:
        """Bytes the elements take: numel() × itemsize (not counting gaps between strided elements)."""
        return self.numel() * self.itemsize

    @property
    @entry
    def device(self) -> Device:
        """Where the elements live: stride.cpu, cuda:N or cuda_host."""
        out = st_device()
        lib.call("st_tensor_device", self._h, ctypes.byref(out))
        return Device(DeviceType(out.type), out.index)

    @entry
    def numel(self) -> int:
        """The number of elements (the product of the shape)."""
        out = ctypes.c_int64()
        lib.call("st_tensor_numel", self._h, ctypes.byref(out))
        return out.value

    @property
    @entry
    def storage_offset(self) -> int:
        """Elements from the start of the storage to element (0, …, 0)."""
        out = ctypes.c_int64()
        lib.call("st_tensor_storage_offset", self._h, ctypes.byref(out))
        return out.value

    @property
    @entry
    def data_ptr(self) -> int:
        """Address of element (0, …, 0); 0 for some empty tensors."""
        out = ctypes.c_void_p()
        lib.call("st_tensor_data_ptr", self._h, ctypes.byref(out))
        return out.value or 0

    @entry
    def is_contiguous(self, memory_format: MemoryFormat = MemoryFormat.CONTIGUOUS) -> bool:
        """Whether the elements are dense and laid out in that format's order (row-major by default)."""
        out = ctypes.c_int32()
        lib.call("st_tensor_is_contiguous", self._h, int(_memory_format(memory_format)), ctypes.byref(out))
        return bool(out.value)

    @property
    @entry
    def is_read_only(self) -> bool:
        """True for tensors imported read-only (DLPack flag, read-only NumPy arrays)."""
        return _dlpack.is_read_only(self._h)

    @entry("len(Tensor)")
    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    # ---- values -----------------------------------------------------------

    def _values(self):
        """(the values as Python numbers in row-major order, the shape)."""
        shape = self.shape
        dt = self.dtype
        carrier, ctype = _CARRIER[dt.kind]
        out = empty(*shape, dtype=carrier)
        out.copy_(self)
        count = out.numel() * (2 if dt.kind == "c" else 1)
        raw = list((ctype * count).from_address(out.data_ptr)) if count else []
        if dt.kind == "c":
            raw = [complex(raw[i], raw[i + 1]) for i in range(0, count, 2)]
        return raw, shape

    @entry
    def tolist(self) -> Any:
        """The values as nested lists of Python numbers (a number for a 0-d tensor)."""
        values, shape = self._values()
        return values[0] if not shape else _nest(values, shape)

    @entry
    def item(self) -> Number:
        """The one element as a Python number; ValueError unless the tensor has exactly one."""
        n = self.numel()
        if n != 1:
            raise ValueError(f"item() needs a tensor of one element, not {n}")
        return self._values()[0][0]

    def _scalar(self, convert, what):
        n = self.numel()
        if n != 1:
            raise TypeError(f"only a tensor of one element converts to {what}, not one of {n}")
        return convert(self._values()[0][0])

    @entry("float(Tensor)")
    def __float__(self):
        if self.dtype.kind == "c":
            raise TypeError("cannot convert a complex tensor to float")
        return self._scalar(float, "float")

    @entry("int(Tensor)")
    def __int__(self):
        if self.dtype.kind == "c":
            raise TypeError("cannot convert a complex tensor to int")
        return self._scalar(int, "int")

    @entry("complex(Tensor)")
    def __complex__(self):
        return self._scalar(complex, "complex")

    @entry("operator.index(Tensor)")
    def __index__(self):
        if self.dtype.kind not in "biu":
            raise TypeError(f"only an integer tensor is an index, not a {self.dtype} one")
        return self._scalar(int, "an index")

    @entry("bool(Tensor)")
    def __bool__(self):
        n = self.numel()
        if n != 1:
            raise ValueError(f"the truth value of a tensor of {n} elements is ambiguous")
        return bool(self._values()[0][0])

    def _text(self, linewidth=_LINE_WIDTH):
        """st_tensor_format's text of the values (NumPy's array2string), no line wider than `linewidth`."""
        opts = st_format_options(ctypes.sizeof(st_format_options), 0, 0, 0, linewidth)
        needed = ctypes.c_size_t(256)
        while True:  # the size asked for first, then the size needed (the values may change meanwhile)
            buf = ctypes.create_string_buffer(needed.value)
            status = lib.st_tensor_format(self._h, ctypes.byref(opts), buf, len(buf), ctypes.byref(needed))
            if status != ST_ERROR_OUT_OF_BOUNDS:
                lib.check(status)
                return buf.value.decode()

    def _without_values(self):
        """What repr() and str() show of a dtype whose values have no text (float4_e2m1fn_x2's byte holds two)."""
        return f"stride.Tensor(shape={self.shape}, dtype=stride.{self.dtype})"

    @entry("repr(Tensor)")
    def __repr__(self):
        """NumPy's repr() of the values as stride.tensor(...), the text of str() inside.

        The text comes narrower by the width of "stride.tensor(" and the comma
        after it, and its lines after the first move right under the "[" of
        the first, as NumPy's repr() wraps its array2string.
        """
        if not self.handle:
            return "stride.Tensor(released)"
        prefix = "stride.tensor("
        if self.numel() == 0 and self.shape != (0,):
            body = f"[], shape={self.shape}"
        else:
            try:
                text = self._text(_LINE_WIDTH - len(prefix) - 1)
            except UnsupportedDtypeError:
                return self._without_values()
            lines = text.split("\n")
            body = "\n".join(lines[:1] + [" " * len(prefix) + line if line else line for line in lines[1:]])
        text = prefix + body + ","
        extra = f"dtype=stride.{self.dtype}"
        if self.device != CPU:
            extra += f", device='{self.device}'"
        last = len(text) - (text.rfind("\n") + 1)
        spacer = "\n" + " " * len(prefix) if last + len(extra) + 2 > _LINE_WIDTH else " "
        return text + spacer + extra + ")"

    @entry("str(Tensor)")
    def __str__(self):
        """NumPy's str() of the values (a 0-d float as str() of the number: "2.0" for array2string's "2.")."""
        if not self.handle:
            return "stride.Tensor(released)"
        try:
            text = self._text()
        except UnsupportedDtypeError:
            return self._without_values()
        if not self.shape and text.endswith("."):
            text += "0"
        return text

    # ---- views ------------------------------------------------------------

    @entry
    def as_strided(self, size: Sequence[int], stride: Sequence[int], storage_offset: int = 0) -> Tensor:
        """A view with any sizes, strides (in elements, any sign) and offset inside this tensor's storage."""
        sizes, n = _i64s(size, "as_strided: size")
        strides, m = _i64s(stride, "as_strided: stride")
        if n != m:
            raise ValueError(f"as_strided: {n} sizes but {m} strides")
        return self._new("st_as_strided", sizes, strides, n, _i64(storage_offset, "as_strided: storage_offset"))

    @entry
    def permute(self, *dims: int) -> Tensor:
        """A view with the dims in the given order."""
        dims = _dims(_shape_args(dims), "permute: dims")
        arr = (ctypes.c_int32 * max(len(dims), 1))(*dims)
        return self._new("st_permute", arr, len(dims))

    @entry
    def transpose(self, dim0: int, dim1: int) -> Tensor:
        """A view with two dims swapped."""
        return self._new("st_transpose", _dim(dim0, "transpose: dim0"), _dim(dim1, "transpose: dim1"))

    @property
    @entry
    def T(self) -> Tensor:
        """All dims reversed (NumPy's ``.T``)."""
        return self.permute(*reversed(range(self.ndim)))

    @entry
    def slice(self, dim: int, start: Optional[int] = None, stop: Optional[int] = None, step: int = 1) -> Tensor:
        """Elements start, start+step, … below stop along `dim`, Python's rules (step >= 1)."""
        start = 0 if start is None else _i64(start, "slice: start", clamp=True)
        stop = sys.maxsize if stop is None else _i64(stop, "slice: stop", clamp=True)
        return self._new("st_slice", _dim(dim, "slice: dim"), start, stop, _i64(step, "slice: step", clamp=True))

    @entry
    def select(self, dim: int, index: int) -> Tensor:
        """A view of one index along `dim`, that dim removed."""
        return self._new("st_select", _dim(dim, "select: dim"), _i64(index, "select: index", clamp=True))

    @entry
    def expand(self, *sizes: int) -> Tensor:
        """A broadcast view: dims of size 1 repeated to `sizes` with stride 0 (-1 keeps a size)."""
        arr, n = _i64s(_shape_args(sizes), "expand: sizes")
        return self._new("st_expand", arr, n)

    @entry
    def unsqueeze(self, dim: int) -> Tensor:
        """A view with a dim of size 1 inserted at `dim`."""
        return self._new("st_unsqueeze", _dim(dim, "unsqueeze: dim"))

    @entry
    def squeeze(self, dim: Union[None, int, Sequence[int]] = None) -> Tensor:
        """Without `dim`, drops every dim of size 1; with a dim (or a tuple of dims), those of them of size 1."""
        if dim is None:
            dims = [d for d, n in enumerate(self.shape) if n == 1]
        elif isinstance(dim, (tuple, list)):
            dims = self._distinct_dims(dim, "squeeze")
        else:
            return self._new("st_squeeze", _dim(dim, "squeeze: dim"))
        t = self._retained()
        for d in sorted(dims, reverse=True):  # the later dims first: the earlier keep their numbers
            t = t._new("st_squeeze", d)
        return t

    def _distinct_dims(self, dims, fn):
        """`dims` as non-negative dim numbers; the library judges the range, duplicates are refused here."""
        ndim = self.ndim
        seen = []
        for d in _dims(dims, f"{fn}: dims"):
            if -ndim <= d < ndim:
                d %= ndim
                if d in seen:
                    raise ValueError(f"{fn}: dim {d} appears more than once in {tuple(dims)}")
            else:
                self._new(f"st_{fn}", d)  # raises the library's error for a dim out of range
            seen.append(d)
        return seen

    @entry
    def flip(self, *dims: int) -> Tensor:
        """Reverses the order along each given dim (a view with negative strides); no dims: along every dim."""
        dims = _shape_args(dims) if dims else tuple(range(self.ndim))
        if len(dims) == 1 and not isinstance(dims[0], (tuple, list)):
            return self._new("st_flip", _dim(dims[0], "flip: dim"))
        t = self._retained()
        for d in self._distinct_dims(dims, "flip"):
            t = t._new("st_flip", d)
        return t

    @entry
    def view(self, *sizes: int) -> Tensor:
        """A view with another shape over the same elements; fails where the strides do not allow one."""
        arr, n = _i64s(_shape_args(sizes), "view: sizes")
        return self._new("st_view", arr, n)

    @entry
    def reshape(self, *sizes: int) -> Tensor:
        """A tensor of another shape with the same elements: a view when the strides allow, else a copy."""
        arr, n = _i64s(_shape_args(sizes), "reshape: sizes")
        return self._new("st_reshape", arr, n)

    def _slice_dim(self, dim, s):
        size = self.shape[dim]
        for part in (s.start, s.stop, s.step):
            if part is not None and not hasattr(part, "__index__"):
                raise TypeError(f"slice indices must be integers or None, not {type(part).__name__}")
        start, stop, step = s.indices(size)
        if step > 0:
            return self.slice(dim, start, stop, step)
        # A negative step: the same elements of the flipped dim, where index
        # i of the original is size - 1 - i.
        count = len(range(start, stop, step))
        flipped = self.flip(dim)
        first = size - 1 - start
        return flipped.slice(dim, first, first + count * -step if count else first, -step)

    @entry("Tensor indexing")
    def __getitem__(self, key: Any) -> Tensor:
        """NumPy-style basic indexing: ints, slices (any step), ``...`` and ``None``."""
        if not isinstance(key, tuple):
            key = (key,)
        consuming = sum(1 for k in key if k is not None and k is not Ellipsis)
        ellipses = [i for i, k in enumerate(key) if k is Ellipsis]
        if len(ellipses) > 1:
            raise IndexError("an index can only have a single ellipsis")
        if consuming > self.ndim:
            raise IndexError(f"too many indices: {consuming} for a tensor of {_count(self.ndim, 'dim')}")
        if ellipses:
            i = ellipses[0]
            key = key[:i] + (slice(None),) * (self.ndim - consuming) + key[i + 1:]
        t, dim = self, 0
        for k in key:
            if k is None:
                t = t.unsqueeze(dim)
                dim += 1
            elif isinstance(k, slice):
                t = t._slice_dim(dim, k)
                dim += 1
            elif isinstance(k, bool):
                raise TypeError("boolean indices are not supported")
            elif hasattr(k, "__index__"):
                t = t.select(dim, operator.index(k))
            else:
                raise TypeError(f"cannot index a tensor with {type(k).__name__}")
        return t if t is not self else self._retained()

    def _retained(self):
        """Another Tensor object holding its own reference to the same handle."""
        h = self._h
        lib.call("st_tensor_retain", h)
        return Tensor._adopt(st_tensor(h.id))

    @entry("Tensor item assignment")
    def __setitem__(self, key, value):
        target = self[key]
        if isinstance(value, (bool, int, float)):
            target.fill_(value)
        else:
            target.copy_(value)

    # ---- operators --------------------------------------------------------

    @entry
    def contiguous(self, memory_format: MemoryFormat = MemoryFormat.CONTIGUOUS) -> Tensor:
        """Self (a new reference) when already laid out so, else a copy."""
        return self._new("st_contiguous", int(_memory_format(memory_format)))

    @entry
    def clone(self, memory_format: MemoryFormat = MemoryFormat.PRESERVE) -> Tensor:
        """A copy in new memory, laid out as `memory_format` (PRESERVE: this tensor's stride order)."""
        return self._new("st_clone", int(_memory_format(memory_format)))

    @entry
    def copy_(self, src: Any, non_blocking: bool = False) -> Tensor:
        """Writes `src` (broadcast to this shape, any dtype) into this tensor; returns self."""
        src = as_tensor(src)
        lib.call("st_copy", self._h, src._handle("src"), 1 if non_blocking else 0)
        return self

    @entry
    def copy_scaled_(self, src: Any, *, scale: Any = None, shift: Any = None, dim: int = 0, saturate: bool = False,
                     non_blocking: bool = False) -> Tensor:
        """Writes R(fma(src, scale[c], shift[c])) into this tensor (the destination, as in ``copy_``); returns self.

        ``src`` is anything ``copy_`` takes (a tensor, an array, numbers) and
        broadcasts to this shape; the other arguments are keyword-only.
        ``c`` is the element's index along ``dim`` of this tensor when
        ``scale`` or ``shift`` hold more than one value (then as many as
        ``self.shape[dim]``); one value applies to every element, and None
        means scales of 1 or shifts of 0. Values are numbers, sequences or
        NumPy arrays. Integer destinations round half to even and clamp
        (NaN gives 0); ``saturate`` clamps a floating destination's overflow
        to its largest finite value. ToTensor + Normalize of a uint8 NHWC
        batch into float32 NCHW: ``out.copy_scaled_(batch.permute(0, 3, 1,
        2), scale=1 / (255 * std), shift=-mean / std, dim=1)``.
        """
        src = as_tensor(src)
        src_h = src._handle("src")
        ss, values = scale_shift(self.shape, self.dtype, src.dtype, scale, shift, dim, saturate)
        lib.call("st_copy_scaled", self._h, src_h, ctypes.byref(ss), 1 if non_blocking else 0)
        return self

    @entry
    def to(self, dtype: Optional[DTypeLike] = None, device: Optional[DeviceLike] = None,
           memory_format: MemoryFormat = MemoryFormat.PRESERVE) -> Tensor:
        """This tensor in another dtype and/or on another device; self (a new reference) when nothing changes.

        ``dtype`` is anything dtype-like (``stride.float16``, ``"float16"``,
        ``np.float16``, ``torch.float16``); a device given first is taken as
        the device (``t.to("cuda:0")``).
        """
        if dtype is not None and device is None and is_device_like(dtype):
            dtype, device = None, dtype
        dt = self.dtype if dtype is None else _dtype(dtype)
        dev = self.device if device is None else _device(device)
        return self._new("st_to", int(dt), st_device(int(dev.type), dev.index), int(_memory_format(memory_format)))

    @entry
    def fill_(self, value: Union[bool, int, float]) -> Tensor:
        """Writes `value`, converted to the dtype, into every element; returns self."""
        if isinstance(value, complex):
            raise TypeError("fill_ takes a real number")
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise TypeError(f"fill_ takes a number, not {type(value).__name__}") from None
        lib.call("st_fill", self._h, value)
        return self

    @entry
    def zero_(self) -> Tensor:
        """Writes zeros into every element; returns self."""
        lib.call("st_zero", self._h)
        return self

    # ---- NumPy ------------------------------------------------------------

    @property
    @entry("numpy.asarray(Tensor)")
    def __array_interface__(self):
        """NumPy's view of the same memory (host tensors only, not bfloat16).

        NumPy has no float8 type: a float8_e4m3fn or float8_e5m2 tensor shows
        as a uint8 array of its bytes. Read them as float8 with
        ``arr.view(ml_dtypes.float8_e4m3fn)`` (the ml_dtypes package) or
        ``torch.from_numpy(arr).view(torch.float8_e4m3fn)``; the way back is
        ``stride.from_numpy(arr, dtype=stride.float8_e4m3fn)``.
        """
        dev = self.device
        if dev.type == DeviceType.CUDA:
            raise TypeError(f"a tensor on {dev} is not in host memory: copy it with .to('cpu') first")
        dt = self.dtype
        code = typestr(dt)
        shape, strides = self.shape, self.strides
        data, offset = _exported_memory(self, shape, strides, dt.itemsize)
        return {
            "version": 3,
            "shape": shape,
            "typestr": code,
            "data": data,
            "offset": offset,
            "strides": tuple(s * dt.itemsize for s in strides),
        }

    @entry
    def numpy(self) -> Any:
        """A NumPy array sharing this tensor's memory; float8 shows as uint8.

        The array holds a reference of its own to the memory: it stays
        valid after this tensor's release() (docs/bindings.md, "Python").
        """
        import numpy

        return numpy.asarray(self)

    # ---- DLPack -----------------------------------------------------------

    @entry
    def __dlpack_device__(self):
        dev = self.device
        return (int(dev.type), dev.index)

    @entry
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule for this tensor (the Python array API protocol).

        A versioned (DLPack 1.0) capsule when `max_version` allows it, else a
        classic one. Nothing is copied unless it must be or `copy=True` asks:
        a capsule never carries negative strides (most consumers cannot hold
        them), so a tensor with any is exported as a contiguous copy, and
        with `copy=False` refused with BufferError; so is a `dl_device` other
        than the tensor's. A copy's versioned capsule has the IS_COPIED flag.
        """
        dev = self.device
        source = self
        if dl_device is not None:
            target = _device(tuple(int(x) for x in dl_device))
            if target != dev:
                if copy is False:
                    raise BufferError(f"cannot export a tensor on {dev} to {target} without a copy (copy=False)")
                try:
                    source, dev = self.to(device=target, memory_format=MemoryFormat.CONTIGUOUS), target
                except StrideError as e:
                    raise BufferError(f"cannot copy a tensor on {dev} to {target}: {e.message}") from e
        if dev.type != DeviceType.CUDA:
            if stream is not None and stream != -1:
                raise ValueError(f"stream must be None for a tensor on {dev}")
        elif stream is not None and stream != -1:
            # The consumer will use the data on its stream: finish our work first.
            lib.call("st_cuda_synchronize", dev.index)
        versioned = max_version is not None and max_version[0] >= 1
        negative = any(s < 0 for s in source.strides)
        if negative and copy is False:
            raise BufferError(f"a tensor with negative strides {self.strides} cannot be exported without a copy "
                              f"(copy=False): DLPack consumers do not take negative strides")
        if source is self and (copy or negative):
            # clone never makes negative strides; PRESERVE keeps a dense source's layout as it is.
            source = self.clone(MemoryFormat.CONTIGUOUS if negative else MemoryFormat.PRESERVE)
        return _dlpack.export_capsule(source._h, versioned, copied=source is not self)


def _exported_memory(t, shape, strides, itemsize):
    """(a buffer over the bytes of `t`'s elements, the byte offset of element (0, ..., 0) in it).

    The array NumPy makes over the buffer takes the buffer as its base, and
    the buffer holds a reference of its own to `t`'s handle: the memory
    stays while the array does, whatever becomes of `t` (NumPy's rule that
    an array keeps its base's memory). It is read-only for a read-only `t`.
    """
    if any(n == 0 for n in shape):
        # NumPy wants an address even for no elements; one that is never read.
        span = (ctypes.c_char * 0).from_address(ctypes.addressof(_NO_ELEMENTS))
        return memoryview(span), 0
    # The elements span from the lowest to the highest address (any stride sign).
    low = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    high = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    span = (ctypes.c_char * ((high - low + 1) * itemsize)).from_address(t.data_ptr + low * itemsize)
    span.owner = t._retained()
    data = memoryview(span)
    return (data.toreadonly() if t.is_read_only else data), -low * itemsize


def _unpickle(dtype, shape, device, data):
    """A tensor rebuilt from Tensor.__reduce__'s parts."""
    host = empty(*shape, dtype=dtype)
    if len(data) != host.nbytes:
        raise ValueError(f"cannot unpickle a {dtype} tensor of shape {shape} from {len(data)} bytes")
    if data:
        ctypes.memmove(host.data_ptr, data, len(data))
    return host if _device(device) == CPU else host.to(device=device)


def _count(n, noun):
    """'1 dim', '2 dims': the library's wording of counts."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _nest(values, shape):
    """Row-major `values` as nested lists of `shape`."""
    if len(shape) == 1:
        return list(values)
    n = len(values) // shape[0] if shape[0] else 0
    return [_nest(values[i * n:(i + 1) * n], shape[1:]) for i in range(shape[0])]


# ---- making tensors ----------------------------------------------------------


def _device_arg(device):
    d = _device(device)
    return st_device(int(d.type), d.index)


@entry
def empty(*shape: int, dtype: DTypeLike = DType.FLOAT32, device: DeviceLike = CPU) -> Tensor:
    """An uninitialized row-major tensor; `dtype` is anything dtype-like."""
    sizes, n = _i64s(_shape_args(shape), "empty: shape")
    out = st_tensor()
    lib.call("st_tensor_create", sizes, n, int(_dtype(dtype)), _device_arg(device), ctypes.byref(out))
    return Tensor._adopt(out)


@entry
def empty_strided(shape: Sequence[int], strides: Sequence[int], dtype: DTypeLike = DType.FLOAT32,
                  device: DeviceLike = CPU) -> Tensor:
    """An uninitialized tensor with the given strides (in elements, >= 0)."""
    sizes, n = _i64s(shape, "empty_strided: shape")
    st, m = _i64s(strides, "empty_strided: strides")
    if n != m:
        raise ValueError(f"empty_strided: {n} sizes but {m} strides")
    out = st_tensor()
    lib.call("st_tensor_create_strided", sizes, st, n, int(_dtype(dtype)), _device_arg(device), ctypes.byref(out))
    return Tensor._adopt(out)


@entry
def empty_like(t: Tensor, memory_format: MemoryFormat = MemoryFormat.PRESERVE) -> Tensor:
    """An uninitialized tensor of `t`'s shape, dtype and device, laid out as `memory_format`."""
    if not isinstance(t, Tensor):
        raise TypeError(f"empty_like takes a stride.Tensor, not {type(t).__name__}")
    return t._new("st_tensor_create_like", int(_memory_format(memory_format)))


@entry
def zeros(*shape: int, dtype: DTypeLike = DType.FLOAT32, device: DeviceLike = CPU) -> Tensor:
    """A row-major tensor of zeros."""
    return empty(*shape, dtype=dtype, device=device).zero_()


@entry
def full(shape: Union[int, Sequence[int]], value: Union[bool, int, float], dtype: DTypeLike = DType.FLOAT32,
         device: DeviceLike = CPU) -> Tensor:
    """A row-major tensor with every element `value` (converted to `dtype`)."""
    return empty(*_shape_args((shape,)), dtype=dtype, device=device).fill_(value)


def _nested(data):
    """(shape, flat values) of nested lists or tuples of numbers."""
    if isinstance(data, (list, tuple)):
        if not data:
            return (0,), []
        parts = [_nested(x) for x in data]
        shape = parts[0][0]
        if any(p[0] != shape for p in parts):
            raise ValueError("tensor: nested sequences of different lengths")
        return (len(data),) + shape, [v for p in parts for v in p[1]]
    if isinstance(data, Tensor) or not isinstance(data, (bool, int, float, complex)) and not hasattr(data, "__index__") \
            and not hasattr(data, "__float__"):
        raise TypeError(f"tensor: cannot hold {type(data).__name__}")
    return (), [data]


@entry
def tensor(data: Any, dtype: Optional[DTypeLike] = None, device: DeviceLike = CPU) -> Tensor:
    """A new tensor holding a copy of `data`: nested lists of numbers, a number, a NumPy array or a DLPack producer.

    Without `dtype`, as PyTorch infers it: bool, int64, float32 or complex64
    for Python numbers (uint64 for integers when one is 2**63 or more and
    none is negative), the source's dtype for arrays and tensors.
    """
    if isinstance(data, Tensor) or hasattr(data, "__array_interface__") or hasattr(data, "__dlpack__"):
        src = as_tensor(data)
        dt = src.dtype if dtype is None else _dtype(dtype)
        out = empty(*src.shape, dtype=dt, device=device)
        return out.copy_(src)
    shape, values = _nested(data)
    kinds = {"c" if isinstance(v, complex) else "b" if isinstance(v, bool) else "i" if hasattr(v, "__index__")
             else "f" for v in values}
    kind = "c" if "c" in kinds else "f" if "f" in kinds or not kinds else "i" if "i" in kinds else "b"
    if kind == "i":
        flat = [operator.index(v) for v in values]
        # Integers are int64, or uint64 when one needs it (2**63 up) and none is negative: held exactly.
        if flat and max(flat) >= 2 ** 63 and min(flat) >= 0:
            kind = "u"
        low, high = (0, 2 ** 64) if kind == "u" else (-2 ** 63, 2 ** 63)
        for v in flat:
            if not low <= v < high:
                raise OverflowError(f"tensor: {v} does not fit in {'uint64' if kind == 'u' else 'int64'}")
    elif kind == "c":
        flat = [x for v in values for x in (complex(v).real, complex(v).imag)]
    else:
        flat = [float(v) for v in values]
    dt = {"b": DType.BOOL, "i": DType.INT64, "u": DType.UINT64, "f": DType.FLOAT32, "c": DType.COMPLEX64}[kind] \
        if dtype is None else _dtype(dtype)
    carrier, ctype = _CARRIER[kind]
    stage = empty(*shape, dtype=carrier)
    n = len(values)
    if n:
        (ctype * len(flat)).from_address(stage.data_ptr)[:] = flat
    out = empty(*shape, dtype=dt, device=device)
    return out.copy_(stage)


@entry
def from_dlpack(obj: Any) -> Tensor:
    """A Tensor sharing the memory of any object with ``__dlpack__`` (or a DLPack capsule)."""
    if _dlpack.is_capsule(obj):
        capsule = obj
    elif hasattr(obj, "__dlpack__"):
        if hasattr(obj, "__dlpack_device__"):
            dev_type = int(obj.__dlpack_device__()[0])
            if dev_type not in (int(DeviceType.CPU), int(DeviceType.CUDA), int(DeviceType.CUDA_HOST)):
                raise BufferError(f"DLPack device type {dev_type} is not one stride handles")
        try:
            capsule = obj.__dlpack__(max_version=(1, 0))
        except TypeError:  # a producer older than DLPack 1.0
            capsule = obj.__dlpack__()
    else:
        raise TypeError(f"{type(obj).__name__} has no __dlpack__")
    return Tensor._adopt(_dlpack.import_capsule(capsule))


@entry
def as_tensor(obj: Any) -> Tensor:
    """`obj` if it is a Tensor, else a zero-copy Tensor over a NumPy array or a DLPack producer.

    Nested lists and numbers become a new tensor (see ``tensor``).
    """
    if isinstance(obj, Tensor):
        return obj
    if hasattr(obj, "__dlpack__") and not _is_numpy(obj):
        return from_dlpack(obj)
    if hasattr(obj, "__array_interface__"):
        from ._numpy import from_numpy

        import numpy

        return from_numpy(numpy.asarray(obj))
    return tensor(obj)


def _is_numpy(obj):
    return type(obj).__module__ == "numpy"


@entry
def live_tensor_count() -> int:
    """Handles issued and not yet released in the whole process (0 once everything is released)."""
    out = ctypes.c_int64()
    lib.call("st_live_tensor_count", ctypes.byref(out))
    return out.value
