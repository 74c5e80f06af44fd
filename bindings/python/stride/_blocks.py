"""stride.quantize_blocks and stride.dequantize_blocks: the block-scaled formats (st_quantize_blocks).

OCP Microscaling (MXFP8, MXFP6, MXFP4, MXINT8: blocks of 32 with a
float8_e8m0fnu power-of-two scale) and NVIDIA's NVFP4 (blocks of 16 with a
float8_e4m3fn scale and a float32 global scale); include/stride.h, section
"Block-scaled formats", has the rules. The binding names the format and
the scale rule in words, allocates the outputs in the shapes the header
gives, and checks what it needs for that (the format, the rule, the dim,
an even size for the formats of two values a byte, the dtypes of the
tensors it makes) in the names the Python caller used; the library checks
the rest (shapes, devices, overlap) before it writes anything.
"""

from __future__ import annotations

import ctypes
import math
from typing import Any, NamedTuple, Optional, Sequence, Tuple

from ._args import dim as _dim
from ._capi import ENUMS, st_block_spec
from ._errors import INVALID_ARGUMENT, UNSUPPORTED_DTYPE, entry, found
from ._lib import lib
from ._tensor import DTypeLike, Tensor, as_tensor, empty
from ._types import DType, dtype as _dtype


class _Format(NamedTuple):
    code: int  # st_block_format
    values: DType
    scales: DType
    block: int
    packed: bool  # two values a byte: the values' size along the dim is half the source's


_FP4, _E8M0, _E4M3 = DType.FLOAT4_E2M1FN_X2, DType.FLOAT8_E8M0FNU, DType.FLOAT8_E4M3FN
_CODES = ENUMS["st_block_format"]
# The table of include/stride.h, "Block-scaled formats", under the names the binding takes.
_FORMATS = {
    "mxfp8_e4m3": _Format(_CODES["MXFP8_E4M3"], _E4M3, _E8M0, 32, False),
    "mxfp8_e5m2": _Format(_CODES["MXFP8_E5M2"], DType.FLOAT8_E5M2, _E8M0, 32, False),
    "mxfp6_e2m3": _Format(_CODES["MXFP6_E2M3"], DType.FLOAT6_E2M3FN, _E8M0, 32, False),
    "mxfp6_e3m2": _Format(_CODES["MXFP6_E3M2"], DType.FLOAT6_E3M2FN, _E8M0, 32, False),
    "mxfp4": _Format(_CODES["MXFP4_E2M1"], _FP4, _E8M0, 32, True),
    "mxint8": _Format(_CODES["MXINT8"], DType.INT8, _E8M0, 32, False),
    "nvfp4": _Format(_CODES["NVFP4"], _FP4, _E4M3, 16, True),
}
# Also the C enum's names without ST_BLOCK_ (MXFP4_E2M1), in any case.
_BY_NAME = {**_FORMATS, **{c.lower(): f for f in _FORMATS.values() for c, v in _CODES.items() if v == f.code}}
_RULES = {name.lower(): value for name, value in ENUMS["st_scale_rule"].items()}
_FLOATS = (DType.FLOAT32, DType.FLOAT16, DType.BFLOAT16, DType.FLOAT64)


def _format(format):
    if not isinstance(format, str):
        raise TypeError(f"format must be a name such as 'mxfp4', not {type(format).__name__}")
    try:
        return _BY_NAME[format.lower()]
    except KeyError:
        raise found(INVALID_ARGUMENT, f"unknown format {format!r}: expected one of "
                                      f"{', '.join(repr(n) for n in _FORMATS)}") from None


def _rule(rule):
    if not isinstance(rule, str):
        raise TypeError(f"rule must be 'floor' or 'rceil', not {type(rule).__name__}")
    try:
        return _RULES[rule.lower()]
    except KeyError:
        raise found(INVALID_ARGUMENT, f"unknown rule {rule!r}: expected 'floor' or 'rceil'") from None


