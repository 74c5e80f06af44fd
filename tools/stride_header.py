"""Reads include/stride.h: the one parser the binding checks share.

The bindings' raw layers (Python's ctypes signatures, Rust's stride-sys,
Julia's ccalls) are checked against what this module reads from the header,
so a function, enum value or constant added to the header shows up as a
failing check in every binding that lacks it.

Types come back in a canonical form: a scalar name ('i32', 'u32', 'i64',
'u64', 'size', 'f64', 'void', 'char'), a struct name ('st_tensor',
'DLManagedTensor', ...), 'fnptr' for a function pointer typedef, or
('ptr', inner) for a pointer; ('cptr', inner) is a pointer to const. The
header's static assertions make every enum an int32_t, so enums read as 'i32'.
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER = os.path.join(ROOT, "include", "stride.h")

SCALARS = {
    "int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64", "size_t": "size",
    "double": "f64", "void": "void", "char": "char",
}
FUNCTION_POINTERS = {"st_deleter", "st_trace_fn", "st_parallel_for_fn", "st_parallel_task"}
STRUCTS = {"st_tensor", "st_device", "st_allocator", "st_scale_shift", "st_copy_plan", "st_api", "DLManagedTensor",
           "DLManagedTensorVersioned"}


def read(path=HEADER):
    with open(path) as f:
        return f.read()


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def enum_names(text):
    return set(re.findall(r"typedef enum (\w+)\s*\{", text))


def c_type(text, enums=()):
    """The canonical form of a C type written as `text` (no parameter name)."""
    const = bool(re.search(r"\bconst\b", text))
    text = re.sub(r"\b(const|struct)\b", " ", text).strip()
    stars = text.count("*")
    base = text.replace("*", " ").split()
    if len(base) != 1:
        raise ValueError(f"cannot read the C type {text!r}")
    name = base[0]
    if name in FUNCTION_POINTERS:
        t = "fnptr"
    elif name in SCALARS:
        t = SCALARS[name]
    elif name in enums:
        t = "i32"
    elif name in STRUCTS:
        t = name
    else:
        raise ValueError(f"unknown C type {name!r}")
    for i in range(stars):
        # `const T*` is a pointer to const T; further stars point at pointers
        t = ("cptr" if const and i == 0 else "ptr", t)
    return t


def _parameter(text, enums):
    """(canonical type, name) of one parameter such as `const int64_t* sizes`."""
    m = re.match(r"(.*?[\w*\s])(\w+)\s*$", text)
    if m and re.search(r"[\w*]\s*$", m.group(1)) and m.group(2) not in SCALARS:
        type_text, name = m.group(1), m.group(2)
        try:
            return c_type(type_text, enums), name
        except ValueError:
            pass
    return c_type(text, enums), None


def declarations(text=None):
    """Every ST_API function: name -> (return type, [(parameter type, parameter name)]), in header order."""
    text = _strip_comments(read() if text is None else text)
    enums = enum_names(text)
    out = {}
    for m in re.finditer(r"\bST_API\s+([^;{]*?)\b(st_\w+)\s*\(([^)]*)\)\s*;", text, re.S):
        ret, name, params = m.groups()
        args = []
        params = " ".join(params.split())
        if params and params != "void":
            args = [_parameter(p.strip(), enums) for p in params.split(",")]
        out[name] = (c_type(ret, enums), args)
    return out


def enums(text=None):
    """Every typedef enum: name -> {constant: value}, in header order."""
    text = _strip_comments(read() if text is None else text)
    out = {}
    for m in re.finditer(r"typedef enum (\w+)\s*\{(.*?)\}\s*\w+\s*;", text, re.S):
        out[m.group(1)] = {k: int(v) for k, v in re.findall(r"(\w+)\s*=\s*(-?\d+)", m.group(2))}
    return out


def structs(text=None):
    """Every typedef struct: name -> [(field type, field name)]."""
    text = _strip_comments(read() if text is None else text)
    names = enum_names(text)
    out = {}
    for m in re.finditer(r"typedef struct (\w+)\s*\{(.*?)\}\s*\w+\s*;", text, re.S):
        fields = []
        for decl in m.group(2).split(";"):
            decl = " ".join(decl.split())
            if not decl:
                continue
            fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
            if fp:  # a function pointer field
                fields.append(("fnptr", fp.group(1)))
            else:
                fields.append(_parameter(decl, names))
        out[m.group(1)] = fields
    return out


def defines(text=None):
    """Every `#define ST_NAME <integer>`: name -> value."""
    text = read() if text is None else text
    return {k: int(v) for k, v in re.findall(r"^\s*#\s*define\s+(ST_\w+)\s+(-?\d+)\s*$", text, re.M)}
