"""Printing a tensor's values as NumPy prints an array's.

The rules are NumPy's default print options (numpy/core/arrayprint.py):
lines of at most 75 characters, more than 1000 elements summarized with
"..." keeping 3 items at each edge of every dim, floats in their shortest
unique form with at most 8 digits after the point (scientific when the
values span too much), integers and booleans right-aligned. The values
come in as Python numbers (see Tensor._values), the displayed ones only.
"""

import decimal
import math
import struct

LINE_WIDTH = 75
THRESHOLD = 1000
EDGE_ITEMS = 3
PRECISION = 8


# ---- the shortest decimal that reads back as the same value ------------------


def _bfloat16(x):
    """x rounded to bfloat16 (to nearest even), as a float."""
    (bits,) = struct.unpack("<I", struct.pack("<f", x))
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def _float8(mantissa_bits, min_exponent, largest, overflow):
    """A function rounding a float to a float8 format (to nearest even), as a float.

    `min_exponent` is the exponent of the smallest normal number; a value
    that rounds above `largest` becomes `overflow` (with the value's sign).
    """

    def store(x):
        if x == 0 or not math.isfinite(x):
            return x if not math.isinf(x) else math.copysign(overflow, x)
        exponent = max(math.frexp(x)[1] - 1, min_exponent)
        quantum = math.ldexp(1.0, exponent - mantissa_bits)
        v = round(abs(x) / quantum) * quantum  # round() ties to even
        return math.copysign(v if v <= largest else overflow, x)

    return store


# The formats NumPy has no type for, by dtype name.
_STORES = {
    "bfloat16": _bfloat16,
    "float8_e4m3fn": _float8(3, -6, 448.0, math.nan),  # no infinity: overflow is NaN
    "float8_e5m2": _float8(2, -14, 57344.0, math.inf),
}


def _round_trip(itemsize, name):
    """A function giving the value a float becomes when stored in the dtype called `name`."""
    if name in _STORES:
        return _STORES[name]
    if itemsize == 8:
        return lambda v: v
    fmt = {2: "<e", 4: "<f"}[itemsize]

    def store(v):
        try:
            return struct.unpack(fmt, struct.pack(fmt, v))[0]
        except OverflowError:
            return math.copysign(math.inf, v)

    return store


def _shortest(x, store):
    """The shortest decimal (a Decimal) that `store` turns back into x, the nearest to x of those.

    As Dragon4: of the correctly rounded digits and their neighbours one
    unit away in the last place, those that read back as x; the rounded
    ones first (an interval that is not symmetric, below a power of two,
    can hold a neighbour but not them).
    """
    if store(x) == x:
        exact = decimal.Decimal(x)
        for digits in range(1, 18):
            rounded = decimal.Decimal(f"{x:.{digits - 1}e}")
            unit = decimal.Decimal(1).scaleb(rounded.as_tuple().exponent)
            fits = [d for d in (rounded, rounded - unit, rounded + unit) if store(float(d)) == x]
            if fits:
                return min(fits, key=lambda d: abs(d - exact))
    return decimal.Decimal(repr(x))


# ---- NumPy's Dragon4 formatting, on Decimals -------------------------------


def _digits(d):
    """(sign, digit string, exponent of the first digit) of a nonzero Decimal."""
    sign, digits, exp = d.as_tuple()
    s = "".join(map(str, digits)).lstrip("0") or "0"
    s = s.rstrip("0") or "0"
    first = len("".join(map(str, digits)).lstrip("0")) + exp - 1
    return sign, s, first


def _positional(x, store, precision, min_digits, sign, pad_left, pad_right):
    negative = math.copysign(1.0, x) < 0
    d = abs(_shortest(x, store)).normalize()
    if d.as_tuple().exponent > 0:
        d = abs(decimal.Decimal(x))  # Dragon4 writes every digit before the point: an integer, exactly
    elif -d.as_tuple().exponent > precision:
        d = abs(decimal.Decimal(x)).quantize(decimal.Decimal(1).scaleb(-precision), decimal.ROUND_HALF_EVEN)
    text = format(d.normalize() if d else decimal.Decimal(0), "f")
    whole, _, frac = text.partition(".")
    frac = frac.rstrip("0").ljust(min_digits, "0")
    whole = ("-" if negative else "+" if sign else "") + whole
    return whole.rjust(pad_left) + "." + frac.ljust(pad_right)


def _exact_digits(x, count):
    """(digits, exponent of the first) of |x| rounded to `count` digits after the first one."""
    exact = abs(decimal.Decimal(x))
    first = exact.adjusted()
    step = decimal.Decimal(1).scaleb(-count)
    q = exact.scaleb(-first).quantize(step, decimal.ROUND_HALF_EVEN)
    if q >= 10:
        first += 1
        q = exact.scaleb(-first).quantize(step, decimal.ROUND_HALF_EVEN)
    return "".join(map(str, q.as_tuple().digits)).ljust(count + 1, "0")[: count + 1], first


def _scientific(x, store, precision, min_digits, sign, pad_left, exp_digits):
    negative = math.copysign(1.0, x) < 0
    d = abs(_shortest(x, store))
    if d == 0:
        digits, first = "0", 0
    else:
        _, digits, first = _digits(d)
        # Beyond the shortest digits (or to cut them), Dragon4 goes on with the exact value's.
        wanted = precision if len(digits) - 1 > precision else min_digits if len(digits) - 1 < min_digits else None
        if wanted is not None:
            digits, first = _exact_digits(x, wanted)
    frac = digits[1:].rstrip("0").ljust(min_digits, "0")
    whole = ("-" if negative else "+" if sign else "") + digits[0]
    exponent = str(abs(first)).rjust(max(exp_digits, 2), "0")
    return whole.rjust(pad_left) + "." + frac + "e" + ("-" if first < 0 else "+") + exponent


