"""st_tensor_format against NumPy's numpy.array2string of the same values,
through the C API with ctypes: NumPy's text is the reference, computed
apart from the library.

The arrays: the 14 dtypes NumPy shares with stride over 0-d, empty, 1-d
and n-d shapes and shapes beyond the summarizing threshold; negative
zeros, NaN and infinities, subnormals, the extremes of each dtype; every
float16 value (one exponent and sign to an array, so both notations
appear); random float32 and float64 values over spans of magnitudes that
lead NumPy to either notation; complex numbers; strided views made by
st_flip, st_slice, st_permute and st_as_strided (negative and zero
strides) against the same views in NumPy; 14 summarized dims; bfloat16, float8_e4m3fn and
float8_e5m2 tensors against NumPy's float32 array of the values they hold
(decoded from their bits here); and st_format_options against NumPy's
precision, edgeitems, threshold and max_line_width.

Usage: test_numpy_format.py LIBSTRIDE. Exit 77 (skipped) when NumPy is
missing. Set ST_TEST_SEED to change the random values."""
import ctypes
import sys

from stride_ctypes import np, CPU, DTYPES, I64P, Device, Tensor, check, dims, lib, random_generator, wrap


class FormatOptions(ctypes.Structure):
    _fields_ = [("struct_size", ctypes.c_size_t), ("precision", ctypes.c_int32), ("edgeitems", ctypes.c_int32),
                ("threshold", ctypes.c_int64), ("linewidth", ctypes.c_int32)]


BFLOAT16, FLOAT8_E4M3FN, FLOAT8_E5M2 = 7, 15, 16  # st_dtype values NumPy has no type for
OUT_OF_BOUNDS = 8

lib.st_tensor_create.argtypes = [I64P, ctypes.c_int32, ctypes.c_int32, Device, ctypes.POINTER(Tensor)]
lib.st_tensor_data_ptr.argtypes = [Tensor, ctypes.POINTER(ctypes.c_void_p)]
lib.st_flip.argtypes = [Tensor, ctypes.c_int32, ctypes.POINTER(Tensor)]
lib.st_slice.argtypes = [Tensor, ctypes.c_int32, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64,
                         ctypes.POINTER(Tensor)]
lib.st_permute.argtypes = [Tensor, ctypes.POINTER(ctypes.c_int32), ctypes.c_int32, ctypes.POINTER(Tensor)]
lib.st_as_strided.argtypes = [Tensor, I64P, I64P, ctypes.c_int32, ctypes.c_int64, ctypes.POINTER(Tensor)]
lib.st_tensor_format.argtypes = [Tensor, ctypes.POINTER(FormatOptions), ctypes.c_char_p, ctypes.c_size_t,
                                 ctypes.POINTER(ctypes.c_size_t)]


def view(fn, t, *args):
    out = Tensor()
    check(fn(t, *args, ctypes.byref(out)))
    return out


def stride_text(t, opts=None):
    needed = ctypes.c_size_t()
    o = ctypes.byref(opts) if opts is not None else None
    status = lib.st_tensor_format(t, o, None, 0, ctypes.byref(needed))
    assert status == OUT_OF_BOUNDS, lib.st_last_error_message().decode()
    buf = ctypes.create_string_buffer(needed.value)
    again = ctypes.c_size_t()
    check(lib.st_tensor_format(t, o, buf, needed.value, ctypes.byref(again)))
    assert again.value == needed.value
    return buf.value.decode()


OPTION_SETS = [None, (3, 2, 10, 40), (1, 1, 5, 20), (12, 4, 50, 120), (17, 3, 1000, 10), (5, 1, 100000, 75)]


def options(which):
    """(st_format_options or None, NumPy's keyword arguments)."""
    if which is None:
        return None, {}
    precision, edgeitems, threshold, linewidth = which
    o = FormatOptions(ctypes.sizeof(FormatOptions), precision, edgeitems, threshold, linewidth)
    return o, dict(precision=precision, edgeitems=edgeitems, threshold=threshold, max_line_width=linewidth)


