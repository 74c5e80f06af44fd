"""The in-tree build backend (build_backend/stride_build.py) and pip installs that need nothing but CPython.

The wheel is read back as pip would: RECORD's hashes and sizes recomputed
here from the archive, the tag against this machine's platform. The pip
runs install, offline, into venvs with no setuptools and no wheel (what
broke the setuptools build of stride 0.2 with a pyenv CPython). A second interpreter (a pyenv CPython, say) is tried too
when $STRIDE_SECOND_PYTHON names one (tools/test-bindings.sh finds it on
PATH).
The library bundled is $STRIDE_LIBRARY, the one this suite runs against.
"""

import base64
import csv
import hashlib
import importlib.util
import io
import os
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import unittest
import zipfile

import stride

BINDING = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE_FILES = sorted(f"stride/{n}" for n in os.listdir(os.path.join(BINDING, "stride"))
                       if n.endswith(".py") or n == "py.typed")


def load_backend(folder, name):
    """The backend module of the tree at `folder` (bindings/python, or an unpacked sdist)."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(folder, "build_backend", "stride_build.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def library():
    path = os.environ.get("STRIDE_LIBRARY")
    if not path:
        raise unittest.SkipTest("STRIDE_LIBRARY is not set: nothing to bundle (tools/test-bindings.sh sets it)")
    return os.path.realpath(path)


class Backend(unittest.TestCase):
    def setUp(self):
        self.lib = library()
        self.backend = load_backend(BINDING, "stride_build_under_test")
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def check_wheel(self, path):
        """The wheel's members {name: bytes}, after checking its RECORD against them."""
        with zipfile.ZipFile(path) as z:
            members = {i.filename: z.read(i) for i in z.infolist()}
        dist_info = f"stride-{stride.version_string()}.dist-info"
        rows = list(csv.reader(io.StringIO(members[f"{dist_info}/RECORD"].decode())))
        self.assertEqual(sorted(r[0] for r in rows), sorted(members))
        for name, digest, size in rows:
            if name == f"{dist_info}/RECORD":
                self.assertEqual((digest, size), ("", ""))
                continue
            data = members[name]
            expected = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            self.assertEqual((digest, int(size)), (expected, len(data)), name)
        metadata = members[f"{dist_info}/METADATA"].decode()
        self.assertIn(f"\nName: stride\nVersion: {stride.version_string()}\n", "\n" + metadata)
        self.assertIn("Requires-Python: >=3.8\n", metadata)
        return members

    def test_wheel_bundles_the_library(self):
        name = self.backend.build_wheel(self.tmp.name)
        platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
        self.assertEqual(name, f"stride-{stride.version_string()}-py3-none-{platform}.whl")
        members = self.check_wheel(os.path.join(self.tmp.name, name))
        dist_info = f"stride-{stride.version_string()}.dist-info"
        self.assertEqual(sorted(m for m in members if not m.startswith(dist_info)),
                         sorted(PACKAGE_FILES + ["stride/libstride.so.0"]))
        with open(self.lib, "rb") as f:
            self.assertEqual(members["stride/libstride.so.0"], f.read())
        wheel = members[f"{dist_info}/WHEEL"].decode()
        self.assertIn(f"Tag: py3-none-{platform}\n", wheel)
        self.assertIn("Root-Is-Purelib: false\n", wheel)

    def test_metadata_is_the_wheels(self):
        folder = self.backend.prepare_metadata_for_build_wheel(self.tmp.name)
        with open(os.path.join(self.tmp.name, folder, "METADATA"), encoding="utf-8") as f:
            prepared = f.read()
        wheel = self.check_wheel(os.path.join(self.tmp.name, self.backend.build_wheel(self.tmp.name)))
        self.assertEqual(wheel[f"{folder}/METADATA"].decode(), prepared)

    def test_needs_nothing_installed_first(self):
        for hook in ("get_requires_for_build_wheel", "get_requires_for_build_editable",
                     "get_requires_for_build_sdist"):
            self.assertEqual(getattr(self.backend, hook)(), [], hook)

    def test_sdist_builds_the_same_wheel(self):
        name = self.backend.build_sdist(self.tmp.name)
        base = f"stride-{stride.version_string()}"
        self.assertEqual(name, base + ".tar.gz")
        with tarfile.open(os.path.join(self.tmp.name, name)) as tar:
            names = sorted(tar.getnames())
            # Python 3.12 asks for a filter (3.11.4 has them); "data" refuses links and absolute paths.
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(os.path.join(self.tmp.name, "unpacked"), **safe)
        self.assertEqual(names, sorted(f"{base}/{n}" for n in PACKAGE_FILES + [
            "PKG-INFO", "README.md", "pyproject.toml", "build_backend/stride_build.py"]))
        unpacked = load_backend(os.path.join(self.tmp.name, "unpacked", base), "stride_build_from_sdist")
        out = os.path.join(self.tmp.name, "wheels")
        os.makedirs(out)
        members = self.check_wheel(os.path.join(out, unpacked.build_wheel(out)))
        self.assertIn("stride/libstride.so.0", members)
        self.assertEqual(sorted(m for m in members if m.startswith("stride/")),
                         sorted(PACKAGE_FILES + ["stride/libstride.so.0"]))


