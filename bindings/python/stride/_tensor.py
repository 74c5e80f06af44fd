"""The Tensor class: one reference to a libstride tensor handle."""

import ctypes
import operator
import sys

from . import _dlpack
from ._lib import lib, st_device, st_tensor
from ._types import CPU, Device, DeviceType, DType, MemoryFormat, device as _device, typestr


_NO_ELEMENTS = (ctypes.c_longdouble * 1)()


def _i64s(values):
    values = [operator.index(v) for v in values]
    return (ctypes.c_int64 * len(values))(*values), len(values)


def _shape_args(shape):
    """Sizes given as one sequence or as separate ints, as NumPy and PyTorch take them."""
    if len(shape) == 1 and not isinstance(shape[0], int) and hasattr(shape[0], "__len__"):
        return tuple(shape[0])
    return shape


class Tensor:
    """A strided tensor living in libstride.

    A Tensor owns one reference to its handle: ``release()`` (or leaving a
    ``with`` block, or garbage collection) drops it. Views share memory with
    their source and keep it alive on their own. Metadata never changes.
    """

    __slots__ = ("_h", "__weakref__")

    def __init__(self):
        raise TypeError("make tensors with stride.empty, stride.from_numpy or stride.from_dlpack")

    @classmethod
    def _adopt(cls, handle):
        t = object.__new__(cls)
        t._h = handle
        return t

    # ---- life -------------------------------------------------------------

    @property
    def handle(self):
        """The st_tensor id (0 once released)."""
        return self._h.id

    def release(self):
        """Drops this object's reference now; later calls raise InvalidHandleError."""
        h = self._h
        if h.id:
            self._h = st_tensor(0)
            lib.check(lib.st_tensor_release(h))

    def __del__(self):
        if sys.is_finalizing():
            return  # the library may already be gone
        h = getattr(self, "_h", None)
        if h is not None and h.id:
            self._h = st_tensor(0)
            lib.st_tensor_release(h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def _new(self, fn, *args):
        out = st_tensor()
        lib.call(fn, self._h, *args, ctypes.byref(out))
        return Tensor._adopt(out)

    # ---- metadata ---------------------------------------------------------

    @property
    def ndim(self):
        out = ctypes.c_int32()
        lib.call("st_tensor_ndim", self._h, ctypes.byref(out))
        return out.value

    def _dims(self, fn):
        buf = (ctypes.c_int64 * 25)()
        lib.call(fn, self._h, buf, 25)
        return tuple(buf[: self.ndim])

    @property
    def shape(self):
        return self._dims("st_tensor_sizes")

    def size(self, dim=None):
        return self.shape if dim is None else self.shape[dim]

    @property
    def strides(self):
        """Strides in elements (NumPy's are in bytes); any sign."""
        return self._dims("st_tensor_strides")

    def stride(self, dim=None):
        return self.strides if dim is None else self.strides[dim]

    @property
    def dtype(self):
        out = ctypes.c_int32()
        lib.call("st_tensor_dtype", self._h, ctypes.byref(out))
        return DType(out.value)

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def device(self):
        out = st_device()
        lib.call("st_tensor_device", self._h, ctypes.byref(out))
        return Device(DeviceType(out.type), out.index)

    def numel(self):
        out = ctypes.c_int64()
        lib.call("st_tensor_numel", self._h, ctypes.byref(out))
        return out.value

    @property
    def storage_offset(self):
        out = ctypes.c_int64()
        lib.call("st_tensor_storage_offset", self._h, ctypes.byref(out))
        return out.value

    @property
    def data_ptr(self):
        """Address of element (0, …, 0); 0 for some empty tensors."""
        out = ctypes.c_void_p()
        lib.call("st_tensor_data_ptr", self._h, ctypes.byref(out))
        return out.value or 0

    def is_contiguous(self, memory_format=MemoryFormat.CONTIGUOUS):
        out = ctypes.c_int32()
        lib.call("st_tensor_is_contiguous", self._h, int(memory_format), ctypes.byref(out))
        return bool(out.value)

    @property
    def is_read_only(self):
        """True for tensors imported read-only (DLPack flag, read-only NumPy arrays)."""
        return _dlpack.is_read_only(self._h)

    def __len__(self):
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d tensor")
        return shape[0]

    def __repr__(self):
        if not self._h.id:
            return "stride.Tensor(released)"
        return (f"stride.Tensor(shape={self.shape}, strides={self.strides}, dtype={self.dtype}, "
                f"device={self.device})")

    # ---- views ------------------------------------------------------------

    def as_strided(self, size, stride, storage_offset=0):
        sizes, n = _i64s(size)
        strides, m = _i64s(stride)
        if n != m:
            raise ValueError(f"{n} sizes but {m} strides")
        return self._new("st_as_strided", sizes, strides, n, storage_offset)

    def permute(self, *dims):
        dims = _shape_args(dims)
        arr = (ctypes.c_int32 * len(dims))(*dims)
        return self._new("st_permute", arr, len(dims))

    def transpose(self, dim0, dim1):
        return self._new("st_transpose", dim0, dim1)

    @property
    def T(self):
        """All dims reversed (NumPy's ``.T``)."""
        return self.permute(*reversed(range(self.ndim)))

    def slice(self, dim, start=None, stop=None, step=1):
        """Elements start, start+step, … below stop along `dim`, Python's rules (step >= 1)."""
        start = 0 if start is None else start
        stop = sys.maxsize if stop is None else stop
        return self._new("st_slice", dim, start, stop, step)

    def select(self, dim, index):
        return self._new("st_select", dim, index)

    def expand(self, *sizes):
        arr, n = _i64s(_shape_args(sizes))
        return self._new("st_expand", arr, n)

    def unsqueeze(self, dim):
        return self._new("st_unsqueeze", dim)

    def squeeze(self, dim):
        return self._new("st_squeeze", dim)

    def flip(self, dim):
        return self._new("st_flip", dim)

    def view(self, *sizes):
        arr, n = _i64s(_shape_args(sizes))
        return self._new("st_view", arr, n)

    def reshape(self, *sizes):
        arr, n = _i64s(_shape_args(sizes))
        return self._new("st_reshape", arr, n)

    def _slice_dim(self, dim, s):
        size = self.shape[dim]
        start, stop, step = s.indices(size)
        if step > 0:
            return self.slice(dim, start, stop, step)
        # A negative step: the same elements of the flipped dim, where index
        # i of the original is size - 1 - i.
        count = len(range(start, stop, step))
        flipped = self.flip(dim)
        first = size - 1 - start
        return flipped.slice(dim, first, first + count * -step if count else first, -step)

    def __getitem__(self, key):
        """NumPy-style basic indexing: ints, slices (any step), ``...`` and ``None``."""
        if not isinstance(key, tuple):
            key = (key,)
        consuming = sum(1 for k in key if k is not None and k is not Ellipsis)
        ellipses = [i for i, k in enumerate(key) if k is Ellipsis]
        if len(ellipses) > 1:
            raise IndexError("an index can only have a single ellipsis")
        if consuming > self.ndim:
            raise IndexError(f"too many indices: {consuming} for a tensor of {self.ndim} dims")
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
            elif hasattr(k, "__index__"):
                t = t.select(dim, operator.index(k))
            else:
                raise TypeError(f"cannot index a tensor with {type(k).__name__}")
        return t if t is not self else self._retained()

    def _retained(self):
        """Another Tensor object holding its own reference to the same handle."""
        lib.call("st_tensor_retain", self._h)
        return Tensor._adopt(st_tensor(self._h.id))

    def __setitem__(self, key, value):
        target = self[key]
        if isinstance(value, (bool, int, float)):
            target.fill_(value)
        else:
            target.copy_(value)

    # ---- operators --------------------------------------------------------

    def contiguous(self, memory_format=MemoryFormat.CONTIGUOUS):
        """Self (a new reference) when already laid out so, else a copy."""
        return self._new("st_contiguous", int(memory_format))

    def clone(self, memory_format=MemoryFormat.PRESERVE):
        return self._new("st_clone", int(memory_format))

    def copy_(self, src, non_blocking=False):
        """Writes `src` (broadcast to this shape, any dtype) into this tensor; returns self."""
        src = as_tensor(src)
        lib.call("st_copy", self._h, src._h, 1 if non_blocking else 0)
        return self

    def to(self, dtype=None, device=None, memory_format=MemoryFormat.PRESERVE):
        dt = self.dtype if dtype is None else DType(dtype)
        dev = self.device if device is None else _device(device)
        return self._new("st_to", int(dt), st_device(int(dev.type), dev.index), int(memory_format))

    def fill_(self, value):
        lib.call("st_fill", self._h, float(value))
        return self

    def zero_(self):
        lib.call("st_zero", self._h)
        return self

    # ---- NumPy ------------------------------------------------------------

    @property
    def __array_interface__(self):
        """NumPy's view of the same memory (host tensors only, not bfloat16)."""
        dev = self.device
        if dev.type == DeviceType.CUDA:
            raise TypeError(f"a tensor on {dev} is not in host memory")
        item = self.itemsize
        return {
            "version": 3,
            "shape": self.shape,
            "typestr": typestr(self.dtype),
            # NumPy wants an address even for no elements; one that is never read.
            "data": (self.data_ptr or ctypes.addressof(_NO_ELEMENTS), self.is_read_only),
            "strides": tuple(s * item for s in self.strides),
        }

    def numpy(self):
        """A NumPy array sharing this tensor's memory (it keeps the tensor alive)."""
        import numpy

        return numpy.asarray(self)

    # ---- DLPack -----------------------------------------------------------

    def __dlpack_device__(self):
        dev = self.device
        return (int(dev.type), dev.index)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule over this tensor's memory (Python array API protocol).

        A versioned (DLPack 1.0) capsule when `max_version` allows it, else a
        classic one. `copy=True` exports a clone; without it nothing is copied.
        """
        dev = self.device
        if dl_device is not None and tuple(int(x) for x in dl_device) != self.__dlpack_device__():
            raise BufferError(f"cannot export a tensor on {dev} to device {tuple(dl_device)} without a copy")
        if dev.type != DeviceType.CUDA:
            if stream is not None and stream != -1:
                raise ValueError(f"stream must be None for a tensor on {dev}")
        elif stream is not None and stream != -1:
            # The consumer will use the data on its stream: finish our work first.
            lib.call("st_cuda_synchronize", dev.index)
        versioned = max_version is not None and max_version[0] >= 1
        source = self.clone() if copy else self
        return _dlpack.export_capsule(source._h, versioned)


# ---- making tensors ----------------------------------------------------------


def _device_arg(device):
    d = _device(device)
    return st_device(int(d.type), d.index)


def empty(*shape, dtype=DType.FLOAT32, device=CPU):
    """An uninitialized row-major tensor."""
    sizes, n = _i64s(_shape_args(shape))
    out = st_tensor()
    lib.call("st_tensor_create", sizes, n, int(DType(dtype)), _device_arg(device), ctypes.byref(out))
    return Tensor._adopt(out)


def empty_strided(shape, strides, dtype=DType.FLOAT32, device=CPU):
    """An uninitialized tensor with the given strides (in elements, >= 0)."""
    sizes, n = _i64s(shape)
    st, m = _i64s(strides)
    if n != m:
        raise ValueError(f"{n} sizes but {m} strides")
    out = st_tensor()
    lib.call("st_tensor_create_strided", sizes, st, n, int(DType(dtype)), _device_arg(device), ctypes.byref(out))
    return Tensor._adopt(out)


def empty_like(t, memory_format=MemoryFormat.PRESERVE):
    return t._new("st_tensor_create_like", int(memory_format))


def from_dlpack(obj):
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


def as_tensor(obj):
    """`obj` if it is a Tensor, else a zero-copy Tensor over a NumPy array or a DLPack producer."""
    if isinstance(obj, Tensor):
        return obj
    if hasattr(obj, "__dlpack__") and not _is_numpy(obj):
        return from_dlpack(obj)
    from ._numpy import from_numpy

    import numpy

    return from_numpy(numpy.asarray(obj))


def _is_numpy(obj):
    return type(obj).__module__ == "numpy"
