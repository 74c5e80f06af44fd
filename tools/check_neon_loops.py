#!/usr/bin/env python3
"""The NEON level's main loops, read from the disassembly of its objects.

Speed on Arm cannot be measured under emulation, so a regression to the
scalar path is caught by reading the generated code instead
(docs/contributing.md, "Other platforms"): for each main kernel, the loop
of its function that stores whole vectors, and the instructions that loop
runs per element written. The check fails when a kernel has no such loop
(its elements went back to the element rule) or when its loop takes more
instructions per element than the bound below.

    check_neon_loops.py OBJDUMP OBJECT...   (the objects of src/cpu/levels/neon/)

A loop is the span from a backward branch's target to the branch; its
stores to the stack (spills) do not count. It stores whole vectors when
every other store in it writes 16 bytes or more from vector registers.
Elements per pass are the bytes it stores over the kernel's destination
element size, so unrolling does not change the figure.
"""

import re
import subprocess
import sys
from dataclasses import dataclass, field

# What the table reports and checks. `function` matches the demangled name;
# `require`/`exclude` pick the loop of one element size where one function
# holds the loops of every size (the copy kernels' by_itemsize). The bounds
# leave room above today's figures (docs/contributing.md has them) for the
# compiler's choices; the element rule takes several times more, with no
# vector store at all.
@dataclass
class Kernel:
    name: str
    object: str
    function: str
    dst_bytes: int
    bound: float
    require: list = field(default_factory=list)
    exclude: list = field(default_factory=list)


KERNELS = [
    Kernel("reversed copy, float32", "copy_kernels", r"gather_rows<.*VecNeon", 4, 2.25,
           require=[r"rev64\tv\d+\.4s"]),
    Kernel("float32 -> float16", "convert_kernels", r"row<.*VecNeon, .*::F32ToF16>", 2, 1.25),
    Kernel("float32 -> bfloat16", "convert_kernels", r"row<.*VecNeon, .*::F32ToBF16>", 2, 4.0),
    Kernel("float32 -> float8_e4m3fn", "convert_kernels", r"row<.*VecNeon, .*::F32ToF8<.*Float8Bits<4, 3, false>", 1, 6.5),
    Kernel("uint8 -> float32", "convert_kernels", r"row<.*VecNeon, .*::U8ToF32>", 4, 1.5),
    # The blocked walk is inlined into the itemsize switch or kept out of
    # line per tile type, as the compiler chooses.
    Kernel("transpose, float32 4x4 tiles", "copy_kernels",
           r"(by_itemsize<.*transpose<|transpose_blocked<.*Tile<).*VecNeon", 4, 3.25,
           require=[r"zip1\tv\d+\.4s", r"zip1\tv\d+\.2d"], exclude=[r"\.4h", r"\.8b"]),
    Kernel("scaled uint8 -> float32 (one scale)", "scaled_rows",
           r"Widen<.*VecNeon, float, unsigned char, false, false>::run", 4, 2.25),
    Kernel("scaled float32 -> int8 (one scale)", "scaled_rows",
           r"Narrow<.*VecNeon, signed char, float, false, false>::run", 1, 2.75),
    # The block-scaled formats (cpu/levels/block_vector.h): runs of whole
    # blocks, whose codes are stored a whole vector at a time (dst_bytes: a
    # value's bytes, half a byte for FP4), and the bands along an outer dim.
    Kernel("quantize float32 -> MXFP8 E4M3", "block_rows",
           r"::quantize_rows<.*VecNeon, \(st::BlockFormat\)0, float>", 1, 9.5, require=[r"uzp1\tv\d+\.16b"]),
    Kernel("quantize float32 -> MXFP4", "block_rows",
           r"::quantize_rows<.*VecNeon, \(st::BlockFormat\)4, float>", 0.5, 10.0, require=[r"uzp1\tv\d+\.16b"]),
    # NVFP4's runs are a call of their own (walk_rows): two blocks a store.
    Kernel("quantize float32 -> NVFP4", "block_rows",
           r"walk_rows<\(st::BlockFormat\)6, float, .*VectorQuantize<.*VecNeon", 0.5, 10.0,
           require=[r"uzp1\tv\d+\.16b", r"cmgt"]),
    Kernel("dequantize MXFP4 -> float32", "block_rows",
           r"::dequantize_rows<.*VecNeon, \(st::BlockFormat\)4, float>", 4, 8.5, require=[r"fmul"]),
    Kernel("dequantize MXFP8 E4M3 -> float32, blocks along an outer dim", "block_rows",
           r"VectorDequantize<.*VecNeon, \(st::BlockFormat\)0, float, void>::band", 4, 8.5, require=[r"fmul"]),
]

