"""stride.copy_scaled: st_copy_scaled, with the scales and shifts given as
numbers, sequences or NumPy arrays."""

import ctypes

from ._capi import st_scale_shift
from ._errors import entry
from ._lib import lib
from ._tensor import Tensor, as_tensor


def _values(v, name):
    """None, or the values of a number, a sequence or an array as a list of floats."""
    if v is None:
        return None
    if hasattr(v, "ravel"):  # a NumPy array (or anything array-like that flattens)
        v = v.ravel().tolist()
    try:
        return [float(x) for x in v]
    except TypeError:
        try:
            return [float(v)]
        except TypeError:
            raise TypeError(f"copy_scaled: {name} must be a number, a sequence or an array of numbers") from None


@entry
def copy_scaled(dst, src, scale=None, shift=None, dim=0, saturate=False, non_blocking=False):
    """Writes R(fma(src, scale[c], shift[c])) into ``dst`` and returns it.

    ``c`` is the element's index along ``dim`` of ``dst`` when ``scale`` or
    ``shift`` hold more than one value (then as many as ``dst.shape[dim]``);
    one value applies to every element, and None means scales of 1 or
    shifts of 0. ``src`` broadcasts to ``dst`` as in ``copy_``. Integer
    destinations round half to even and clamp (NaN gives 0); ``saturate``
    clamps a floating destination's overflow to its largest finite value.
    """
    if not isinstance(dst, Tensor):
        raise TypeError("copy_scaled: dst must be a stride.Tensor (it is written)")
    src = as_tensor(src)
    a, b = _values(scale, "scale"), _values(shift, "shift")
    if a is not None and b is not None and len(a) != len(b) and 1 not in (len(a), len(b)):
        raise ValueError(f"copy_scaled: scale has {len(a)} values and shift {len(b)}")
    n = max(len(a) if a is not None else 1, len(b) if b is not None else 1)
    # One value given against n of the other: repeat it.
    if a is not None and len(a) == 1 and n > 1:
        a = a * n
    if b is not None and len(b) == 1 and n > 1:
        b = b * n
    arrays = [(ctypes.c_double * n)(*v) if v is not None else None for v in (a, b)]
    ss = st_scale_shift(ctypes.cast(arrays[0], ctypes.POINTER(ctypes.c_double)) if arrays[0] is not None else None,
                        ctypes.cast(arrays[1], ctypes.POINTER(ctypes.c_double)) if arrays[1] is not None else None,
                        n, int(dim), 1 if saturate else 0)
    lib.call("st_copy_scaled", dst._h, src._handle("src"), ctypes.byref(ss), 1 if non_blocking else 0)
    return dst