failures = 0
compared = 0


def compare(t, expected_array, what, which=None):
    global failures, compared
    opts, kwargs = options(which)
    want = np.array2string(expected_array, **kwargs)
    got = stride_text(t, opts)
    compared += 1
    if got != want:
        failures += 1
        if failures <= 20:
            print(f"MISMATCH {what}, options {which}:\n--- NumPy\n{want}\n--- stride\n{got}\n")


rng = random_generator(20261201)

FLOATS = [np.float16, np.float32, np.float64]
INTS = [np.uint8, np.int8, np.int16, np.int32, np.int64, np.uint16, np.uint32, np.uint64]


def float_values(t, n):
    """Special values, then random ones of magnitudes within a random span."""
    info = np.finfo(t)
    specials = np.array([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0, -1.5, float(info.max), float(-info.max),
                         float(info.tiny), float(info.tiny) / 4, 0.1, 1e-4, 1e8, 123456.789], dtype=np.float64)
    low = rng.integers(int(np.log10(float(info.tiny))), int(np.log10(float(info.max))))
    span = rng.integers(0, 12)
    with np.errstate(over="ignore"):
        r = rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(low, low + span, n)
        if rng.random() < 0.5:
            return r.astype(t)
        return np.concatenate([specials[rng.integers(0, len(specials), rng.integers(0, 4))], r]).astype(t)


def int_values(t, n):
    info = np.iinfo(t)
    return np.concatenate([np.array([info.min, info.max, 0], dtype=t),
                           rng.integers(info.min, info.max, n, dtype=t, endpoint=True) >> rng.integers(0, info.bits)])


def values_of(t, n):
    if t is np.bool_:
        return rng.random(n) < 0.5
    if t in INTS:
        return int_values(t, n)[:n]
    if t in FLOATS:
        return float_values(t, n)[:n]
    part = np.float32 if t is np.complex64 else np.float64
    c = np.empty(n, dtype=t)
    c.real = float_values(part, n)[:n]
    c.imag = float_values(part, n)[:n]
    return c


SHAPES = [(), (0,), (2, 0, 3), (1,), (7,), (3, 4), (2, 3, 4), (2, 1, 3, 1, 2), (1001,), (2, 1000), (11, 11, 11),
          (3, 400), (40, 40)]


def every_dtype_and_shape():
    for t in DTYPES:
        for shape in SHAPES:
            n = int(np.prod(shape))
            a = np.ascontiguousarray(values_of(t, max(n, 1))[:n].reshape(shape))
            x = wrap(a)
            for which in OPTION_SETS:
                compare(x, a, f"{np.dtype(t).name} {shape}", which)
            lib.st_tensor_release(x)


def every_float16():
    bits = np.arange(65536, dtype=np.uint16).reshape(64, 1024)
    for row in bits:
        a = row.view(np.float16).copy()
        x = wrap(a)
        compare(x, a, f"float16 bits {int(row[0]):#06x}..", (8, 3, 2000, 75))
        lib.st_tensor_release(x)


def random_floats():
    for _ in range(300):
        for t in (np.float32, np.float64):
            a = float_values(t, int(rng.integers(1, 25)))
            x = wrap(a)
            compare(x, a, f"{np.dtype(t).name} {a.tolist()}", OPTION_SETS[int(rng.integers(0, len(OPTION_SETS)))])
            lib.st_tensor_release(x)