def _global_scale(value):
    if isinstance(value, (bool, complex, str, bytes)):
        raise TypeError(f"global_scale must be a real number, not {type(value).__name__}")
    try:
        return float(value)
    except TypeError:
        raise TypeError(f"global_scale must be a real number, not {type(value).__name__}") from None


# From here up a float64 rounds to float32's infinity (the midpoint of its largest value and 2^128).
_FLOAT32_INF_FROM = 2.0 ** 128 - 2.0 ** 103


def _spec(fmt, dim, rule, global_scale):
    """The st_block_spec of the Python arguments; `dim` as given (the library reads negative ones)."""
    g = _global_scale(global_scale)
    if fmt.code == _CODES["NVFP4"]:  # the MX formats ignore it
        if not (g >= 0 and math.isfinite(g)):
            raise found(INVALID_ARGUMENT, f"global_scale = {g}: nvfp4 takes a finite global scale >= 0 (0 meaning 1)")
        if g >= _FLOAT32_INF_FROM:  # ctypes would make it float32's infinity without a word
            raise found(INVALID_ARGUMENT, f"global_scale = {g} is beyond float32's range")
    return st_block_spec(ctypes.sizeof(st_block_spec), fmt.code, dim, rule, g)


def _line(shape, dim, role):
    """`dim` as a non-negative dim number of `shape`, and the size of the lines along it."""
    ndim = len(shape)
    if not -ndim <= dim < ndim:
        raise found(INVALID_ARGUMENT, f"dim = {dim} is out of range for {role} of 0 dims: blocks run along a dim"
                                      if not ndim else f"dim = {dim} is out of range for {role} of {ndim} dims "
                                                       f"(expected {-ndim}..{ndim - 1})")
    d = dim % ndim
    return d, shape[d]


def _even(fmt, format, n, d, role):
    """Refuses an odd size `n` along dim `d` of `role` (the floats' side) for the formats of two values a byte."""
    if fmt.packed and n % 2:
        raise found(INVALID_ARGUMENT, f"{format} holds two values a byte: {role}'s size along dim {d} must be "
                                      f"even, not {n}")


def _with(shape, d, size):
    return shape[:d] + (size,) + shape[d + 1:]


def _check_float(dt, role):
    if dt not in _FLOATS:
        raise found(UNSUPPORTED_DTYPE, f"{role} is {dt}: expected float32, float16, bfloat16 or float64")


def _check_out(t, expected, role):
    """`t` as a Tensor that the call writes, of dtype `expected` (None: any of the floating dtypes)."""
    if not isinstance(t, Tensor):
        raise TypeError(f"{role} must be a stride.Tensor (it is written), not {type(t).__name__}")
    t._handle(role)  # InvalidHandleError naming it, once released
    if expected is None:
        _check_float(t.dtype, role)
    elif t.dtype != expected:
        raise found(UNSUPPORTED_DTYPE, f"{role} is {t.dtype}: this format's {role.split()[-1]} are {expected}")
    return t


