"""Which engine modules the build compiles with mypyc (setup.py), and whether the compiled ones run.

A compiled module runs only while every module of NATIVE was compiled from the source now beside it
(their digests are in MANIFEST, which the build writes). Otherwise — a source edited since the last
`pip install`, a build without a C compiler, NIDAVELLIR_PURE=1 — every one of them is imported from
its source, as if nothing were compiled: the two play the same games (tests/test_native.py), only
the speed differs. Nothing here imports the engine: `choose` runs before it is imported."""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

NATIVE = ("core", "card_actions", "coin_actions", "engine", "flow", "placement", "scoring", "state", "search")
MANIFEST = "native.json"
EXTENSION_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # (the one a build writes)
PACKAGE = __name__.rpartition(".")[0]
HERE = Path(__file__).resolve().parent
_active: bool | None = None


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def built(name: str, here: Path = HERE) -> bool:
    """Whether module `name` of NATIVE has a compiled file in `here`."""
    return any((here / f"{name}{suffix}").is_file() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def fresh(here: Path = HERE, env: Mapping[str, str] = os.environ) -> bool:
    """Whether every module of NATIVE in `here` is compiled from its source as it is now."""
    if env.get("NIDAVELLIR_PURE") or not all(built(m, here) for m in NATIVE):
        return False
    try:
        digests = json.loads((here / MANIFEST).read_text(encoding="utf-8"))
        return all(digests.get(m) == source_digest(here / f"{m}.py") for m in NATIVE)
    except (OSError, ValueError, AttributeError):
        return False


class _Sources:
    """A finder, first on sys.meta_path, that imports the modules of NATIVE from their sources."""

    @staticmethod
    def find_spec(fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != PACKAGE or name not in NATIVE:
            return None
        return importlib.util.spec_from_file_location(fullname, HERE / f"{name}.py")


def choose() -> bool:
    """Decide, once and before the engine is first imported, which modules run; True: the compiled."""
    global _active
    if _active is None:
        _active = fresh()
        if not _active and any(built(m) for m in NATIVE):
            sys.meta_path.insert(0, _Sources())
    return _active


def active() -> bool:
    """Whether the compiled engine runs in this process."""
    return choose()
