"""The one exception base for everything a user can cause (bad rules, positions, logs, answers),
and how text the user gave is shown back in messages.

The command line catches `NidavellirError` and prints its message, located where the problem
is; anything else escaping is a bug in the program."""
from __future__ import annotations

import difflib
import json
import unicodedata
from collections.abc import Iterable
from typing import Any


class NidavellirError(Exception):
    """A problem in what the user gave the program; `str()` is the message to show."""


class CommandError(NidavellirError):
    """A usage problem (bad option value, unreadable file): printed without a traceback."""


class RulesRuntimeError(NidavellirError, RuntimeError):
    """Rules that compiled failed in play: the message starts with the rules file, line and column
    of the effect (a compiled handler that failed, a division by zero, effects that feed each other
    without end)."""


def count_of(n: int, noun: str, plural: str | None = None) -> str:
    """An English count whose noun agrees with it: "1 coin", "2 coins", "0 cards"; `plural` where
    adding an s is wrong ("1 entry", "2 entries"). (A message never says "coin(s)".)"""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def closest(name: str, candidates: Iterable[object]) -> str | None:
    """The candidate closest to `name` (difflib, cutoff 0.6; a match ignoring case wins), or None."""
    name = str(name)
    options = [str(c) for c in candidates if str(c) != name]
    folded = [c for c in options if c.lower() == name.lower()]
    match = folded or difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return match[0] if match else None


def suggest(name: str, candidates: Iterable[object]) -> str | None:
    """Return "did you mean `x`?" for the closest candidate (`closest`), or None."""
    match = closest(name, candidates)
    return f"did you mean `{match}`?" if match is not None else None


_ALLOWED_FORMAT = {"\u200c", "\u200d"}  # zero-width (non-)joiners: part of some scripts and emoji


def unprintable(ch: str) -> bool:
    """A character that would act on a terminal rather than show: controls, format characters
    (bidirectional overrides), unassigned, private-use and surrogate code points, line separators."""
    category = unicodedata.category(ch)
    return (category[0] == "C" and ch not in _ALLOWED_FORMAT) or category in ("Zl", "Zp")


def shown_char(ch: str) -> str:
    """A character as an escape: `\\x1b`, `\\u202e`, ...; a byte that is not UTF-8, which Python
    keeps as a surrogate (U+DC80 to U+DCFF, "surrogateescape"), as that byte: `\\xff`."""
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str, keep: str = "") -> str:
    """`text` with every character that would act on a terminal (controls, escapes, bidirectional
    overrides, line separators) written as an escape; characters in `keep` stay."""
    if text.isprintable():
        return text
    return "".join(shown_char(ch) if unprintable(ch) and ch not in keep else ch for ch in text)


def shown_value(value: Any, limit: int = 60) -> str:
    """A value from outside (an answer, a field of a log) for a message: its JSON, kept short."""
    try:
        text = json.dumps(value)
    except (ValueError, TypeError, RecursionError):
        text = visible(repr(value))
    return text if len(text) <= limit else text[:limit - 3] + "..."


class GameFailed(NidavellirError):
    """One game of a run of many (`simulate`, `league`) stopped by an error of the rules in play: the
    message names the game (its rule set, index, seed and seats) and the `play` command that plays
    it alone, then the error (`game_failed` writes it)."""


def game_failed(game: str, seed: int, bots: Iterable[str], options: Iterable[str], error: Exception) -> GameFailed:
    """The GameFailed of `game` ("game 7 of rule set 0 (`first-game`)"), played with `seed` and the
    bots by seat; `options` are the boxes and variants as `play` takes them."""
    import shlex

    seats = list(bots)
    named = ", ".join(f"P{k + 1} {bot}" for k, bot in enumerate(seats))
    command = shlex.join(["nidavellir", "play", "--players", str(len(seats)), "--seed", str(seed),
                          "--bots", ",".join(seats), *options])
    return GameFailed(f"{game}, seed {seed}, seats {named}, stopped: {error}\n  to play it alone: {command}")
