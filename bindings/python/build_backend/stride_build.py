"""The build backend of the stride package (PEP 517 and PEP 660), in the tree: the standard library only.

pip builds the package with it on any CPython 3.8 or newer, offline: it
needs no setuptools and no wheel (pyproject.toml asks for nothing), so a
pyenv Python without `wheel`, a venv made --without-pip or Debian's python3
all install the same way. A wheel holds the package's sources and a
libstride to load, as stride/libstride.so.0. The library to bundle is, in
this order:
  1. the file $STRIDE_LIBRARY names (for instance an installed one:
     STRIDE_LIBRARY=/opt/stride/lib/libstride.so pip install ...);
  2. an installed stride that pkg-config finds (stride.pc; PKG_CONFIG_PATH
     names a prefix outside the system's), of this package's version or newer;
  3. in a stride checkout, one built here with CMake in build/libstride: the
     CPU backend only (a minute or two on two cores) unless $CMAKE_ARGS asks
     for more, e.g. CMAKE_ARGS=-DSTRIDE_WITH_CUDA=ON for the CUDA backend
     too. CMake's output streams as it builds; `pip install -v` shows it.
Outside a checkout, with neither of the others, nothing is bundled and the
package loads libstride.so.0 from the system's loader path at run time.
An editable install (`pip install -e`) puts the library next to the sources
and a .pth file naming this folder on the interpreter's path.
"""

