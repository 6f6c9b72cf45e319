"""The one exception base for everything a user can cause (bad rules, positions, logs, answers).

The command line catches `NidavellirError` and prints its message, located where the problem
is; anything else escaping is a bug in the program."""
from __future__ import annotations

import difflib
from collections.abc import Iterable


class NidavellirError(Exception):
    """A problem in what the user gave the program; `str()` is the message to show."""


def suggest(name: str, candidates: Iterable[object]) -> str | None:
    """Return "did you mean `x`?" for the closest candidate (difflib, cutoff 0.6;
    a match ignoring case wins), or None."""
    name = str(name)
    options = [str(c) for c in candidates if str(c) != name]
    folded = [c for c in options if c.lower() == name.lower()]
    match = folded or difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f"did you mean `{match[0]}`?" if match else None
