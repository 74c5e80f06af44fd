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
  for value, and constants named after a #define (and the SONAME in
  `libstride`) have its value;
- every dim argument (a C parameter named dim, dim0, dim1 or dims) goes
  through cdim/cdims, and st_select's index through cindex, which turn
  Julia's 1-based numbers into the C API's 0-based ones;
- Base's size, strides, similar, permutedims, copyto!, fill! and show are
  extended for Tensor;
- the library path is read at run time: ENV only inside __init__.
The header is read by stride_header.py, as the other binding checks read it.

Usage: check_julia_ccalls.py LIBRARY [HEADER] [JULIA_SRC_DIR]
Prints one line per problem and closes with "julia: N passed, N failed".
"""

import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stride_header  # noqa: E402

ROOT = stride_header.ROOT
C_STRUCTS = stride_header.STRUCTS

JULIA_SCALARS = {
    "Int32": "i32", "Cint": "i32", "UInt32": "u32", "Cuint": "u32", "Int64": "i64", "Clonglong": "i64",
    "UInt64": "u64", "Culonglong": "u64", "Csize_t": "size", "UInt": "size", "Cdouble": "f64",
    "Float64": "f64", "Cvoid": "void", "UInt8": "char", "Cchar": "char", "Cstring": ("ptr", "char"),
}
JULIA_STRUCTS = {"StTensor": "st_tensor", "StDevice": "st_device", "StAllocator": "st_allocator",
                 "StScaleShift": "st_scale_shift", "StCopyPlan": "st_copy_plan"}
# Julia enum type -> (C enum type name, prefix of its C values)
JULIA_ENUMS = {"DType": ("st_dtype", "ST_"), "DeviceType": ("st_device_type", "ST_DEVICE_"),
               "MemoryFormat": ("st_memory_format", "ST_MEMORY_FORMAT_")}
# C parameters that hold dims or indices, and the Julia helper each must go through (Note [Dims are 1-based]).
ONE_BASED = {"dim": "cdim", "dim0": "cdim", "dim1": "cdim", "dims": "cdims"}
ONE_BASED_BY_FUNCTION = {("st_select", "index"): "cindex"}
BASE_METHODS = ("size", "strides", "similar", "permutedims", "copyto!", "fill!", "show")


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def ok(self):
        self.passed += 1

    def fail(self, where, what):
        self.failed += 1
        print(f"FAIL {where}: {what}")


def plain(t):
    """A header type with pointers to const read as plain pointers (Julia's Ptr and Ref have no const)."""
    if isinstance(t, tuple):
        return ("ptr", plain(t[1]))
    return t


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
        yield line, target.group(1), parts[1], types, parts[3:]


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


def check_surface(source, defines, checks):
    """The Julia-facing rules: Base methods, constants from the header, the library read at run time."""
    for method in BASE_METHODS:
        if re.search(rf"^(?:function )?Base\.{re.escape(method)}\([^)\n]*::Tensor\b", source, re.M):
            checks.ok()
        else:
            checks.fail(f"Base.{method}", "not extended for Tensor")
    soname = re.search(r'^const libstride = "libstride\.so\.(\d+)"$', source, re.M)
    if soname and int(soname.group(1)) == defines["ST_VERSION_MAJOR"]:
        checks.ok()
    else:
        checks.fail("libstride", f"must be the SONAME \"libstride.so.{defines['ST_VERSION_MAJOR']}\" "
                                 f"(ST_VERSION_MAJOR), a constant for ccall")
    for name, value in re.findall(r"^const (\w+) = (-?\d+)\s*$", source, re.M):
        if f"ST_{name}" in defines:
            if int(value) == defines[f"ST_{name}"]:
                checks.ok()
            else:
                checks.fail(name, f"is {value}; stride.h defines ST_{name} as {defines['ST_' + name]}")
    init = re.search(r"^function __init__\(\)\n(.*?)^end", source, re.S | re.M)
    outside = source.replace(init.group(0), "") if init else source
    outside = re.sub(r"#[^\n]*", "", re.sub(r'""".*?"""', "", outside, flags=re.S))  # code only
    if init and "STRIDE_LIBRARY" in init.group(1) and not re.search(r"\bENV\b", outside):
        checks.ok()
    else:
        checks.fail("__init__", "the library path must be read from ENV[\"STRIDE_LIBRARY\"] in __init__ "
                                "(at run time), and ENV nowhere else")


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
    header_text = stride_header.read(header)
    declared = {name: (plain(ret), [(plain(t), n) for t, n in params])
                for name, (ret, params) in stride_header.declarations(header_text).items()}
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
        for line, name, ret_text, arg_texts, values in ccalls(text):
            n_values = None if values is None else len(values)
            where = f"{path}:{line}"
            if name is None or arg_texts is None:
                checks.fail(where, f"a ccall this check cannot read: {ret_text!r}")
                continue
            where = f"{where} {name}"
            called.add(name)
            if name not in declared:
                checks.fail(where, "not a function of the C API (stride.h declares no such function)")
                continue
            ret, params = declared[name]
            args = [t for t, _ in params]
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
            for (_, pname), value in zip(params, values):
                helper = ONE_BASED_BY_FUNCTION.get((name, pname), ONE_BASED.get(pname))
                if helper is None:
                    continue
                if re.match(rf"{helper}\(", value):
                    checks.ok()
                else:
                    checks.fail(where, f"{pname} is passed as {value!r}, not through {helper}() (1-based to 0-based)")

    for name in sorted(set(declared) - called):
        checks.fail(name, "declared in stride.h but no ccall wraps it")

    c_structs = {k: [plain(t) for t, _ in v] for k, v in stride_header.structs(header_text).items()}
    c_enums = stride_header.enums(header_text)
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

    check_surface(all_julia, stride_header.defines(header_text), checks)

    print(f"julia: {checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