import base64
import hashlib
import io
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bindings/python
CHECKOUT = os.path.dirname(os.path.dirname(HERE))
NAME = "stride"
VERSION = "0.3.0"  # include/stride.h's ST_VERSION_* (tools/gen_bindings.py stamps it)
SONAME = "libstride.so.0"  # the package loads this name (stride/_lib.py)
DIST_INFO = f"{NAME}-{VERSION}.dist-info"
METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: Strided tensors from libstride: views, copies between any layouts and dtypes, NumPy and DLPack interop
License: MIT OR Apache-2.0
Requires-Python: >=3.8
Provides-Extra: numpy
Requires-Dist: numpy; extra == "numpy"
Description-Content-Type: text/markdown
"""
# What an sdist holds, besides PKG-INFO: enough to build the wheel again (without a checkout).
SDIST_FILES = ("pyproject.toml", "README.md", "build_backend/stride_build.py")


def log(message):
    print(f"stride: {message}", file=sys.stderr, flush=True)


# ---- where the library comes from ----------------------------------------------------------


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


def from_checkout():
    """libstride built with CMake from the checkout this package sits in, or None outside one."""
    if not os.path.exists(os.path.join(CHECKOUT, "include", "stride.h")):
        return None
    if shutil.which("cmake") is None:
        raise RuntimeError("stride: building libstride needs CMake (apt-get install cmake g++), "
                           "or set STRIDE_LIBRARY to a built libstride.so")
    folder = os.path.join(HERE, "build", "libstride")
    # CMAKE_ARGS come last: a -D there overrides these (CMake keeps the last).
    options = ["-DCMAKE_BUILD_TYPE=Release", "-DSTRIDE_WITH_CUDA=OFF", "-DSTRIDE_BUILD_TESTS=OFF",
               "-DSTRIDE_BUILD_EXAMPLES=OFF", "-DSTRIDE_BUILD_BENCH=OFF", "-DSTRIDE_BUILD_DOCS=OFF"]
    options += shlex.split(os.environ.get("CMAKE_ARGS", ""))
    log(f"building libstride from {CHECKOUT} in {folder} with CMake "
        f"({' '.join(options[1:])}); CMAKE_ARGS=-DSTRIDE_WITH_CUDA=ON adds the CUDA backend")
    started = time.monotonic()
    # CMake's output goes to stderr: pip reads a hook's stdout for nothing, and shows stderr with -v.
    subprocess.run(["cmake", "-S", CHECKOUT, "-B", folder] + options, check=True, stdout=sys.stderr)
    subprocess.run(["cmake", "--build", folder, "--target", "stride", "-j", str(os.cpu_count() or 2)], check=True,
                   stdout=sys.stderr)
    log(f"built libstride in {time.monotonic() - started:.0f} s")
    return os.path.join(folder, "src", SONAME)


def library():
    """The real path of the libstride to bundle, or None (then the package uses the loader's)."""
    source, origin = os.environ.get("STRIDE_LIBRARY"), "$STRIDE_LIBRARY"
    if not source:
        source, origin = from_pkg_config(), "pkg-config"
    if not source:
        source, origin = from_checkout(), "the checkout"
    if not source:
        log("no libstride to bundle: the package will load libstride.so.0 from the loader path")
        return None
    if not os.path.exists(source):
        raise RuntimeError(f"stride: {source} (from {origin}) does not exist")
    source = os.path.realpath(source)
    log(f"bundling {source} (from {origin})")
    return source


# ---- wheels ------------------------------------------------------------------------------


def package_files():
    """{path in the wheel: path here} of the package's sources (a bundled library left out)."""
    files = {}
    package = os.path.join(HERE, NAME)
    for name in sorted(os.listdir(package)):
        if name.endswith(".py") or name == "py.typed":
            files[f"{NAME}/{name}"] = os.path.join(package, name)
    return files


def platform_tag():
    """The platform a wheel with a native library is for: linux_x86_64, linux_aarch64, ..."""
    return sysconfig.get_platform().replace("-", "_").replace(".", "_")


def metadata():
    """The METADATA (and sdist PKG-INFO) text: the fields, then the README as the long description."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        return METADATA + "\n" + f.read()


def write_metadata(folder):
    """Writes the .dist-info folder of METADATA into `folder`; answers its name."""
    os.makedirs(os.path.join(folder, DIST_INFO), exist_ok=True)
    with open(os.path.join(folder, DIST_INFO, "METADATA"), "w", encoding="utf-8") as f:
        f.write(metadata())
    return DIST_INFO


class Wheel:
    """A wheel being written: each file added is recorded (sha256, size) for RECORD."""

    def __init__(self, path):
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.records = []

    def add(self, name, data, executable=False):
        info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
        info.external_attr = (0o755 if executable else 0o644) << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        self.zip.writestr(info, data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.records.append(f"{name},sha256={digest},{len(data)}")

    def add_file(self, name, path, executable=False):
        with open(path, "rb") as f:
            self.add(name, f.read(), executable)

    def close(self, tag, purelib):
        self.add(f"{DIST_INFO}/METADATA", metadata().encode())
        self.add(f"{DIST_INFO}/WHEEL", f"Wheel-Version: 1.0\nGenerator: {NAME} build_backend\n"
                                       f"Root-Is-Purelib: {'true' if purelib else 'false'}\nTag: {tag}\n".encode())
        self.add(f"{DIST_INFO}/top_level.txt", f"{NAME}\n".encode())
        record = f"{DIST_INFO}/RECORD"
        self.zip.writestr(zipfile.ZipInfo(record, date_time=(2020, 1, 1, 0, 0, 0)),
                          "\n".join(self.records + [f"{record},,"]) + "\n")
        self.zip.close()


def _wheel(wheel_directory, editable):
    lib = library()
    # A native library ties the wheel to this platform, not to a Python (ctypes loads it).
    tag = f"py3-none-{platform_tag()}" if lib and not editable else "py3-none-any"
    filename = f"{NAME}-{VERSION}-{tag}.whl"
    wheel = Wheel(os.path.join(wheel_directory, filename))
    try:
        if editable:
            # The sources stay here; the library goes next to them, replaced at each install.
            if lib:
                shutil.copyfile(lib, os.path.join(HERE, NAME, SONAME))
            wheel.add(f"__editable__.{NAME}-{VERSION}.pth", (HERE + "\n").encode())
        else:
            for name, path in package_files().items():
                wheel.add_file(name, path)
            if lib:
                wheel.add_file(f"{NAME}/{SONAME}", lib, executable=True)
        wheel.close(tag, purelib=not lib or editable)
    except BaseException:
        wheel.zip.close()
        os.remove(os.path.join(wheel_directory, filename))
        raise
    return filename


# ---- the hooks (PEP 517, PEP 660) --------------------------------------------------------


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return write_metadata(metadata_directory)


def prepare_metadata_for_build_editable(metadata_directory, config_settings=None):
    return write_metadata(metadata_directory)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, editable=False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _wheel(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    """stride-VERSION.tar.gz: the package's sources, this backend and PKG-INFO (no libstride)."""
    base = f"{NAME}-{VERSION}"
    filename = f"{base}.tar.gz"
    files = {name: os.path.join(HERE, name) for name in SDIST_FILES}
    files.update(package_files())
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        for name, path in sorted(files.items()):
            tar.add(path, arcname=f"{base}/{name}", recursive=False)
        pkg_info = metadata().encode()
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(pkg_info)
        info.mode = 0o644
        tar.addfile(info, io.BytesIO(pkg_info))
    return filename
