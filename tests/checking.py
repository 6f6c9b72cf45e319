"""Helpers for tests of `nidavellir check`: run it, write rules files, and read its located
diagnostics (header, quoted source line, caret, hint)."""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

from nidavellir.cli import main
from nidavellir.compiler.diagnostics import split_lines
from nidavellir.counts import counted

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "rules" / "base"


def run_check(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def base_copy(tmp_path: Path) -> Path:
    """A copy of the shipped base folder, to break one thing in."""
    return Path(shutil.copytree(BASE, tmp_path / "base"))


def replace_in(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def find(path: Path, needle: str) -> tuple[int, int]:
    """1-based line and column of the first `needle` in the file."""
    for n, line in enumerate(split_lines(path.read_text(encoding="utf-8")), 1):
        if needle in line:
            return n, line.index(needle) + 1
    raise AssertionError(f"{needle!r} not in {path}")


def expect(err: str, path: Path | str, line: int, col: int, message: str, hint: str | None = None) -> None:
    """`err` holds this diagnostic: its header, the quoted source line, a caret under `col`, the hint."""
    lines = err.splitlines()
    head = f"{path}:{line}:{col}: error: {message}"
    assert head in lines, f"missing {head!r} in:\n{err}"
    i = lines.index(head)
    source = split_lines(Path(path).read_text(encoding="utf-8"))[line - 1]
    assert lines[i + 1] == "    " + source
    assert lines[i + 2] == "    " + " " * (col - 1) + "^"
    if hint is None:
        assert i + 3 == len(lines) or not lines[i + 3].startswith("  hint:")
    else:
        assert lines[i + 3] == f"  hint: {hint}"


def failed(code: int, out: str, err: str, errors: int) -> None:
    assert code == 1
    assert "Traceback" not in err and not out
    said = counted(errors, "error")
    assert err.rstrip().endswith(f"\n{said}") or f"\n{said}, " in err


def expect_warning(err: str, path: Path | str, line: int, col: int, message: str) -> None:
    head = f"{path}:{line}:{col}: warning: {message}"
    assert head in err.splitlines(), f"missing {head!r} in:\n{err}"
