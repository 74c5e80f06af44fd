"""Reads include/stride.h: the one parser of the header.

tools/gen_bindings.py writes every binding's raw layer (Python's ctypes
signatures, Rust's stride-sys, Go's constants, Julia's ccalls) from what
this module reads, so a function, enum value, struct field or constant
added to the header reaches every binding by a regeneration.

Types come back in a canonical form: a scalar name ('i32', 'u32', 'i64',
'u64', 'size', 'f32', 'f64', 'void', 'char'); ('enum', name) for an enum, which the
header's static assertions make an int32_t; ('fnptr', name) for a function
pointer typedef; ('fn', return type, parameters) for a function pointer
written in place (a struct field); a struct name ('st_tensor',
'DLManagedTensor', ...); ('ptr', inner) for a pointer and ('cptr', inner)
for a pointer to const. Parameters are lists of (type, name).

The dtype facts the header does not state (name, item size, kind, DLPack
code) come from the core's dtype table, src/core/numeric/dtype.h's ST_FORALL_DTYPES
(Note [The dtype table]); dtypes() checks that it lists the header's
st_dtype values, in order.
"""

import os
import re
from typing import NamedTuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "stride.h")
DTYPE_TABLE = os.path.join(ROOT, "src", "core", "numeric", "dtype.h")

SCALARS = {
    "int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64", "size_t": "size",
    "float": "f32", "double": "f64", "void": "void", "char": "char",
}
# Structs the header uses through pointers only and does not define (DLPack's).
OPAQUE_STRUCTS = {"DLManagedTensor", "DLManagedTensorVersioned"}


class Header(NamedTuple):
    defines: dict  # ST_NAME -> int, in header order
    enums: dict  # enum name -> {constant: value}, in header order
    structs: dict  # struct name -> [(type, field name)]
    callbacks: dict  # function pointer typedef -> (return type, parameters)
    functions: dict  # ST_API function -> (return type, parameters), in header order


class DType(NamedTuple):
    constant: str  # ST_FLOAT32
    value: int  # its st_dtype value
    name: str  # "float32", what st_dtype_name() answers
    itemsize: int  # bytes per element
    kind: str  # 'b' (bool), 'u', 'i', 'f', 'c' or 'V' (packed values: float4_e2m1fn_x2), as NumPy's dtype.kind
    dlpack_code: int  # DLPack's DLDataTypeCode
    dlpack_bits: int


def read(path=HEADER):
    with open(path) as f:
        return f.read()


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


class _Types:
    """The names of the header's own types, to read a C type written with them."""

    def __init__(self, text):
        self.enums = set(re.findall(r"typedef enum (\w+)\s*\{", text))
        self.structs = set(re.findall(r"typedef struct (\w+)\s*\{", text)) | OPAQUE_STRUCTS
        self.callbacks = set(re.findall(r"typedef\s+[^;{}]*?\(\s*\*\s*(\w+)\s*\)\s*\(", text))

    def c_type(self, text):
        """The canonical form of a C type written as `text` (no name)."""
        const = bool(re.search(r"\bconst\b", text))
        text = re.sub(r"\b(const|struct)\b", " ", text).strip()
        stars = text.count("*")
        base = text.replace("*", " ").split()
        if len(base) != 1:
            raise ValueError(f"cannot read the C type {text!r}")
        name = base[0]
        if name in self.callbacks:
            t = ("fnptr", name)
        elif name in SCALARS:
            t = SCALARS[name]
        elif name in self.enums:
            t = ("enum", name)
        elif name in self.structs:
            t = name
        else:
            raise ValueError(f"unknown C type {name!r}")
        for i in range(stars):
            # `const T*` is a pointer to const T; further stars point at pointers
            t = ("cptr" if const and i == 0 else "ptr", t)
        return t

    def parameter(self, text):
        """(type, name) of one parameter such as `const int64_t* sizes`; name None when unnamed."""
        m = re.match(r"(.*[\s*])(\w+)\s*$", text)
        if m and m.group(2) not in SCALARS and m.group(1).strip():
            return self.c_type(m.group(1)), m.group(2)
        return self.c_type(text), None

    def parameters(self, text):
        text = " ".join(text.split())
        if not text or text == "void":
            return []
        return [self.parameter(p.strip()) for p in text.split(",")]


def parse(text=None):
    """Everything the bindings mirror, read from the header's text (default: include/stride.h)."""
    raw = read() if text is None else text
    text = _strip_comments(raw)
    types = _Types(text)

    defines = {k: int(v) for k, v in re.findall(r"^\s*#\s*define\s+(ST_\w+)\s+(-?\d+)\s*$", raw, re.M)}

    enums = {}
    for m in re.finditer(r"typedef enum (\w+)\s*\{(.*?)\}\s*\w+\s*;", text, re.S):
        enums[m.group(1)] = {k: int(v) for k, v in re.findall(r"(\w+)\s*=\s*(-?\d+)", m.group(2))}

    callbacks = {}
    for m in re.finditer(r"typedef\s+([^;{}]*?)\(\s*\*\s*(\w+)\s*\)\s*\(([^)]*)\)\s*;", text):
        callbacks[m.group(2)] = (types.c_type(m.group(1)), types.parameters(m.group(3)))

    structs = {}
    for m in re.finditer(r"typedef struct (\w+)\s*\{(.*?)\}\s*\w+\s*;", text, re.S):
        fields = []
        for decl in m.group(2).split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            fp = re.fullmatch(r"(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)", decl)
            if fp:  # a function pointer written in place
                fields.append((("fn", types.c_type(fp.group(1)), types.parameters(fp.group(3))), fp.group(2)))
            else:
                fields.append(types.parameter(decl))
        structs[m.group(1)] = fields

    functions = {}
    for m in re.finditer(r"\bST_API\s+([^;{]*?)\b(st_\w+)\s*\(([^)]*)\)\s*;", text, re.S):
        ret, name, params = m.groups()
        functions[name] = (types.c_type(ret), types.parameters(params))
    return Header(defines, enums, structs, callbacks, functions)


# ---- the dtype facts of the core's table ------------------------------------------

_KINDS = {"Bool": "b", "Unsigned": "u", "Signed": "i", "Float": "f", "Complex": "c", "Packed": "V"}


def dtypes(header=None, table_text=None):
    """One DType per st_dtype value, in header order, with the core table's facts.

    ValueError when src/core/numeric/dtype.h's ST_FORALL_DTYPES does not list exactly
    the header's st_dtype constants, in order.
    """
    header = parse() if header is None else header
    table_text = read(DTYPE_TABLE) if table_text is None else table_text
    table_text = table_text.replace("\\\n", " ")  # the macro's rows continue over lines
    codes = {k: int(v) for k, v in re.findall(r"^#define (ST_DLPACK_\w+) (\d+)\s*$", table_text, re.M)}
    rows = re.findall(r"_\(\s*\w+\s*,[^,]+,\s*(ST_\w+)\s*,\s*\"(\w+)\"\s*,\s*(\d+)\s*,\s*(ST_DLPACK_\w+)\s*,"
                      r"\s*(\d+)\s*,\s*(\w+)\s*,", table_text)
    values = header.enums["st_dtype"]
    if [r[0] for r in rows] != list(values):
        raise ValueError(f"{DTYPE_TABLE}: ST_FORALL_DTYPES lists {[r[0] for r in rows]}; "
                         f"st_dtype in the header lists {list(values)}")
    return [DType(c, values[c], name, int(size), _KINDS[kind], codes[code], int(bits))
            for c, name, size, code, bits, kind in rows]