def strided_views():
    for t in (np.float64, np.int16, np.complex64, np.bool_):
        a = np.ascontiguousarray(values_of(t, 3 * 4 * 5).reshape(3, 4, 5))
        x = wrap(a)
        flipped0 = view(lib.st_flip, x, 0)
        perm = (ctypes.c_int32 * 3)(2, 0, 1)
        repeated = np.lib.stride_tricks.as_strided(a.reshape(-1)[40:], (4, 3, 2), (0, -20 * a.itemsize, a.itemsize))
        cases = [
            (view(lib.st_flip, x, 2), a[:, :, ::-1], "flip(2)"),
            (view(lib.st_flip, flipped0, 1), a[::-1, ::-1], "flip(0) then flip(1)"),
            (view(lib.st_slice, x, 1, 0, 4, 2), a[:, 0:4:2], "slice(1, 0, 4, 2)"),
            (view(lib.st_permute, x, perm, 3), a.transpose(2, 0, 1), "permute(2, 0, 1)"),
            (view(lib.st_as_strided, x, dims([4, 3, 2]), dims([0, -20, 1]), 3, 40), repeated,
             "as_strided strides (0, -20, 1) from element 40"),
        ]
        for v, expected, what in cases:
            compare(v, expected, f"{np.dtype(t).name} {what}")
            lib.st_tensor_release(v)
        lib.st_tensor_release(flipped0)
        lib.st_tensor_release(x)
    # A summarized view with negative strides.
    a = np.arange(3000, dtype=np.int64).reshape(3, 1000)
    x = wrap(a)
    flipped1 = view(lib.st_flip, x, 1)
    v = view(lib.st_flip, flipped1, 0)
    compare(v, a[::-1, ::-1], "int64 (3, 1000) flipped along both dims")
    for t in (v, flipped1, x):
        lib.st_tensor_release(t)


def many_dims():
    """14 summarized dims: split in two each, they would take more dims than a view may have (25)."""
    a = (np.arange(3 ** 14) % 251 - 125).astype(np.int8).reshape((3,) * 14)
    x = wrap(a)
    compare(x, a, "int8 of shape (3,) * 14", (8, 1, 1000, 75))
    lib.st_tensor_release(x)


def decode_float8_e4m3fn(b):
    b = b.astype(np.int64)
    sign = np.where(b & 0x80, -1.0, 1.0)
    e, m = (b >> 3) & 0xF, b & 0x7
    v = np.where(e == 0, m * 2.0 ** -9, (8 + m) * 2.0 ** (e - 10))
    return np.where((b & 0x7F) == 0x7F, np.nan, sign * v).astype(np.float32)


def narrow_floats():
    """bfloat16 and float8 tensors print as the float32 arrays of the values they hold."""
    decode = {
        BFLOAT16: (np.uint16, lambda b: (b.astype(np.uint32) << 16).view(np.float32)),
        FLOAT8_E4M3FN: (np.uint8, decode_float8_e4m3fn),
        FLOAT8_E5M2: (np.uint8, lambda b: (b.astype(np.uint16) << 8).view(np.float16).astype(np.float32)),
    }
    for dtype, (bits_type, decoder) in decode.items():
        for n in (1, 6, 40, 1500):
            src = float_values(np.float32, n)[:n] if dtype == BFLOAT16 else rng.uniform(-500, 500, n).astype(np.float32)
            if n == 6:
                src = np.array([0.1, -0.0, np.nan, np.inf, -3.25, 1e-3], dtype=np.float32)
            s = wrap(src)
            x = Tensor()
            check(lib.st_tensor_create(dims([n]), 1, dtype, CPU, ctypes.byref(x)))
            check(lib.st_copy(x, s, 0))
            p = ctypes.c_void_p()
            check(lib.st_tensor_data_ptr(x, ctypes.byref(p)))
            bits = np.ctypeslib.as_array((ctypes.c_uint8 * (n * np.dtype(bits_type).itemsize)).from_address(p.value))
            values = decoder(bits.view(bits_type).copy())
            for which in (None, (4, 2, 20, 50)):
                compare(x, values, f"dtype {dtype}, {n} values", which)
            lib.st_tensor_release(x)
            lib.st_tensor_release(s)


every_dtype_and_shape()
every_float16()
random_floats()
strided_views()
many_dims()
narrow_floats()
print(f"{compared} texts compared with NumPy {np.__version__}, {failures} differ")
sys.exit(1 if failures else 0)