class PipWithoutSetuptoolsOrWheel(unittest.TestCase):
    """pip install of bindings/python into venvs with no setuptools and no wheel."""

    def interpreters(self):
        found = [("this Python", sys.executable)]
        second = os.environ.get("STRIDE_SECOND_PYTHON")
        if second:
            found.append(("$STRIDE_SECOND_PYTHON", second))
        else:
            print(f"\n  {self.id()}: no second Python ($STRIDE_SECOND_PYTHON unset): {sys.executable} only",
                  file=sys.stderr)
        return found

    def bare_venv(self, python, venv, env):
        """Makes a venv of `python` with no setuptools and no wheel at `venv`; answers the pip command for it.

        This suite's pip drives a venv made --without-pip (`pip --python`);
        without it (no python3-pip), the venv's own pip from ensurepip, its
        setuptools removed.
        """
        if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0:
            subprocess.run([python, "-m", "venv", "--without-pip", venv], check=True)
            return [sys.executable, "-m", "pip", "--python", os.path.join(venv, "bin", "python")]
        subprocess.run([python, "-m", "venv", venv], check=True)
        pip = [os.path.join(venv, "bin", "pip")]
        subprocess.run(pip + ["uninstall", "-y", "-q", "setuptools"], env=env, check=True, capture_output=True)
        return pip

    def test_installs_and_imports(self):
        lib = library()
        env = dict(os.environ, STRIDE_LIBRARY=lib, PIP_NO_INDEX="1", PIP_NO_CACHE_DIR="1",
                   PIP_DISABLE_PIP_VERSION_CHECK="1")
        env.pop("PYTHONPATH", None)
        for what, python in self.interpreters():
            with self.subTest(python=what), tempfile.TemporaryDirectory() as tmp:
                venv = os.path.join(tmp, "venv")
                pip = self.bare_venv(python, venv, env)
                target = os.path.join(venv, "bin", "python")
                for absent in ("setuptools", "wheel"):
                    bare = subprocess.run([target, "-c", f"import {absent}"], capture_output=True)
                    self.assertNotEqual(bare.returncode, 0, f"the venv was to have no {absent}")
                done = subprocess.run(pip + ["install", BINDING], env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True)
                self.assertEqual(done.returncode, 0, done.stdout)
                bundled = dict(env)
                bundled.pop("STRIDE_LIBRARY")  # the bundled copy is what loads now
                check = "import stride; print(stride._lib.lib.path); print(stride.tensor([[1, 2], [3, 4]]).T.tolist())"
                run = subprocess.run([target, "-c", check], env=bundled, cwd=tmp, capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)
                path, values = run.stdout.splitlines()
                self.assertTrue(path.startswith(venv) and path.endswith("/stride/libstride.so.0"), path)
                self.assertEqual(values, "[[1, 3], [2, 4]]")


if __name__ == "__main__":
    unittest.main()
