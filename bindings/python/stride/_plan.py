"""Copy plans: a copy prepared once and run many times (st_copy_plan_create)."""

import ctypes
import sys

from ._capi import ST_PLAN_ESTIMATE as PLAN_ESTIMATE, ST_PLAN_MEASURE as PLAN_MEASURE, st_copy_plan
from ._errors import entry, released
from ._lib import lib
from ._tensor import Tensor


class CopyPlan:
    """The copy ``dst.copy_(src)`` prepared for tensors laid out as these.

    ``execute(dst, src)`` runs it on tensors with the same sizes, strides,
    dtypes and devices (their data and storage offsets may differ);
    ``execute_raw(dst_ptr, src_ptr)`` on the addresses of element (0, ...,
    0) of such tensors, as ``data_ptr()`` gives them. The results are
    ``copy_``'s, overlap included. With ``measure=True`` the plan times its
    candidates on dst and src, which then holds the copy. The plan keeps
    neither tensor. ``release()`` (or leaving a ``with`` block, or garbage
    collection) frees it.
    """

    # _ref holds the st_copy_plan until release() pops it (one atomic pop, as Tensor's).
    __slots__ = ("_ref",)

    @entry("stride.CopyPlan")
    def __init__(self, dst, src, measure=False):
        self._ref = []
        if not isinstance(dst, Tensor) or not isinstance(src, Tensor):
            raise TypeError("CopyPlan: dst and src must be stride.Tensor")
        out = st_copy_plan(0)
        flags = PLAN_MEASURE if measure else PLAN_ESTIMATE
        lib.call("st_copy_plan_create", dst._handle("dst"), src._handle("src"), None, flags, ctypes.byref(out))
        self._ref.append(out)

    def _handle(self):
        try:
            return self._ref[0]
        except IndexError:
            raise released("the plan") from None

    @property
    def handle(self):
        """The st_copy_plan id (0 once released)."""
        try:
            return self._ref[0].id
        except IndexError:
            return 0

    @entry
    def execute(self, dst, src, non_blocking=False):
        """dst ← src as st_copy would; dst and src must match the plan's layouts."""
        if not isinstance(dst, Tensor) or not isinstance(src, Tensor):
            raise TypeError("CopyPlan.execute: dst and src must be stride.Tensor")
        lib.call("st_copy_plan_execute", self._handle(), dst._handle("dst"), src._handle("src"),
                 1 if non_blocking else 0)

    @entry
    def execute_raw(self, dst_ptr, src_ptr, non_blocking=False):
        """The copy between two addresses of element (0, ..., 0), laid out as the plan's tensors."""
        lib.call("st_copy_plan_execute_raw", self._handle(), ctypes.c_void_p(dst_ptr), ctypes.c_void_p(src_ptr),
                 1 if non_blocking else 0)

    @entry
    def release(self):
        """Frees the plan now; later calls raise InvalidHandleError. A second release() is a no-op."""
        try:
            h = self._ref.pop()
        except IndexError:
            return
        lib.check(lib.st_copy_plan_release(h))

    def __del__(self):
        if sys.is_finalizing():
            return
        ref = getattr(self, "_ref", None)
        if ref:
            lib.st_copy_plan_release(ref.pop())

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()

    def __reduce__(self):
        """Refused: a plan is a handle of this process; copying the object would share it (make another plan)."""
        raise TypeError("a CopyPlan cannot be copied or pickled: make another with CopyPlan(dst, src)")

    __copy__ = __reduce__

    def __deepcopy__(self, memo):
        """Refused, as ``__reduce__``."""
        return self.__reduce__()


@entry
def live_plan_count():
    """Plans created and not released (st_live_plan_count): for leak checks."""
    out = ctypes.c_int64()
    lib.call("st_live_plan_count", ctypes.byref(out))
    return out.value
