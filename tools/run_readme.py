#!/usr/bin/env python3
"""Runs a README's commands as written, from a scratch folder, and checks what they print.

    run_readme.py README.md --dir SCRATCH --section TITLE [--section TITLE ...]
                  [--env NAME=VALUE ...] [--keep-path]

Within the sections named (a heading and everything below it up to the next
heading of the same or a higher level), in order:
- a ```sh block runs in bash with `set -euo pipefail`, in the folder and with
  the exported variables the previous block left (each block's first
  failing command fails the check);
- a block of any language right after a line that ends with `` `PATH`: ``
  (such as "Save this as `src/main.rs`:") is written to PATH, relative to
  that folder;
- a ```text block right after a line that ends with "prints:" must equal the
  output (stdout and stderr) of the ```sh block before it.
Other blocks are left alone. Every command is echoed with what it printed,
so the log shows each README command and its output.

The commands run as on a fresh Debian 12 machine: PATH is Debian's default
(/usr/local/bin, /usr/bin, /bin, ...) unless --keep-path, HOME is a folder
inside SCRATCH, and only the --env variables are added (the READMEs read
STRIDE_SRC, the clone, and STRIDE_PREFIX, where `cmake --install` put stride).
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

DEBIAN_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Variables of the machine itself that a fresh login has too.
PASSED_THROUGH = ("TERM", "LANG", "LC_ALL", "USER", "LOGNAME", "TMPDIR", "TZ")


def blocks(text, sections):
    """The items of the named sections: ('sh', code), ('file', path, code) or ('prints', text)."""
    lines = text.split("\n")
    items, inside, level, prose, found = [], False, 0, "", set()
    i = 0
    while i < len(lines):
        line = lines[i]
        heading = re.match(r"(#+)\s+(.*?)\s*$", line)
        if heading:
            depth = len(heading.group(1))
            if inside and depth <= level:
                inside = False
            if heading.group(2) in sections:
                inside, level = True, depth
                found.add(heading.group(2))
            prose = ""
            i += 1
            continue
        fence = re.match(r"\s*```(\w*)\s*$", line)
        if fence:
            lang = fence.group(1)
            end = i + 1
            while end < len(lines) and not re.match(r"\s*```\s*$", lines[end]):
                end += 1
            code = "\n".join(lines[i + 1:end]) + "\n"
            if inside:
                target = re.search(r"`([^`]+)`:\s*$", prose)
                if target:
                    items.append(("file", target.group(1), code))
                elif lang == "text" and prose.rstrip().endswith("prints:"):
                    items.append(("prints", code))
                elif lang == "sh":
                    items.append(("sh", code))
            prose = ""
            i = end + 1
            continue
        if line.strip():
            prose = line
        i += 1
    missing = set(sections) - found
    if missing:
        raise SystemExit(f"run_readme: no section {sorted(missing)} in the README")
    return items


def run(readme, scratch, sections, extra_env, keep_path):
    with open(readme) as f:
        items = blocks(f.read(), sections)
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    home = os.path.join(scratch, "home")
    work = os.path.join(scratch, "work")
    state = os.path.join(scratch, "state")
    for d in (home, work, state):
        os.makedirs(d)
    env = {k: os.environ[k] for k in PASSED_THROUGH if k in os.environ}
    env.update(HOME=home, PATH=os.environ["PATH"] if keep_path else DEBIAN_PATH)
    env.update(extra_env)
    env_file, pwd_file = os.path.join(state, "env"), os.path.join(state, "pwd")
    with open(env_file, "w") as f:
        for k, v in env.items():
            f.write(f"export {k}={shlex.quote(v)}\n")
    with open(pwd_file, "w") as f:
        f.write(work)
    last_output = None
    for n, item in enumerate(items, 1):
        with open(pwd_file) as f:
            cwd = f.read().strip()
        if item[0] == "file":
            path = os.path.join(cwd, item[1])
            print(f"--- writes {item[1]} (in {cwd})", flush=True)
            os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
            with open(path, "w") as f:
                f.write(item[2])
            continue
        if item[0] == "prints":
            if last_output is None:
                print(f"FAIL: an expected output (item {n}) follows no command")
                return 1
            if last_output != item[1]:
                print(f"FAIL: the command printed\n{last_output}--- but the README says it prints\n{item[1]}---")
                return 1
            print("--- printed what the README says", flush=True)
            continue
        code = item[1]
        for line in code.rstrip("\n").split("\n"):
            print(f"$ {line}", flush=True)
        script = (f"set -euo pipefail\nsource {shlex.quote(env_file)}\n"
                  f"trap 'pwd > {shlex.quote(pwd_file)}; export -p | grep -Ev \"^declare -x (PWD|OLDPWD|SHLVL|_)=\" "
                  f"> {shlex.quote(env_file)}' EXIT\n" + code)
        done = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        last_output = done.stdout
        sys.stdout.write(done.stdout)
        if done.returncode != 0:
            print(f"FAIL: the block above exited with {done.returncode}")
            return 1
    print(f"{os.path.basename(os.path.dirname(os.path.abspath(readme)))} README: "
          f"{sum(1 for i in items if i[0] == 'sh')} command blocks ran as written")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("readme")
    p.add_argument("--dir", required=True)
    p.add_argument("--section", action="append", required=True)
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--keep-path", action="store_true")
    a = p.parse_args()
    extra = dict(e.split("=", 1) for e in a.env)
    return run(a.readme, a.dir, a.section, extra, a.keep_path)


if __name__ == "__main__":
    sys.exit(main())
