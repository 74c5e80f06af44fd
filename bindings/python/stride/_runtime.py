"""Process-wide settings: threads, the CPU allocator, parallelism, tracing, CUDA."""

from __future__ import annotations

import ctypes
import sys
import threading
import traceback

from ._args import i32
from ._capi import st_allocator, st_allocator_alloc, st_allocator_free, st_parallel_for_fn, st_trace_fn
from ._errors import entry
from ._lib import lib

# Callbacks handed to the library must outlive every use of them: a storage
# is freed by the allocator it came from, however long ago that was set.
_installed = []
_lock = threading.Lock()


def _hold(*objs):
    with _lock:
        _installed.extend(objs)


def _unraisable(where):
    """Prints the exception being handled, as ctypes does for an exception its callback cannot return."""
    print(f"Exception ignored in {where}:", file=sys.stderr)
    traceback.print_exc()


def _callable(fn, what):
    if not callable(fn):
        raise TypeError(f"{what} must be callable, not {type(fn).__name__}")


@entry
def version() -> tuple:
    """The loaded library's version as (major, minor, patch)."""
    v = lib.st_version()
    return (v // 10000, v // 100 % 100, v % 100)


@entry
def version_string() -> str:
    """The loaded library's version as text, such as "0.2.0"."""
    return lib.st_version_string().decode()


@entry
def set_num_threads(n: int) -> None:
    """The number of threads CPU copies use from now on (at least 1; the default: every core)."""
    lib.call("st_set_num_threads", i32(n, "set_num_threads: n"))


@entry
def get_num_threads() -> int:
    """The number of threads CPU copies use."""
    return lib.st_get_num_threads()


@entry
def set_cpu_allocator(alloc=None, free=None):
    """Routes CPU allocations to Python callables; no arguments restores the default.

    ``alloc(nbytes, alignment)`` returns the address (int) of at least
    ``nbytes`` bytes aligned to ``alignment``, or 0 on failure;
    ``free(address, nbytes)`` gives it back, possibly long after another
    allocator was set. Both may be called on any thread. An exception in
    either is printed; in ``alloc`` it fails the allocation
    (OutOfMemoryError), in ``free`` the block is lost (docs/bindings.md,
    "Python").
    """
    if alloc is None and free is None:
        lib.call("st_set_cpu_allocator", None)
        return
    if alloc is None or free is None:
        raise ValueError("give both alloc and free, or neither")
    _callable(alloc, "set_cpu_allocator: alloc")
    _callable(free, "set_cpu_allocator: free")

    # An exception cannot cross into the library: it is printed, as ctypes prints one from any
    # callback, and alloc then fails the way a 0 does.
    def c_alloc(ctx, nbytes, alignment):
        try:
            return alloc(nbytes, alignment) or None
        except BaseException:
            _unraisable("set_cpu_allocator's alloc")
            return None

    def c_free(ctx, ptr, nbytes):
        try:
            free(ptr, nbytes)
        except BaseException:
            _unraisable("set_cpu_allocator's free (the block is lost)")

    a = st_allocator(st_allocator_alloc(c_alloc), st_allocator_free(c_free), None)
    _hold(a)
    lib.call("st_set_cpu_allocator", ctypes.byref(a))


class _Run:
    """The ``run(begin, end)`` one call of a job system gets: the library's task, until that call returns.

    The task and its context live on the stack of the library's call; a
    ``run`` kept and called later is refused instead of jumping into them.
    """

    __slots__ = ("_task", "_task_ctx")

    def __init__(self, task, task_ctx):
        self._task, self._task_ctx = task, task_ctx

    def __call__(self, begin, end):
        task, task_ctx = self._task, self._task_ctx
        if task is None:
            raise RuntimeError("set_parallel_for: run(begin, end) was called after the job system's call that "
                               "received it had returned; the work it ran is gone (call run only before "
                               "returning)")
        task(task_ctx, begin, end)

    def close(self):
        self._task = self._task_ctx = None


@entry
def set_parallel_for(fn=None):
    """Runs the library's CPU parallelism through ``fn(n, grain, run)``; None restores the pool.

    ``fn`` must call ``run(begin, end)`` over disjoint chunks covering
    [0, n), each at least ``grain`` long except the last, and return when
    all have run (from any threads). A ``run`` called after its ``fn``
    call returned raises RuntimeError. When ``fn`` raises or leaves part
    of [0, n) unrun, Python prints its exception and the operator fails
    with InternalError (the destination may be partly written).
    """
    if fn is None:
        lib.call("st_set_parallel_for", st_parallel_for_fn(), None)
        return
    _callable(fn, "set_parallel_for: fn")

    def c_parallel_for(ctx, n, grain, task, task_ctx):
        run = _Run(task, task_ctx)
        try:
            fn(n, grain, run)
        finally:
            run.close()

    cb = st_parallel_for_fn(c_parallel_for)
    _hold(cb)
    lib.call("st_set_parallel_for", cb, None)


@entry
def set_trace_callback(fn=None):
    """Calls ``fn(op_name, duration_ns)`` after every operator; None turns tracing off."""
    if fn is None:
        lib.call("st_set_trace_callback", st_trace_fn(), None)
        return
    _callable(fn, "set_trace_callback: fn")

    def c_trace(ctx, name, ns):
        fn(name.decode(), ns)

    cb = st_trace_fn(c_trace)
    _hold(cb)
    lib.call("st_set_trace_callback", cb, None)


@entry
def cuda_device_count() -> int:
    """0 when CUDA is not built in or there is no driver or GPU."""
    out = ctypes.c_int32()
    lib.call("st_cuda_device_count", ctypes.byref(out))
    return out.value


@entry
def cuda_set_stream(device, stream):
    """Uses the cudaStream_t `stream` (an address; 0 or None = default) on `device` for this thread."""
    if stream is not None and not isinstance(stream, int):
        raise TypeError(f"cuda_set_stream: stream must be an address (int) or None, not {type(stream).__name__}")
    lib.call("st_cuda_set_stream", i32(device, "cuda_set_stream: device"), stream or None)


@entry
def cuda_synchronize(device: int = 0) -> None:
    """Waits until the work stride queued on `device`'s current stream is done."""
    lib.call("st_cuda_synchronize", i32(device, "cuda_synchronize: device"))


@entry
def cuda_empty_cache(device: int = 0) -> None:
    """Gives the library's cached device and pinned memory for `device` back to the driver."""
    lib.call("st_cuda_empty_cache", i32(device, "cuda_empty_cache: device"))
