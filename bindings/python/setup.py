"""Builds the stride wheel with libstride inside it, as stride/libstride.so.0.

The library to bundle is, in this order:
  1. the file $STRIDE_LIBRARY names (for instance an installed one:
     STRIDE_LIBRARY=/opt/stride/lib/libstride.so pip install ...);
  2. an installed stride that pkg-config finds (stride.pc; PKG_CONFIG_PATH
     names a prefix outside the system's), of this package's version or newer;
  3. in a stride checkout, one built here with CMake: the CPU backend only
     (a minute or two on two cores) unless $CMAKE_ARGS asks for more, e.g.
     CMAKE_ARGS=-DSTRIDE_WITH_CUDA=ON for the CUDA backend too. CMake's
     output streams as it builds; `pip install -v` shows it.
Outside a checkout, with neither of the others, nothing is bundled and the
package loads libstride.so.0 from the system's loader path at run time.
It is a setuptools extension so that pip builds a platform wheel, and
`pip install -e` puts the library next to the sources.
"""

import os
import shlex
import shutil
import subprocess
import sys
import time

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.dirname(os.path.dirname(HERE))
SONAME = "libstride.so.0"  # the package loads this name (stride/_lib.py)
VERSION = "0.3.0"  # pyproject.toml's


def log(message):
    print(f"stride: {message}", file=sys.stderr, flush=True)


def from_pkg_config():
    """The installed libstride that pkg-config knows of, or None."""
    if shutil.which("pkg-config") is None:
        return None
    query = ["pkg-config", f"stride >= {VERSION}"]
    found = subprocess.run(query[:1] + ["--exists"] + query[1:], check=False)
    if found.returncode != 0:
        return None
    libdir = subprocess.run(query[:1] + ["--variable=libdir"] + query[1:], check=True, capture_output=True,
                            text=True).stdout.strip()
    path = os.path.join(libdir, SONAME)
    return path if os.path.exists(path) else None


def from_checkout(build_dir):
    """libstride built with CMake from the checkout this package sits in, or None outside one."""
    if not os.path.exists(os.path.join(CHECKOUT, "include", "stride.h")):
        return None
    if shutil.which("cmake") is None:
        raise RuntimeError("stride: building libstride needs CMake (apt-get install cmake g++), "
                           "or set STRIDE_LIBRARY to a built libstride.so")
    folder = os.path.join(build_dir, "libstride")
    # CMAKE_ARGS come last: a -D there overrides these (CMake keeps the last).
    options = ["-DCMAKE_BUILD_TYPE=Release", "-DSTRIDE_WITH_CUDA=OFF", "-DSTRIDE_BUILD_TESTS=OFF",
               "-DSTRIDE_BUILD_EXAMPLES=OFF", "-DSTRIDE_BUILD_BENCH=OFF", "-DSTRIDE_BUILD_DOCS=OFF"]
    options += shlex.split(os.environ.get("CMAKE_ARGS", ""))
    log(f"building libstride from {CHECKOUT} in {folder} with CMake "
        f"({' '.join(options[1:])}); CMAKE_ARGS=-DSTRIDE_WITH_CUDA=ON adds the CUDA backend")
    started = time.monotonic()
    subprocess.run(["cmake", "-S", CHECKOUT, "-B", folder] + options, check=True)
    subprocess.run(["cmake", "--build", folder, "--target", "stride", "-j", str(os.cpu_count() or 2)], check=True)
    log(f"built libstride in {time.monotonic() - started:.0f} s")
    return os.path.join(folder, "src", SONAME)


class BundleLibstride(build_ext):
    """Puts a libstride into the package instead of compiling an extension."""

    def get_ext_filename(self, fullname):
        if fullname.split(".")[-1] == "libstride":
            return os.path.join(*fullname.split(".")[:-1], SONAME)
        return super().get_ext_filename(fullname)

    def build_extension(self, ext):
        source = os.environ.get("STRIDE_LIBRARY")
        origin = "$STRIDE_LIBRARY"
        if not source:
            source, origin = from_pkg_config(), "pkg-config"
        if not source:
            source, origin = from_checkout(os.path.abspath(self.build_temp)), "the checkout"
        dest = self.get_ext_fullpath(ext.name)
        if not source:
            log("no libstride to bundle: the package will load libstride.so.0 from the loader path")
            return
        if not os.path.exists(source):
            raise RuntimeError(f"stride: {source} (from {origin}) does not exist")
        log(f"bundling {os.path.realpath(source)} (from {origin})")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(os.path.realpath(source), dest)


setup(ext_modules=[Extension("stride.libstride", sources=[])], cmdclass={"build_ext": BundleLibstride})
