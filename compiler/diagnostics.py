"""Located error messages: the compiler's user interface.

A formatted diagnostic looks like::

    rules/base/dwarves.yaml:12:5: error: unknown key `explorr`
            explorr: 3
            ^
      hint: did you mean `explorer`?

On a terminal the same text is coloured (`paint`; `colour_wanted` decides): the place bold, the
severity word bold red or yellow, the message bold, the caret green, `hint:` cyan. Without colour
the text is exactly the plain format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from nidavellir.errors import NidavellirError, suggest, visible

__all__ = [
    "Location",
    "Diagnostic",
    "RulesError",
    "Diagnostics",
    "unread",
    "register_source",
    "source_line",
    "clear_sources",
    "split_lines",
    "suggest",
    "in_file_order",
    "paint",
    "colour_wanted",
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
    file: str | None = None  # without a place: the file it is about (one that could not be read)

    def format(self, colour: bool = False) -> str:
        """Render as ``path:line:col: error: ...`` plus source line, caret and hint (coloured with
        `colour`, see `paint`).

        Text from the rules files (names in the message, the source line, the hint) is shown with
        its control characters escaped, so that a hostile file cannot drive the terminal."""
        plain = self._plain()
        return paint(plain) if colour else plain

    def _plain(self) -> str:
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
        return self.format()

    def format(self, colour: bool = False) -> str:
        return "\n".join(d.format(colour) for d in self.diagnostics)


def unread(path: str, message: str, hint: str | None = None) -> Diagnostic:
    """A file that could not be read (missing, a folder, a pipe, …): `cannot read PATH: why`, with
    no line and column, since nothing in it was read; `file` names it for an editor."""
    return Diagnostic(None, f"cannot read {path}: {message}", hint, file=path)


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

    def format_all(self, colour: bool = False) -> str:
        """All diagnostics formatted, one block after another."""
        return "\n".join(d.format(colour) for d in self.items)


def in_file_order(diagnostics: Iterable[Diagnostic], paths: Iterable[str] = ()) -> list[Diagnostic]:
    """Diagnostics by file (in the order of ``paths``, then of first mention), line and column."""
    items = list(diagnostics)
    files = {path: i for i, path in enumerate(paths)}
    for d in items:
        if d.loc is not None:
            files.setdefault(d.loc.path, len(files))
    return sorted(items, key=lambda d: (files[d.loc.path], d.loc.line, d.loc.col) if d.loc else (-1, 0, 0))


# -- colour ----------------------------------------------------------------------------------------

_RESET = "\x1b[0m"
_STYLE = {"place": "\x1b[1m", "message": "\x1b[1m", "error": "\x1b[1;31m", "warning": "\x1b[1;33m",
          "note": "\x1b[1;36m", "caret": "\x1b[1;32m", "hint": "\x1b[36m"}
_HEAD = re.compile(r"(?:(?P<place>.*?): )?(?P<severity>error|warning|note): (?P<message>.*)")
_CARET = re.compile(r"(?P<pad>    [ \t]*)\^")


def _styled(style: str, text: str) -> str:
    return f"{_STYLE[style]}{text}{_RESET}" if text else text


def paint(text: str) -> str:
    """Formatted diagnostics (one or several, as `Diagnostic.format` and the commands write them:
    `place: severity: message`, then the source line and the caret, then `  hint: ...`) with ANSI
    colours. Read by position, not guessed: a source line is the indented line after a head, the
    caret the line after it, so no text of a rules file is taken for either. Other lines (details)
    stay as they are."""
    out: list[str] = []
    after = ""  # what the previous line was: "head", "source" or ""
    for line in text.split("\n"):
        head = _HEAD.fullmatch(line) if not line.startswith(" ") else None
        caret = _CARET.fullmatch(line) if after == "source" else None
        if head is not None:
            place = head["place"]
            line = (f"{_styled('place', place)}: " if place is not None else "") + \
                f"{_styled(head['severity'], head['severity'])}: {_styled('message', head['message'])}"
            after = "head"
        elif after == "head" and line.startswith("    "):
            after = "source"
        elif caret is not None:
            line = caret["pad"] + _styled("caret", "^")
            after = ""
        else:
            if line.startswith("  hint: "):
                line = "  " + _styled("hint", "hint:") + line[len("  hint:"):]
            after = ""
        out.append(line)
    return "\n".join(out)


def colour_wanted(stream: TextIO, choice: str = "auto") -> bool:
    """Whether to colour what is written to `stream`: `always` or `never` as asked; `auto` colours a
    terminal, unless NO_COLOR is set (no-color.org; it wins over FORCE_COLOR, as in CPython) or
    TERM is `dumb`, and FORCE_COLOR colours a pipe too. An empty variable counts as unset."""
    if choice in ("always", "never"):
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # a closed or odd stream
        return False