@entry
def quantize_blocks(src: Any, format: str, *, dim: int = -1, rule: str = "floor", global_scale: float = 0.0,
                    out: Optional[Sequence[Tensor]] = None) -> Tuple[Tensor, Tensor]:
    """Quantizes `src` into a block-scaled format along `dim`; returns ``(values, scales)``.

    ``format``: ``"mxfp8_e4m3"``, ``"mxfp8_e5m2"``, ``"mxfp6_e2m3"``,
    ``"mxfp6_e3m2"``, ``"mxfp4"``, ``"mxint8"`` (OCP MX: blocks of 32, a
    float8_e8m0fnu scale each) or ``"nvfp4"`` (blocks of 16, a
    float8_e4m3fn scale each); the C enum's names without ``ST_BLOCK_``
    (``"MXFP4_E2M1"``) too, in any case. ``src`` is a float32, float16,
    bfloat16 or float64 tensor (or anything ``copy_`` takes) of any
    strides, on any device. ``rule``: ``"floor"`` (OCP MX 6.3) or
    ``"rceil"`` (TransformerEngine, cuBLAS: the scale rounded up, never
    saturating); NVFP4 has one rule. ``global_scale``: NVFP4's float32
    decode scale g, finite and >= 0, 0 meaning 1 (usually amax of the
    tensor / (6 · 448)); the MX formats ignore it.

    ``values`` has src's shape with the format's value dtype
    (float8_e4m3fn, float8_e5m2, float6_e2m3fn, float6_e3m2fn, int8, or
    float4_e2m1fn_x2, whose byte j along `dim` holds elements 2j (low
    nibble) and 2j + 1: its size along `dim` is half of src's, which must
    be even). ``scales`` has src's shape with ceil(n / block) along `dim`.
    Both are new row-major tensors on src's device, or the two tensors of
    ``out=(values, scales)`` (any strides), written and returned. Nothing is
    written when an argument is refused.
    """
    fmt = _format(format)
    src = as_tensor(src)
    src_h = src._handle("src")
    d = _dim(dim, "dim")
    spec = _spec(fmt, d, _rule(rule), global_scale)
    _check_float(src.dtype, "src")
    shape = src.shape
    d, n = _line(shape, d, "a src")
    _even(fmt, format, n, d, "src")
    if out is None:
        values = empty(*_with(shape, d, n // 2 if fmt.packed else n), dtype=fmt.values, device=src.device)
        scales = empty(*_with(shape, d, -(-n // fmt.block)), dtype=fmt.scales, device=src.device)
    else:
        if isinstance(out, Tensor) or not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("out must be a pair of tensors (values, scales)")
        values = _check_out(out[0], fmt.values, "out values")
        scales = _check_out(out[1], fmt.scales, "out scales")
    lib.call("st_quantize_blocks", values._handle("out values"), scales._handle("out scales"), src_h,
             ctypes.byref(spec))
    return values, scales


@entry
def dequantize_blocks(values: Tensor, scales: Tensor, format: str, *, dtype: Optional[DTypeLike] = None,
                      dim: int = -1, global_scale: float = 0.0, out: Optional[Tensor] = None) -> Tensor:
    """The tensor that block-scaled ``values`` and ``scales`` stand for: each value times its block's scale.

    The inverse of ``quantize_blocks`` with the same ``format``, ``dim``
    and (NVFP4) ``global_scale``: the result has the shape the source had
    (``values``' shape, its size along `dim` doubled for ``"mxfp4"`` and
    ``"nvfp4"``) and ``dtype`` float32 (the default), float16, bfloat16 or
    float64; each element is exact, then rounded once to that dtype. A NaN
    scale makes its whole block NaN. ``out``: a tensor of any strides to
    write instead of a new one (its dtype is the result's; ``dtype``, if
    given, must match it). Nothing is written when an argument is refused.
    """
    fmt = _format(format)
    for role, t in (("values", values), ("scales", scales)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{role} must be a stride.Tensor, not {type(t).__name__}")
    values_h, scales_h = values._handle("values"), scales._handle("scales")
    d = _dim(dim, "dim")
    spec = _spec(fmt, d, ENUMS["st_scale_rule"]["FLOOR"], global_scale)  # dequantizing has no rule
    want = None if dtype is None else _dtype(dtype)
    if out is None:
        want = DType.FLOAT32 if want is None else want
        _check_float(want, "dtype")
        shape = values.shape
        d, n = _line(shape, d, "values")
        dst = empty(*_with(shape, d, 2 * n if fmt.packed else n), dtype=want, device=values.device)
    else:
        dst = _check_out(out, None, "out")
        if want is not None and dst.dtype != want:
            raise found(UNSUPPORTED_DTYPE, f"out is {dst.dtype} but dtype is {want}")
        d, n = _line(dst.shape, d, "an out")
        _even(fmt, format, n, d, "out")
    lib.call("st_dequantize_blocks", dst._handle("out"), values_h, scales_h, ctypes.byref(spec))
    return dst
