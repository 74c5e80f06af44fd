#!/usr/bin/env python3
"""Checks the CUDA machine code stride ships, without a GPU.

1. The architectures: the .nv_fatbin section of libstride.so is read (its
   container and entry headers are plain) and the images it holds (SASS
   "sm_XY", PTX "compute_XY") must be exactly the build's list. With
   cuobjdump on PATH, its --list-elf --list-ptx must agree.
2. The vectorized kernels: the probe (kernel_code_probe.cu, the library's
   own kernel templates) is compiled to PTX with the library's flags; every
   vectorized conversion and the 16-byte copy and fill must load and store
   128 bits at a time (ld/st.global.v4.b32/u32/f32 or .v2.b64/u64/f64), and
   no kernel may declare local memory. ptxas then compiles that PTX for
   each SASS architecture of the build and of --also-sass (those a package
   builds, so that a build holding PTX alone checks them too) and must
   report 0 bytes of stack frame and spills.
3. The unrolled kernels (Note [Loads before stores] in
   cuda/kernels/copy_loops.h, Note [Warps over whole blocks] in
   cuda/kernels/block_warp_loops.h): the probe is compiled to PTX for sm_90
   too, and in each bytes, strided and scaled kernel the first kCopyUnroll
   elements' ld.global, in each block warp kernel the first kWarpUnroll
   pieces', must all come before its first st.global. The block warp kernels
   must load (quantize) or store (dequantize) 128 bits at a time.
4. With cuobjdump, when the library holds SASS: the same two checks on it
   (LDG.E.128 and STG.E.128 in the vectorized kernels, no LDL or STL
   anywhere).

Usage: check_kernel_code.py --lib LIB --images LIST --nvcc NVCC --probe CU
       [--also-sass 75,80,...] --include DIR [--include DIR ...]
Closes with "kernel code: N passed, N failed".
"""

import argparse
import re
import shutil
import struct
import subprocess
import sys
import tempfile

FATBIN_MAGIC = 0xBA55ED50


