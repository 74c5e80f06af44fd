"""Python arguments to C integers, with Python exceptions for bad ones.

ctypes would wrap an out-of-range int silently, and raise its own
ArgumentError for a wrong type; these checks run first, so a caller sees
a TypeError or ValueError naming the argument instead.
"""

import ctypes
import operator

_I32 = (-2 ** 31, 2 ** 31 - 1)
_I64 = (-2 ** 63, 2 ** 63 - 1)


def index(value, what):
    """`value` as a Python int: anything with __index__ (not a bool or a float)."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be an integer, not bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}") from None


def _ranged(value, what, bounds, clamp):
    v = index(value, what)
    lo, hi = bounds
    if lo <= v <= hi:
        return v
    if clamp:
        return min(max(v, lo), hi)
    raise ValueError(f"{what} = {v} is out of range")


def i32(value, what):
    return _ranged(value, what, _I32, clamp=False)


def dim(value, what):
    """A dim number (int32); the library judges whether the tensor has it."""
    return i32(value, what)


def dims(values, what):
    return [dim(v, what) for v in sequence(values, what)]


def i64(value, what, clamp=False):
    """An int64; with `clamp`, a value beyond int64 becomes its nearest end (slice bounds, indices)."""
    return _ranged(value, what, _I64, clamp)


def sequence(values, what):
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise TypeError(f"{what} must be a sequence of integers, not {type(values).__name__}")
    return list(values)


def i64s(values, what):
    """(a ctypes int64 array, its length) of a sequence of integers."""
    values = [i64(v, what) for v in sequence(values, what)]
    return (ctypes.c_int64 * max(len(values), 1))(*values), len(values)


def shape_args(shape):
    """Sizes given as one sequence or as separate ints, as NumPy and PyTorch take them."""
    if len(shape) == 1 and not hasattr(shape[0], "__index__") and hasattr(shape[0], "__len__"):
        return tuple(shape[0])
    return shape
