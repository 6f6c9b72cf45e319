"""Located error messages: the compiler's user interface.

A formatted diagnostic looks like::

    rules/base/dwarves.yaml:12:5: error: unknown key `explorr`
            explorr: 3
            ^
      hint: did you mean `explorer`?
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from nidavellir.errors import NidavellirError, suggest, visible

__all__ = [
    "Location",
    "Diagnostic",
    "RulesError",
    "Diagnostics",
    "register_source",
    "source_line",
    "clear_sources",
    "split_lines",
    "suggest",
    "in_file_order",
]

# The line breaks YAML recognises (so our line numbers agree with the parser's).
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")

_TEXTS: dict[str, str] = {}  # registered in-memory sources
_LINES: dict[str, list[str] | None] = {}  # path -> lines (None: unreadable), split lazily


def split_lines(text: str) -> list[str]:
    """Split ``text`` into lines the way YAML counts them (breaks removed)."""
    return _LINE_BREAK.split(text)


def register_source(path: str, text: str) -> None:
    """Remember ``text`` as the contents of ``path`` for quoting source lines."""
    _TEXTS[str(path)] = text
    _LINES.pop(str(path), None)


def clear_sources() -> None:
    """Forget every cached or registered source."""
    _TEXTS.clear()
    _LINES.clear()


def source_line(path: str, line: int) -> str | None:
    """Return the 1-based ``line`` of ``path`` (registered or on disk), or None."""
    if path not in _LINES:
        try:
            if path in _TEXTS:
                text = _TEXTS[path]
            elif Path(path).is_file():  # (not a pipe, which reading would wait on)
                text = Path(path).read_text(encoding="utf-8")
            else:
                raise FileNotFoundError(path)
            _LINES[path] = split_lines(text)
        except (OSError, UnicodeDecodeError, ValueError):
            _LINES[path] = None
    lines = _LINES[path]
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


@dataclass(frozen=True)
class Location:
    """A 1-based position in a file."""

    path: str
    line: int
    col: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning, optionally located, with an optional hint."""

    loc: Location | None
    message: str
    hint: str | None = None
    severity: str = "error"  # error | warning

    def format(self) -> str:
        """Render as ``path:line:col: error: ...`` plus source line, caret and hint.

        Text from the rules files (names in the message, the source line, the hint) is shown with
        its control characters escaped, so that a hostile file cannot drive the terminal."""
        head = f"{self.severity}: {visible(self.message)}"
        out = [f"{visible(str(self.loc))}: {head}" if self.loc else head]
        if self.loc is not None:
            text = source_line(self.loc.path, self.loc.line)
            if text is not None:
                # Mirror tabs so the caret lines up however the terminal expands them.
                col = max(self.loc.col - 1, 0)
                before = visible(text[:col], keep="\t")
                pad = "".join("\t" if ch == "\t" else " " for ch in before)
                pad += " " * max(0, col - len(text))
                out += [f"    {visible(text, keep=chr(9))}", f"    {pad}^"]
        if self.hint:
            out.append(f"  hint: {visible(self.hint)}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()


class RulesError(NidavellirError):
    """Raised with every diagnostic of a failed step (its errors, and the warnings found with them)."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(self.diagnostics)

    def __str__(self) -> str:
        return "\n".join(d.format() for d in self.diagnostics)


class Diagnostics:
    """Collects diagnostics so that all problems of a run are reported together."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, loc: Location | None, message: str, hint: str | None = None) -> Diagnostic:
        """Record an error and return it."""
        diag = Diagnostic(loc, message, hint)
        self.items.append(diag)
        return diag

    def warning(self, loc: Location | None, message: str, hint: str | None = None) -> Diagnostic:
        """Record a warning: legal, but likely not what the designer meant."""
        diag = Diagnostic(loc, message, hint, "warning")
        self.items.append(diag)
        return diag

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def add(self, diag: Diagnostic) -> None:
        """Record an existing diagnostic."""
        self.items.append(diag)

    def extend(self, other: Iterable[Diagnostic]) -> None:
        """Record several diagnostics (a list, a RulesError's list, or a Diagnostics)."""
        self.items.extend(other)

    def __bool__(self) -> bool:
        """Whether there is an error (warnings alone do not stop a compile)."""
        return any(d.severity == "error" for d in self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def raise_if_any(self) -> None:
        """Raise a RulesError holding every recorded diagnostic, if there is an error."""
        if self:
            raise RulesError(self.items)

    def format_all(self) -> str:
        """All diagnostics formatted, one block after another."""
        return "\n".join(d.format() for d in self.items)


def in_file_order(diagnostics: Iterable[Diagnostic], paths: Iterable[str] = ()) -> list[Diagnostic]:
    """Diagnostics by file (in the order of ``paths``, then of first mention), line and column."""
    items = list(diagnostics)
    files = {path: i for i, path in enumerate(paths)}
    for d in items:
        if d.loc is not None:
            files.setdefault(d.loc.path, len(files))
    return sorted(items, key=lambda d: (files[d.loc.path], d.loc.line, d.loc.col) if d.loc else (-1, 0, 0))
