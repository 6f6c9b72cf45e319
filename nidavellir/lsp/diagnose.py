"""Check one rule set as `nidavellir check` does, reading the editor's open documents in place of
their files; and turn the compiler's located diagnostics into LSP diagnostics.

`check_target` runs on the server's one compile thread (the overlay is the loader's, not the
thread's); the conversion runs on the server's loop with the texts the editor shows.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types as lsp

from nidavellir.compiler.build import compile_specs
from nidavellir.compiler.diagnostics import Diagnostic, RulesError
from nidavellir.compiler.yamlload import overlay
from nidavellir.errors import visible

from .positions import TextIndex
from .targets import Target, display_paths

if TYPE_CHECKING:
    from nidavellir.compiler.compile import Compiled


@dataclass
class Outcome:
    """What checking a target gave: every diagnostic by the file it is in (None: no place or a
    file the rule set does not name), and the compiled rules when there was no error."""
    target: Target
    by_file: dict[Path | None, list[Diagnostic]] = field(default_factory=dict)
    compiled: Compiled | None = None


def check_target(target: Target, texts: Mapping[str, str]) -> Outcome:
    """Compile the target's layers, reading `texts` (path -> unsaved text) instead of those files."""
    with overlay(texts):
        files = display_paths(target)
        try:
            compiled: Compiled | None = compile_specs(list(target.specs))
            diagnostics = list(compiled.warnings) if compiled else []
        except RulesError as err:
            compiled, diagnostics = None, err.diagnostics
    out = Outcome(target, compiled=compiled)
    for d in diagnostics:
        out.by_file.setdefault(_file_of(d, files), []).append(d)
    return out


def _file_of(d: Diagnostic, files: dict[str, Path]) -> Path | None:
    path = d.loc.path if d.loc is not None else d.file  # (a file that could not be read: its own)
    if path is None:
        return None
    if path in files:
        return files[path]
    p = Path(path)
    return p if p.is_absolute() else None


_WORD = re.compile(r"[\w:.\-]+")
SEVERITY = {"error": lsp.DiagnosticSeverity.Error, "warning": lsp.DiagnosticSeverity.Warning}


def to_lsp(d: Diagnostic, index: TextIndex | None, source: str) -> lsp.Diagnostic:
    """The LSP form: the compiler's 1-based line and character column as a 0-based range in the
    editor's code units, over the word at that place; the message as `check` prints it, the hint
    on the next line. Without a place (or a text to place it in): the file's first character."""
    message = visible(d.message)
    if d.hint:
        message += f"\nhint: {visible(d.hint)}"
    start = end = lsp.Position(0, 0)
    if d.loc is not None and index is not None:
        at = index.from_loc(d.loc.line, d.loc.col)
        word = _WORD.match(index.text, at)
        stop = at + len(word.group().rstrip(":.")) if word else at
        if stop == at and at < len(index.text) and index.text[at] not in "\r\n\x85\u2028\u2029":
            stop = at + 1
        start, end = lsp.Position(*index.to_lsp(at)), lsp.Position(*index.to_lsp(max(stop, at)))
    elif d.loc is not None:
        start = end = lsp.Position(max(d.loc.line - 1, 0), max(d.loc.col - 1, 0))
    return lsp.Diagnostic(range=lsp.Range(start, end), message=message,
                          severity=SEVERITY.get(d.severity, lsp.DiagnosticSeverity.Error), source=source)
