"""The scale-and-shift argument of a scaled copy (st_scale_shift), from Python numbers, sequences or arrays.

The checks the library makes on st_scale_shift are made here first, in the
names the Python caller used (scale, shift, dim), so that an error never
speaks of the C struct's fields.
"""

import ctypes

from ._args import dim as _dim
from ._capi import st_scale_shift
from ._errors import INVALID_ARGUMENT, UNSUPPORTED_DTYPE, found


def _values(v, name):
    """None, or the values of a number, a sequence or an array as a list of floats."""
    if v is None:
        return None
    if isinstance(v, (str, bytes)):
        raise TypeError(f"{name} must be a number, a sequence or an array of numbers, not {type(v).__name__}")
    if hasattr(v, "ravel"):  # a NumPy array (or anything array-like that flattens)
        v = v.ravel().tolist()
    try:
        return [float(x) for x in v]
    except TypeError:
        try:
            return [float(v)]
        except TypeError:
            raise TypeError(f"{name} must be a number, a sequence or an array of numbers, "
                            f"not {type(v).__name__}") from None


def _count(n):
    return "1 value" if n == 1 else f"{n} values"


def scale_shift(dst_shape, dst_dtype, src_dtype, scale, shift, dim, saturate):
    """(the st_scale_shift, the arrays it points into: keep them until the call returns).

    `dst_shape`, `dst_dtype`: the destination's; one value of scale or
    shift applies to every element, several are one per index along `dim`
    of the destination; None means scales of 1 or shifts of 0.
    """
    for role, dt in (("the destination", dst_dtype), ("the source", src_dtype)):
        if dt.kind == "c":
            raise found(UNSUPPORTED_DTYPE, f"{role} has dtype {dt}: scaled copies take real dtypes only")
    d = _dim(dim, "dim")
    a, b = _values(scale, "scale"), _values(shift, "shift")
    given = {name: len(v) for name, v in (("scale", a), ("shift", b)) if v is not None}
    several = {name: n for name, n in given.items() if n != 1}
    if len(set(several.values())) > 1:
        raise found(INVALID_ARGUMENT, f"scale has {_count(given['scale'])} and shift {_count(given['shift'])}: "
                                      f"give each one value, or both one per index along dim")
    n = next(iter(several.values()), 1)
    if n != 1:
        ndim = len(dst_shape)
        if not -ndim <= d < ndim:
            raise found(INVALID_ARGUMENT, f"dim = {d} is out of range for a destination of {ndim} dims "
                                          f"(expected {-ndim}..{ndim - 1})" if ndim else
                                          f"{' and '.join(several)} hold {_count(n)}, but the destination is 0-d: "
                                          f"give one value")
        size = dst_shape[d]
        if n != size:
            names = " and ".join(several)
            raise found(INVALID_ARGUMENT, f"{names} {'has' if len(several) == 1 else 'have'} {_count(n)}: give one "
                                          f"value, or one per index along dim {d} of the destination ({size})")
    # One value given against n of the other: repeat it.
    arrays = [None if v is None else (ctypes.c_double * n)(*(v * n if len(v) == 1 else v)) for v in (a, b)]
    pointers = [None if arr is None else ctypes.cast(arr, ctypes.POINTER(ctypes.c_double)) for arr in arrays]
    return st_scale_shift(pointers[0], pointers[1], n, d, 1 if saturate else 0), arrays