LINE = re.compile(r"^\s*([0-9a-f]+):\t(\S+)\s*(.*)$")
FUNCTION = re.compile(r"^([0-9a-f]+) <(.*)>:$")
BRANCH = re.compile(r"^(b|b\.\w+|cbz|cbnz|tbz|tbnz)$")
TARGET = re.compile(r"\b([0-9a-f]+) <")
WIDTH = {"q": 16, "d": 8, "s": 4, "h": 2, "b": 1, "x": 8, "w": 4}
ARRANGEMENT = {"16b": 16, "8h": 16, "4s": 16, "2d": 16, "8b": 8, "4h": 8, "2s": 8, "1d": 8}


@dataclass
class Insn:
    at: int
    op: str
    args: str

    def text(self):
        return f"{self.op}\t{self.args}"


def functions(disassembly):
    """{demangled name: [Insn]} of `objdump -d -C --no-show-raw-insn` output."""
    out, current = {}, None
    for line in disassembly.splitlines():
        m = FUNCTION.match(line)
        if m:
            current = out.setdefault(m.group(2), [])
            continue
        m = LINE.match(line)
        if m and current is not None:
            current.append(Insn(int(m.group(1), 16), m.group(2), re.sub(r"\s*<.*$", "", m.group(3)).strip()))
    return out


def store(insn):
    """(bytes, from vector registers) of a store to memory other than the stack; None otherwise."""
    op = insn.op
    if not op.startswith("st") or op.startswith("stlx") or op.startswith("stx"):
        return None
    base = re.search(r"\[(\w+)", insn.args)
    if base is None or base.group(1) == "sp":
        return None
    if op.startswith(("st1", "st2", "st3", "st4")):
        regs = re.findall(r"v\d+\.(\w+)", insn.args.split("}")[0])
        lane = re.search(r"\}\[\d+\]", insn.args)
        each = WIDTH.get(regs[0][-1], 0) if lane else ARRANGEMENT.get(regs[0], 0)
        return each * len(regs), True
    reg = insn.args.split(",")[0].strip()
    width = WIDTH.get(reg[0], 0)
    if op in ("strb", "sturb"):
        width = 1
    elif op in ("strh", "sturh"):
        width = 2
    if op in ("stp", "stnp"):
        width *= 2
    return width, reg[0] in "qdshb"


def loops(insns):
    """Spans [first, last] of the function's backward branches."""
    start = insns[0].at if insns else 0
    spans = []
    for k, insn in enumerate(insns):
        if not BRANCH.match(insn.op):
            continue
        m = TARGET.search(insn.args + " <")
        target = int(m.group(1), 16) if m else -1
        if start <= target <= insn.at:
            first = next(j for j, i in enumerate(insns) if i.at >= target)
            spans.append(insns[first : k + 1])
    return spans


def vector_loop_cost(body, dst_bytes, require=(), exclude=()):
    """Instructions per element of a loop that stores whole vectors, or None."""
    text = "\n".join(i.text() for i in body)
    if any(not re.search(p, text) for p in require) or any(re.search(p, text) for p in exclude):
        return None
    stores = [s for s in (store(i) for i in body) if s is not None]
    if not stores or any(width < 16 or not vector for width, vector in stores):
        return None
    return len(body) / (sum(width for width, _ in stores) / dst_bytes)


def best_loop(insns, kernel):
    costs = [(c, len(b)) for b in loops(insns)
             if (c := vector_loop_cost(b, kernel.dst_bytes, kernel.require, kernel.exclude)) is not None]
    return min(costs) if costs else None


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    objdump, objects = argv[1], argv[2:]
    by_object = {}
    for path in objects:
        stem = re.sub(r"\.cpp\.o(bj)?$", "", path.rsplit("/", 1)[-1])
        result = subprocess.run([objdump, "-d", "-C", "--no-show-raw-insn", path], capture_output=True, text=True)
        if result.returncode != 0:
            print(f"{objdump} failed on {path}: {result.stderr}")
            return 1
        by_object[stem] = functions(result.stdout)
    failed = 0
    print(f"{'kernel':40} {'loop':>5} {'per element':>12} {'bound':>6}")
    for kernel in KERNELS:
        funcs = by_object.get(kernel.object)
        if funcs is None:
            print(f"{kernel.name:40} no object {kernel.object} among the arguments")
            failed += 1
            continue
        matches = [insns for name, insns in funcs.items() if re.search(kernel.function, name)]
        found = [b for b in (best_loop(insns, kernel) for insns in matches) if b is not None]
        if not matches or not found:
            what = "no function matches" if not matches else "no loop stores whole vectors (the element rule?)"
            print(f"{kernel.name:40} FAIL: {what}")
            failed += 1
            continue
        cost, length = min(found)
        verdict = "" if cost <= kernel.bound else "  FAIL: above the bound"
        failed += cost > kernel.bound
        print(f"{kernel.name:40} {length:5} {cost:12.3f} {kernel.bound:6.2f}{verdict}")
    print(f"{len(KERNELS) - failed} of {len(KERNELS)} kernels run a vector loop within their bound")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