def fatbin_images(lib):
    data = open(lib, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise SystemExit(f"{lib} is not a 64-bit ELF file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = sections[shstrndx][4]

    def name(offset):
        end = data.index(b"\0", names_at + offset)
        return data[names_at + offset:end].decode()

    fatbin = [s for s in sections if name(s[0]) == ".nv_fatbin"]
    if not fatbin:
        return set(), 0
    blob = data[fatbin[0][4]:fatbin[0][4] + fatbin[0][5]]
    images, containers, pos = set(), 0, 0
    while pos + 16 <= len(blob):
        magic, _version, header, size = struct.unpack_from("<IHHQ", blob, pos)
        if magic != FATBIN_MAGIC:
            pos += 8  # containers are 8-byte aligned
            continue
        containers += 1
        entry, end = pos + header, pos + header + size
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", blob, entry)
            arch = struct.unpack_from("<I", blob, entry + 28)[0]
            images.add(("compute_" if kind == 1 else "sm_") + str(arch))
            entry += entry_header + payload
        pos = end
    return images, containers


class Results:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what):
        print(("ok    " if ok else "FAIL  ") + what)
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def ptx_entries(ptx):
    """{kernel name: body} of every .entry in a PTX text."""
    entries = {}
    for m in re.finditer(r"\.entry\s+(\S+)\s*\(", ptx):
        start = m.end()
        end = ptx.find(".entry", start)
        entries[m.group(1)] = ptx[start:end if end >= 0 else len(ptx)]
    return entries


WIDE_LOAD = re.compile(r"ld\.global(\.[a-z]+)*\.(v4\.(b32|u32|f32|s32)|v2\.(b64|u64|f64|s64))")
WIDE_STORE = re.compile(r"st\.global(\.[a-z]+)*\.(v4\.(b32|u32|f32|s32)|v2\.(b64|u64|f64|s64))")


# The probe's unrolled kernels (mangled-name prefix), with the ld.global
# and st.global that one element takes, and the header and constant of
# their unroll: Bytes<4> moves byte by byte; a scaled element reads its
# value, its scale and its shift; a block warp kernel's piece is one
# 16-byte load (quantize: its codes and the block's scale stored), or its
# codes and its block's scale (dequantize: one 16-byte store).
COPY_UNROLL = ("cuda/kernels/copy_loops.h", "kCopyUnroll")
WARP_UNROLL = ("cuda/kernels/block_warp_loops.h", "kWarpUnroll")
UNROLLED = [
    ("_ZN2st4cuda17copy_bytes_kernelILi4E", 1, 1, COPY_UNROLL),
    ("_ZN2st4cuda17copy_bytes_kernelILi16E", 1, 1, COPY_UNROLL),
    ("_ZN2st4cuda19copy_strided_kernelIfNS_4HalfE", 1, 1, COPY_UNROLL),
    ("_ZN2st4cuda19copy_strided_kernelINS0_5BytesILi4EEES3_E", 4, 4, COPY_UNROLL),
    ("_ZN2st4cuda18copy_scaled_kernelIfhE", 3, 1, COPY_UNROLL),
    ("_ZN2st4cuda21quantize_warps_kernelILNS_11BlockFormatE0EfE", 1, 1, WARP_UNROLL),
    ("_ZN2st4cuda21quantize_warps_kernelILNS_11BlockFormatE6ENS_8BFloat16EE", 1, 1, WARP_UNROLL),
    ("_ZN2st4cuda23dequantize_warps_kernelILNS_11BlockFormatE4EfE", 2, 1, WARP_UNROLL),
    ("_ZN2st4cuda23dequantize_warps_kernelILNS_11BlockFormatE6ENS_8BFloat16EE", 2, 1, WARP_UNROLL),
]
UNROLL_ARCH = 90


def unroll_of(include_dirs, header, name):
    for d in include_dirs:
        try:
            text = open(f"{d}/{header}").read()
        except OSError:
            continue
        m = re.search(rf"constexpr int {name} = (\d+);", text)
        if m:
            return int(m.group(1))
    raise SystemExit(f"{name} not found in {header} under " + ", ".join(include_dirs))


def store_before_last_load(body, unroll, loads, stores):
    """None when the body's first unroll × loads ld.global all precede its
    first st.global (and it has unroll × stores of them); otherwise what
    comes first, with the PTX lines."""
    ops = [(m.group(1), body.count("\n", 0, m.start()) + 1)
           for m in re.finditer(r"^\s*(?:@!?%p\d+\s+)?(ld|st)\.global\b", body, re.M)]
    kinds = [k for k, _ in ops]
    want = unroll * loads
    if kinds.count("ld") < want or kinds.count("st") < unroll * stores:
        return f"{kinds.count('ld')} ld.global and {kinds.count('st')} st.global, fewer than {unroll} elements take"
    first_store = kinds.index("st")
    if first_store >= want:
        return None
    last_load = [line for k, line in ops if k == "ld"][want - 1]
    return (f"a st.global (entry line {ops[first_store][1]}) comes after {first_store} ld.global, before the "
            f"unroll's last (its ld.global #{want}, entry line {last_load})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--images", required=True)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--probe", required=True)
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--also-sass", default="", help="more SASS architectures to run ptxas on the probe for")
    args = ap.parse_args()
    r = Results()
    expected = set(i for i in args.images.split(",") if i)

    # 1. Architectures.
    images, containers = fatbin_images(args.lib)
    print(f"fatbin of {args.lib}: {containers} containers; images: {', '.join(sorted(images)) or 'none'}")
    if expected:
        r.check(images == expected, f"the images are the build's list ({', '.join(sorted(expected))})")
    else:
        r.check(bool(images), "the library holds device code (architectures 'all' or 'native': not compared)")
    cuobjdump = shutil.which("cuobjdump")
    if cuobjdump:
        listing = subprocess.run([cuobjdump, "--list-elf", "--list-ptx", args.lib], capture_output=True,
                                 text=True).stdout
        listed = set(re.findall(r"\b(sm_\d+[af]?)\b", listing)) | set(
            "compute_" + a for a in re.findall(r"\.sm_(\d+[af]?)\.ptx", listing))
        print("cuobjdump lists: " + ", ".join(sorted(listed)))
        r.check(listed == images, "cuobjdump lists the same images")
    else:
        print("cuobjdump not found (the CUDA toolkit here has none): the fatbin headers were read directly, "
              "and the SASS checks below run on the probe's ptxas output instead of the library's SASS")

    # 2. The probe's PTX, then ptxas per SASS architecture.
    ptx_archs = sorted(int(i[len("compute_"):]) for i in (expected or images) if re.fullmatch(r"compute_\d+", i))
    built_sass = set(i[len("sm_"):] for i in (expected or images) if re.fullmatch(r"sm_\d+[af]?", i))
    sass_archs = sorted(built_sass | set(a for a in args.also_sass.split(",") if a))
    base = min(ptx_archs) if ptx_archs else 75
    with tempfile.TemporaryDirectory() as tmp:
        ptx_file = f"{tmp}/probe.ptx"
        cmd = [args.nvcc, "-std=c++17", "-O3", "-ptx", f"-arch=compute_{base}", "-o", ptx_file, args.probe]
        cmd += [f"-I{d}" for d in args.include]
        done = subprocess.run(cmd, capture_output=True, text=True)
        r.check(done.returncode == 0, "the probe compiles to PTX: " + " ".join(cmd[:6]) + (
            "" if done.returncode == 0 else "\n" + done.stderr[-2000:]))
        if done.returncode != 0:
            return finish(r)
        ptx = open(ptx_file).read()
        entries = ptx_entries(ptx)
        wide = {k: v for k, v in entries.items()
                if "convert_vectorized_kernel" in k or "copy_bytes_kernelILi16" in k or "fill_contiguous_kernel" in k}
        r.check(len(wide) >= 6, f"the probe has the vectorized kernels ({len(wide)} of {len(entries)} entries)")
        for k, body in sorted(wide.items()):
            r.check(bool(WIDE_LOAD.search(body)) and bool(WIDE_STORE.search(body)) or
                    ("fill_contiguous" in k and bool(WIDE_STORE.search(body))),
                    f"128-bit global loads and stores in {k}")
        warps = {k: v for k, v in entries.items() if "quantize_warps_kernel" in k}
        r.check(len(warps) == 4, f"the probe has the block warp kernels ({len(warps)})")
        for k, body in sorted(warps.items()):
            dequantize = k.startswith("_ZN2st4cuda23dequantize")
            r.check(bool((WIDE_STORE if dequantize else WIDE_LOAD).search(body)),
                    f"128-bit global {'stores' if dequantize else 'loads'} in {k}")
        unroll_ptx = f"{tmp}/probe_sm{UNROLL_ARCH}.ptx"
        cmd90 = cmd[:4] + [f"-arch=compute_{UNROLL_ARCH}", "-o", unroll_ptx] + cmd[7:]
        done = subprocess.run(cmd90, capture_output=True, text=True)
        r.check(done.returncode == 0, f"the probe compiles to PTX for sm_{UNROLL_ARCH}" + (
            "" if done.returncode == 0 else "\n" + done.stderr[-2000:]))
        if done.returncode == 0:
            unrolled = ptx_entries(open(unroll_ptx).read())
            for prefix, loads, stores, (header, constant) in UNROLLED:
                unroll = unroll_of(args.include, header, constant)
                found = [k for k in unrolled if k.startswith(prefix)]
                if len(found) != 1:
                    r.check(False, f"the probe has one kernel {prefix}... ({len(found)} found)")
                    continue
                wrong = store_before_last_load(unrolled[found[0]], unroll, loads, stores)
                r.check(wrong is None, f"sm_{UNROLL_ARCH}: {found[0]} loads its {unroll} elements before it stores "
                        "any" + (f": {wrong}" if wrong else ""))
        local = [k for k, v in entries.items() if ".local" in v]
        r.check(not local, "no kernel declares local memory in PTX" + (f" ({', '.join(local)})" if local else ""))
        ptxas = shutil.which("ptxas") or args.nvcc.replace("nvcc", "ptxas")
        for arch in sass_archs:
            out = subprocess.run([ptxas, "-v", f"-arch=sm_{arch}", ptx_file, "-o", f"{tmp}/probe.cubin"],
                                 capture_output=True, text=True)
            frames = re.findall(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",
                                out.stderr)
            clean = out.returncode == 0 and frames and all(f == ("0", "0", "0") for f in frames)
            r.check(bool(clean), f"sm_{arch}: ptxas reports no stack frame and no spills in {len(frames)} kernels")

    # 4. The library's own SASS.
    if cuobjdump and not built_sass:
        print("the library holds PTX alone (the driver compiles it): no SASS of its own to read")
    elif cuobjdump:
        sass = subprocess.run([cuobjdump, "-sass", args.lib], capture_output=True, text=True).stdout
        functions = re.split(r"\n\s*Function : ", sass)
        vectorized = [f for f in functions if f.startswith("_ZN2st4cuda25convert_vectorized_kernel")]
        r.check(bool(vectorized), f"cuobjdump shows {len(vectorized)} vectorized kernels")
        narrow = [f.split("\n")[0] for f in vectorized if "LDG.E.128" not in f and "LDG.E.ENL2.256" not in f]
        r.check(not narrow, "every vectorized kernel loads 128 bits at a time" + (f" ({len(narrow)} do not)" if narrow else ""))
        narrow = [f.split("\n")[0] for f in vectorized if "STG.E.128" not in f and "STG.E.ENL2.256" not in f]
        r.check(not narrow, "every vectorized kernel stores 128 bits at a time" + (f" ({len(narrow)} do not)" if narrow else ""))
        local = [f.split("\n")[0] for f in functions[1:] if re.search(r"\b(LDL|STL)\b", f)]
        r.check(not local, f"no kernel of {len(functions) - 1} uses local memory" + (f" ({local[:3]})" if local else ""))
    return finish(r)


def finish(r):
    print(f"kernel code: {r.passed} passed, {r.failed} failed")
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
