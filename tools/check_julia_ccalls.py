#!/usr/bin/env python3
"""Checks the Julia binding against the C header and the built library.

No Julia can run here, so this reads bindings/julia/src/*.jl instead:
- every ccall names a symbol the library exports (nm -D),
- passes as many values as its type tuple lists,
- and its return and argument types match the declaration in
  include/stride.h (C enums are 32-bit integers; Ptr{Cvoid} stands for any
  pointer to a struct or a function);
- every function the header declares is called somewhere;
- the Julia structs and enums mirror the C ones field for field and value
  for value.

Usage: check_julia_ccalls.py LIBRARY [HEADER] [JULIA_SRC_DIR]
Prints one line per problem and closes with "julia: N passed, N failed".
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

C_SCALARS = {
    "int32_t": "i32", "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64", "size_t": "size",
    "double": "f64", "void": "void", "char": "char",
    # enums are int32_t by the header's static assertions
    "st_status": "i32", "st_dtype": "i32", "st_memory_format": "i32", "st_device_type": "i32",
}
C_FUNCTION_POINTERS = {"st_deleter", "st_trace_fn", "st_parallel_for_fn", "st_parallel_task"}
C_STRUCTS = {"st_tensor", "st_device", "st_allocator", "st_api", "DLManagedTensor", "DLManagedTensorVersioned"}

JULIA_SCALARS = {
    "Int32": "i32", "Cint": "i32", "UInt32": "u32", "Cuint": "u32", "Int64": "i64", "Clonglong": "i64",
    "UInt64": "u64", "Culonglong": "u64", "Csize_t": "size", "UInt": "size", "Cdouble": "f64",
    "Float64": "f64", "Cvoid": "void", "UInt8": "char", "Cchar": "char", "Cstring": ("ptr", "char"),
}
JULIA_STRUCTS = {"StTensor": "st_tensor", "StDevice": "st_device", "StAllocator": "st_allocator"}
# Julia enum type -> (C enum type name, prefix of its C values)
JULIA_ENUMS = {"DType": ("st_dtype", "ST_"), "DeviceType": ("st_device_type", "ST_DEVICE_"),
               "MemoryFormat": ("st_memory_format", "ST_MEMORY_FORMAT_")}


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def ok(self):
        self.passed += 1

    def fail(self, where, what):
        self.failed += 1
        print(f"FAIL {where}: {what}")


# ---- C side --------------------------------------------------------------------

def c_type(text):
    """Canonical form of a C type: 'i32', ('ptr', inner), 'fnptr' or a struct name."""
    text = re.sub(r"\b(const|struct)\b", " ", text).strip()
    stars = text.count("*")
    base = text.replace("*", " ").split()
    if not base:
        raise ValueError(f"no type in {text!r}")
    name = base[0]
    if name in C_FUNCTION_POINTERS:
        t = "fnptr"
    elif name in C_SCALARS:
        t = C_SCALARS[name]
    elif name in C_STRUCTS:
        t = name
    else:
        raise ValueError(f"unknown C type {name!r}")
    for _ in range(stars):
        t = ("ptr", t)
    return t


def parse_prototype(text):
    """(name, return type, [argument types]) of 'ret name(type a, type b)'."""
    m = re.match(r"\s*(.+?)\b(st_\w+)\s*\((.*)\)\s*$", text, re.S)
    if not m:
        raise ValueError(f"not a prototype: {text!r}")
    ret, name, params = m.groups()
    args = []
    params = params.strip()
    if params and params != "void":
        for p in params.split(","):
            p = p.strip()
            # drop the parameter's name: the last identifier not part of the type
            p = re.sub(r"\b(\w+)\s*$", "", p) if re.search(r"[\w*]\s+\w+\s*$", p) else p
            args.append(c_type(p))
    return name, c_type(ret), args


def header_declarations(header_text):
    decls = {}
    for m in re.finditer(r"ST_API\s+([^;{]*?\))\s*;", header_text, re.S):
        name, ret, args = parse_prototype(m.group(1))
        decls[name] = (ret, args)
    return decls


def header_structs(header_text):
    """C typedef structs of the header: name -> [field types]."""
    out = {}
    for m in re.finditer(r"typedef struct (\w+)\s*\{(.*?)\}\s*\w+\s*;", header_text, re.S):
        fields = []
        body = re.sub(r"/\*.*?\*/", "", m.group(2), flags=re.S)
        for decl in body.split(";"):
            decl = decl.strip()
            if not decl:
                continue
            if "(" in decl:  # a function pointer field
                fields.append("fnptr")
            else:
                fields.append(c_type(re.sub(r"\b\w+\s*$", "", decl)))
        out[m.group(1)] = fields
    return out


def header_enums(header_text):
    out = {}
    for m in re.finditer(r"typedef enum (\w+)\s*\{(.*?)\}\s*\w+\s*;", header_text, re.S):
        body = re.sub(r"/\*.*?\*/", "", m.group(2), flags=re.S)
        out[m.group(1)] = {k: int(v) for k, v in re.findall(r"(\w+)\s*=\s*(-?\d+)", body)}
    return out


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            names.add(parts[2].split("@")[0])
    return names


# ---- Julia side ------------------------------------------------------------------

def split_top_level(text):
    """Splits at commas outside (), {} and []."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def balanced(text, start):
    """Index just past the bracket that closes the one at text[start]."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "({[":
            depth += 1
        elif text[i] in ")}]":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced brackets")


def julia_type(text):
    text = text.strip()
    m = re.fullmatch(r"(Ptr|Ref)\{(.+)\}", text)
    if m:
        return ("ptr", julia_type(m.group(2)))
    if text in JULIA_SCALARS:
        return JULIA_SCALARS[text]
    if text in JULIA_STRUCTS:
        return JULIA_STRUCTS[text]
    raise ValueError(f"unknown Julia type {text!r}")


def ccalls(source):
    """(line, name, return type text, [arg type texts], number of values passed)."""
    for m in re.finditer(r"ccall\(", source):
        start = m.end() - 1
        end = balanced(source, start)
        parts = split_top_level(source[start + 1:end - 1])
        line = source.count("\n", 0, m.start()) + 1
        target = re.fullmatch(r"\(\s*:(\w+)\s*,\s*libstride\s*\)", parts[0])
        if not target or len(parts) < 3:
            yield line, None, parts, None, None
            continue
        tuple_text = parts[2].strip()
        if not (tuple_text.startswith("(") and tuple_text.endswith(")")):
            yield line, target.group(1), parts, None, None
            continue
        types = split_top_level(tuple_text[1:-1])
        yield line, target.group(1), parts[1], types, len(parts) - 3


def julia_structs(source):
    out = {}
    for m in re.finditer(r"^struct (\w+)\n(.*?)^end", source, re.S | re.M):
        fields = re.findall(r"^\s+\w+::(\S+)\s*$", m.group(2), re.M)
        out[m.group(1)] = fields
    return out


def julia_enums(source):
    out = {}
    for m in re.finditer(r"@enum (\w+)::Int32 begin\n(.*?)\n\s*end", source, re.S):
        out[m.group(1)] = {k: int(v) for k, v in re.findall(r"(\w+)\s*=\s*(-?\d+)", m.group(2))}
    return out


# ---- comparing -------------------------------------------------------------------

def compatible(j, c):
    if j == c:
        return True
    if c == "fnptr":
        return j == ("ptr", "void")
    if isinstance(j, tuple) and isinstance(c, tuple):
        ji, ci = j[1], c[1]
        if ji == "void":  # Ptr{Cvoid}: any pointer to a struct, a function or a pointer
            return ci == "void" or ci in C_STRUCTS or ci == "fnptr" or isinstance(ci, tuple)
        return compatible(ji, ci)
    return False


def show(t):
    if isinstance(t, tuple):
        return show(t[1]) + "*"
    return t


def main(argv):
    library = argv[1] if len(argv) > 1 else os.environ.get("STRIDE_LIBRARY")
    if not library:
        print(__doc__)
        return 2
    header = argv[2] if len(argv) > 2 else os.path.join(ROOT, "include", "stride.h")
    src_dir = argv[3] if len(argv) > 3 else os.path.join(ROOT, "bindings", "julia", "src")
    header_text = open(header).read()
    declared = header_declarations(header_text)
    exported = exported_symbols(library)
    checks = Checks()

    sources = {}
    for root, _, files in os.walk(src_dir):
        for f in sorted(files):
            if f.endswith(".jl"):
                path = os.path.join(root, f)
                sources[os.path.relpath(path, ROOT)] = open(path).read()
    if not sources:
        checks.fail(src_dir, "no Julia sources")

    called = set()
    for path, text in sources.items():
        for line, name, ret_text, arg_texts, n_values in ccalls(text):
            where = f"{path}:{line}"
            if name is None or arg_texts is None:
                checks.fail(where, f"a ccall this check cannot read: {ret_text!r}")
                continue
            where = f"{where} {name}"
            called.add(name)
            if name not in declared:
                checks.fail(where, "not a function of the C API (stride.h declares no such function)")
                continue
            ret, args = declared[name]
            if name in exported:
                checks.ok()
            else:
                checks.fail(where, "declared in stride.h but not exported by the library")
            if n_values == len(arg_texts):
                checks.ok()
            else:
                checks.fail(where, f"passes {n_values} values for {len(arg_texts)} argument types")
            if len(arg_texts) != len(args):
                checks.fail(where, f"{len(arg_texts)} argument types; the C function takes {len(args)}")
                continue
            try:
                jret = julia_type(ret_text)
                jargs = [julia_type(a) for a in arg_texts]
            except ValueError as e:
                checks.fail(where, str(e))
                continue
            if compatible(jret, ret) or (ret == ("ptr", "char") and jret == ("ptr", "char")):
                checks.ok()
            else:
                checks.fail(where, f"returns {ret_text}; C returns {show(ret)}")
            for i, (j, c, text) in enumerate(zip(jargs, args, arg_texts)):
                if compatible(j, c):
                    checks.ok()
                else:
                    checks.fail(where, f"argument {i + 1} is {text}; C takes {show(c)}")

    for name in sorted(set(declared) - called):
        checks.fail(name, "declared in stride.h but no ccall wraps it")

    c_structs = header_structs(header_text)
    c_enums = header_enums(header_text)
    all_julia = "\n".join(sources.values())
    for jname, fields in julia_structs(all_julia).items():
        cname = JULIA_STRUCTS.get(jname)
        if cname is None:
            continue
        try:
            jfields = [julia_type(f) for f in fields]
        except ValueError as e:
            checks.fail(jname, str(e))
            continue
        cfields = c_structs.get(cname)
        if cfields is not None and len(jfields) == len(cfields) and all(
                compatible(j, c) for j, c in zip(jfields, cfields)):
            checks.ok()
        else:
            checks.fail(jname, f"fields {fields} do not mirror {cname} {cfields}")
    for jname, values in julia_enums(all_julia).items():
        if jname not in JULIA_ENUMS:
            continue
        cname, prefix = JULIA_ENUMS[jname]
        want = {k[len(prefix):]: v for k, v in c_enums.get(cname, {}).items()}
        if values == want:
            checks.ok()
        else:
            checks.fail(jname, f"values {values} differ from {cname} {want}")

    print(f"julia: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