class _FloatFormat:
    """NumPy's FloatingFormat in its default mode ('maxprec', precision 8)."""

    def __init__(self, values, store, sign=False):
        self.store, self.sign = store, sign
        finite = [v for v in values if math.isfinite(v)]
        nonzero = [abs(v) for v in finite if v != 0]
        self.exp = bool(nonzero) and (max(nonzero) >= 1e8 or min(nonzero) < 1e-4 or max(nonzero) / min(nonzero) > 1e3)
        self.precision, self.min_digits = PRECISION, 0
        if not finite:
            self.pad_left = self.pad_right = 0
            self.exp_size = -1
        elif self.exp:
            strs = [_scientific(v, store, PRECISION, 0, sign, 0, -1) for v in finite]
            mantissas, exps = zip(*(s.split("e") for s in strs))
            whole, frac = zip(*(m.split(".") for m in mantissas))
            self.exp_size = max(len(e) for e in exps) - 1
            self.precision = self.min_digits = max(len(f) for f in frac)
            self.pad_left = max(len(w) for w in whole)
            self.pad_right = self.exp_size + 2 + self.precision
        else:
            strs = [_positional(v, store, PRECISION, 0, sign, 0, 0) for v in finite]
            whole, frac = zip(*(s.split(".") for s in strs))
            self.pad_left = max(len(w) for w in whole)
            self.pad_right = max(len(f) for f in frac)
            self.exp_size = -1
        if len(finite) != len(values):
            neginf = sign or any(v < 0 for v in values if math.isinf(v))
            offset = self.pad_right + 1
            self.pad_left = max(self.pad_left, 3 - offset, 3 + neginf - offset)

    def __call__(self, x):
        if not math.isfinite(x):
            if math.isnan(x):
                text = ("+" if self.sign else "") + "nan"
            else:
                text = ("-" if x < 0 else "+" if self.sign else "") + "inf"
            return " " * (self.pad_left + self.pad_right + 1 - len(text)) + text
        if self.exp:
            return _scientific(x, self.store, self.precision, self.min_digits, self.sign, self.pad_left,
                               self.exp_size)
        return _positional(x, self.store, self.precision, self.min_digits, self.sign, self.pad_left,
                           self.pad_right)


class _ComplexFormat:
    def __init__(self, values, store):
        self.real = _FloatFormat([v.real for v in values], store)
        self.imag = _FloatFormat([v.imag for v in values], store, sign=True)

    def __call__(self, x):
        r, i = self.real(x.real), self.imag(x.imag)
        cut = len(i.rstrip())
        return r + i[:cut] + "j" + i[cut:]


def _formatter(values, kind, itemsize, name):
    if kind == "b":
        pad = " " if any(values) else ""
        return lambda v: pad + "True" if v else "False"
    if kind in "iu":
        width = max((len(str(v)) for v in values), default=0)
        return lambda v: str(v).rjust(width)
    store = _round_trip(itemsize // 2 if kind == "c" else itemsize, name)
    if kind == "c":
        return _ComplexFormat(values, store)
    return _FloatFormat(values, store)


# ---- the layout: NumPy's _formatArray ------------------------------------


def _extend_line(s, line, word, width, prefix):
    if len(line) + len(word) > width and len(line) > len(prefix):
        s += line.rstrip() + "\n"
        line = prefix
    return s, line + word


def layout(values, shape, summarized, fmt, separator, prefix, width):
    """The nested-bracket text of `values` (row-major over `shape`).

    `summarized[d]` says that dim d shows EDGE_ITEMS items at each end with
    "..." between them (its size in `shape` is then 2 * EDGE_ITEMS).
    """
    ndim = len(shape)
    blocks = [1] * (ndim + 1)
    for d in range(ndim - 1, -1, -1):
        blocks[d] = blocks[d + 1] * shape[d]

    def recurse(dim, offset, indent, width):
        if dim == ndim:
            return fmt(values[offset])
        n = shape[dim]
        step = blocks[dim + 1]
        cut = EDGE_ITEMS if summarized[dim] else None
        if dim == ndim - 1:
            elem_width = width - max(len(separator.rstrip()), len("]"))
            s, line = "", indent
            for i in range(n):
                if i == cut:
                    s, line = _extend_line(s, line, "...", elem_width, indent)
                    line += separator
                word = recurse(dim + 1, offset + i * step, indent + " ", width - 1)
                s, line = _extend_line(s, line, word, elem_width, indent)
                if i < n - 1:
                    line += separator
            s += line
        else:
            line_sep = separator.rstrip() + "\n" * (ndim - dim - 1)
            parts = []
            for i in range(n):
                if i == cut:
                    parts.append(indent + "..." + line_sep)
                nested = recurse(dim + 1, offset + i * step, indent + " ", width - 1)
                parts.append(indent + nested + (line_sep if i < n - 1 else ""))
            s = "".join(parts)
        return "[" + s[len(indent):] + "]"

    return recurse(0, 0, " " + " " * len(prefix), width)


def format_values(values, shape, summarized, kind, itemsize, name, separator, prefix="", suffix=""):
    """NumPy's array2string of the displayed values; `name` is their dtype's (as st_dtype_name)."""
    if any(n == 0 for n in shape) and shape:
        return "[]"
    fmt = _formatter(values, kind, itemsize, name)
    if not shape:
        return fmt(values[0]).strip()
    return layout(values, shape, summarized, fmt, separator, prefix, LINE_WIDTH - len(suffix))
