"""stride.copy_scaled: Tensor.copy_scaled_ as a function of the destination and the source, named."""

import warnings

from ._errors import entry
from ._tensor import Tensor

_ORDER = ("dst", "src", "scale", "shift", "dim", "saturate", "non_blocking")


@entry
def copy_scaled(*args, dst=None, src=None, scale=None, shift=None, dim=0, saturate=False, non_blocking=False):
    """``dst.copy_scaled_(src, scale=..., shift=..., dim=..., saturate=..., non_blocking=...)``; returns dst.

    Name the tensors: ``stride.copy_scaled(dst=out, src=batch, ...)``, or
    call the destination's method ``out.copy_scaled_(batch, ...)`` (as
    PyTorch's ``copy_``). Giving them by position, in the order
    ``copy_scaled(dst, src, ...)`` of stride 0.2, still works but is
    deprecated: the two tensors swapped would write into the source
    without a word when their shapes match.
    """
    if args:
        if len(args) > len(_ORDER):
            raise TypeError(f"copy_scaled takes at most {len(_ORDER)} arguments by position, not {len(args)}")
        warnings.warn("stride.copy_scaled(dst, src, ...) with the tensors given by position is deprecated: "
                      "call dst.copy_scaled_(src, scale=..., shift=..., dim=...), or name them: "
                      "stride.copy_scaled(dst=..., src=..., ...)", DeprecationWarning, stacklevel=3)
        given = dict(dst=dst, src=src, scale=scale, shift=shift, dim=dim, saturate=saturate, non_blocking=non_blocking)
        defaults = dict(dst=None, src=None, scale=None, shift=None, dim=0, saturate=False, non_blocking=False)
        for name, value in zip(_ORDER, args):
            if given[name] is not defaults[name]:
                raise TypeError(f"copy_scaled got {name} both by position and by name")
            given[name] = value
        dst, src, scale, shift, dim, saturate, non_blocking = (given[name] for name in _ORDER)
    if not isinstance(dst, Tensor):
        raise TypeError(f"copy_scaled: dst must be a stride.Tensor (it is written), not {type(dst).__name__}")
    if src is None:
        raise TypeError("copy_scaled: src is missing")
    return dst.copy_scaled_(src, scale=scale, shift=shift, dim=dim, saturate=saturate, non_blocking=non_blocking)
