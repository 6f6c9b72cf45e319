"""What a compiled rule set depends on: the compiler's code, the grammar and the rules files.

Kept free of heavy imports so that finding a fresh compiled module costs almost nothing.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from importlib import resources
from pathlib import Path

COMPILER_VERSION = "2"

Spec = tuple[Path, str, bool]  # path, display name, is a variant
# Modules that render references from compiled rules; they do not change what compiles.
DOCS_MODULES = frozenset({"text.py", "docs.py", "docmodel.py", "docscore.py", "sheets.py"})


@lru_cache(maxsize=1)
def compiler_digest() -> bytes:
    """The compiler's own code: a change to it invalidates every compiled rule set."""
    h = hashlib.sha256(f"nidavellir-compiler {COMPILER_VERSION}\n".encode())
    for f in sorted(Path(__file__).parent.glob("*.py")):
        if f.name not in DOCS_MODULES:
            h.update(f.name.encode() + b"\0" + f.read_bytes())
    h.update(grammar_text().encode())
    return h.digest()


@lru_cache(maxsize=1)
def grammar_text() -> str:
    return (resources.files("nidavellir.grammar") / "effects.lark").read_text(encoding="utf-8")


def source_hash(specs: list[Spec]) -> str | None:
    """Hash of the compiler, grammar and every source file's bytes; None if a file is unreadable."""
    h = hashlib.sha256(compiler_digest())
    try:
        for path, shown, is_variant in specs:
            files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
            h.update(f"\0layer {shown} {is_variant}\0".encode())
            for f in files:
                if not f.is_file():  # missing, or a pipe that reading would wait on
                    return None
                h.update(f"\0{f.name}\0".encode() + f.read_bytes())
    except OSError:  # (a name too long, a folder given as a file, ...): compiling reports it
        return None
    return h.hexdigest()
