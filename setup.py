"""The build's one step beyond pyproject.toml: the engine's hot modules compiled with mypyc.

mypyc (part of mypy) compiles typed Python to C extension modules with the same behaviour; the
modules in NATIVE are compiled when a C compiler is there, and run as Python where it is not (or
with NIDAVELLIR_PURE=1). The sources stay the truth: runtime/native.py checks at import that each
compiled module was built from the source beside it, and imports the source where it was not.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "runtime"))
from native import MANIFEST, NATIVE, source_digest  # noqa: E402  (the list and the check, in one place)

sys.path.pop(0)
STAGE = ROOT / "build" / "mypyc-src"
GROUP = "nidavellir.runtime._native"  # the shared library: nidavellir/runtime/_native__mypyc.*.so


def warn(message: str) -> None:
    print(f"nidavellir: {message}; the engine runs as Python (slower, the same games)", file=sys.stderr)


def staged() -> list[str]:
    """The compiled modules' paths in a tree named as the package is (mypyc names a module by its
    folders; runtime/ is nidavellir.runtime only by pyproject's package-dir)."""
    pkg = STAGE / "nidavellir"
    pkg.mkdir(parents=True, exist_ok=True)
    links = {p.name: p for p in (ROOT / "nidavellir").iterdir() if p.name != "__pycache__"}
    links.update({name: ROOT / name for name in ("runtime", "compiler", "generated")})
    for name, target in links.items():
        link = pkg / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target, target.is_dir())
    return [str(pkg / "runtime" / f"{m}.py") for m in NATIVE]


def extensions() -> list:
    if os.environ.get("NIDAVELLIR_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        warn("mypyc is not installed")
        return []
    try:
        # (the modules they import are read for their types only: the build has not installed lark & co.)
        flags = ["--follow-imports=silent", "--ignore-missing-imports"]
        modules = mypycify([*flags, *staged()], opt_level="3", group_name=GROUP,
                           target_dir=str(ROOT / "build" / "mypyc"))
    except (Exception, SystemExit) as err:  # (mypyc exits on a type error)
        warn(f"mypyc could not compile the engine ({err})")
        return []
    for module in modules:
        module.optional = True  # (no C compiler: a warning, and the Python modules)
    return modules


class BuildNative(build_ext):
    """build_ext, then the manifest of what each compiled module was built from."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        digests = {m: source_digest(ROOT / "runtime" / f"{m}.py") for m in NATIVE}
        for folder in {Path(self.get_ext_fullpath(e.name)).parent for e in self.extensions}:
            if folder.name == "runtime":
                (folder / MANIFEST).write_text(json.dumps(digests, indent=1, sort_keys=True) + "\n")


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildNative})
