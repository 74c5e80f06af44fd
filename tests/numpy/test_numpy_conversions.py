"""st_copy between the 14 dtypes NumPy shares with stride (bool, the eight
integer widths, float16/32/64, complex64/128: 196 pairs), through the C API
with ctypes, against NumPy's astype on arrays of special and random values.

NumPy is the reference wherever its answer is defined: integer wrap-around,
integer and float rounding to nearest even (it rounds float64 -> float16
once, and every integer -> float from the exact value), truncation of floats
that fit the target integer, nonzero -> bool, the real part of a complex.
Where NumPy leaves the result to the platform (a float beyond an integer's
range, NaN into an integer) stride defines it (docs/conversions.md) and the
comparison leaves those elements out. bfloat16 and the float8 formats are not
NumPy's and are checked by the C and C++ tests.

Usage: test_numpy_conversions.py LIBSTRIDE. Exit 77 (skipped) when NumPy is
missing. Set ST_TEST_SEED to change the random values."""
import sys
import warnings

from stride_ctypes import np, DTYPES, check, lib, random_generator, wrap


def stride_astype(src, dst_type):
    dst = np.zeros(src.size, dtype=dst_type)
    ts, td = wrap(src), wrap(dst)
    check(lib.st_copy(td, ts, 0))
    lib.st_tensor_release(ts)
    lib.st_tensor_release(td)
    return dst


rng = random_generator(20240614)

INTS = [np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64]
FLOATS = [np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]

int_specials = [0, 1, 2, 127, 128, 255, 256, 464, 465, 2049, 32767, 32768, 61440, 65504, 65519, 65520, 65535,
                65536, 2**24 + 1, 2**24 + 2**16 + 1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**53 + 1, 2**63 - 1]
big_unsigned = [2**63, 2**63 + 1, 2**63 + 2**10, 2**63 + 2**10 + 1, 2**63 + 2**39, 2**63 + 2**39 + 1,
                2**64 - 1025, 2**64 - 1024, 2**64 - 1]
float_specials = [0.0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, 300.7, -300.7, 448.0, 464.0, 464.0 + 2**-30, 61440.0,
                  65504.0, 65519.99, 65520.0, 2.0**-24, 2.0**-25, 1.0 + 2**-11 + 2**-40, 2.0**31, 2.0**32 - 0.5,
                  2.0**32, 2.0**53 + 2, 2.0**63, 2.0**64 - 2048, 2.0**64, -2.0**63, 1e20, -1e20, 1e300, 5e-324,
                  np.inf, -np.inf, np.nan]


def sources(t):
    if t is np.bool_:
        return np.array([False, True] * 4, dtype=t)
    if t in INTS:
        info = np.iinfo(t)
        vals = [v for v in int_specials + [-v for v in int_specials] + big_unsigned if info.min <= v <= info.max]
        vals += [info.min, info.max, info.min + 1, info.max - 1]
        r = rng.integers(info.min, info.max, size=2000, dtype=t, endpoint=True)
        small = (r >> (rng.integers(0, info.bits, size=r.size).astype(t))).astype(t)  # every magnitude
        return np.concatenate([np.array(vals, dtype=t), r, small])
    if t in FLOATS:
        with np.errstate(over="ignore"):
            exps = rng.integers(-30, 70, size=4000)
            r = np.ldexp(rng.uniform(-1, 1, size=4000), exps)
            return np.concatenate([np.array(float_specials), r]).astype(t)
    parts = sources(np.float32 if t is np.complex64 else np.float64)
    c = np.empty(parts.size, dtype=t)
    c.real = parts
    c.imag = rng.permutation(parts)
    return c


def same(got, want):
    """Elementwise: equal bits, or both NaN (either sign)."""
    if got.dtype.kind in "fc":
        if got.dtype.kind == "c":
            return same(got.real.copy(), want.real.copy()) & same(got.imag.copy(), want.imag.copy())
        bits = {2: np.uint16, 4: np.uint32, 8: np.uint64}[got.dtype.itemsize]
        return (got.view(bits) == want.view(bits)) | (np.isnan(got) & np.isnan(want))
    return got == want


def defined_in_numpy(src, dst_type):
    """The elements whose conversion NumPy defines."""
    keep = np.ones(src.size, dtype=bool)
    if dst_type in INTS and src.dtype.kind in "fc":
        x = src.real.astype(np.longdouble)  # exact for every float16/32/64
        info = np.iinfo(dst_type)
        with np.errstate(invalid="ignore"):
            t = np.trunc(x)
            keep = np.isfinite(x) & (t >= info.min) & (t <= info.max)
    return keep


bad = 0
pairs = 0
for st in DTYPES:
    src = sources(st)
    for dt in DTYPES:
        pairs += 1
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ComplexWarning, overflow and invalid casts
            with np.errstate(all="ignore"):
                want = src.astype(dt)
        got = stride_astype(src, dt)
        keep = defined_in_numpy(src, dt)
        ok = same(got, want) | ~keep
        if not ok.all():
            i = int(np.argmin(ok))
            bad += 1
            print("%s -> %s: %d of %d elements differ, first %r -> stride %r, numpy %r" % (
                np.dtype(st).name, np.dtype(dt).name, int((~ok).sum()), src.size, src[i], got[i], want[i]))
print("%d pairs compared with NumPy, %d differ" % (pairs, bad))
sys.exit(1 if bad else 0)
