"""The guard against rules whose effects feed themselves.

Every compiled handler the engine runs (an effect on an event, a replacement, a window) and every
value it evaluates (a modifier's amount, a card's score) is one level of the cascade while it runs.
A cascade deeper than MAX_CASCADE stops the game with a located rules error naming the effects of
the loop, their rules file, line and column. No game of the shipped rules comes near it: random games
of every box combination nest at most 4 levels (tests/test_cascades.py checks that they stay under
MAX_CASCADE / 8); a loop the checker warns of but that ends (a coin bettered over and over until the
treasure has no better one) nests about 30. Each level is a few Python frames, so the error comes
well before Python's own recursion limit (never a RecursionError).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from nidavellir.errors import RulesRuntimeError
from nidavellir.interface.rules import SOURCE_MARKER

MAX_CASCADE = 64  # effects and values nested in one another

Running = tuple[str, Callable[..., Any]]  # a card's id and the compiled function it runs


class CascadeError(RulesRuntimeError):
    """Effects (or values) that feed each other past MAX_CASCADE levels."""


def origin(fn: Callable[..., Any]) -> tuple[str, str]:
    """The rules location and DSL text of a compiled function (its docstring marker)."""
    doc = fn.__doc__ or ""
    if not doc.startswith(SOURCE_MARKER):
        return "<rules>", getattr(fn, "__name__", "?")
    where, _, text = doc[len(SOURCE_MARKER):].partition("\n")
    return where, text.strip()


def the_loop(running: Sequence[Running]) -> list[Running]:
    """The part of the cascade that repeats (outermost first): for the innermost function that runs
    more than once, from just after its latest earlier run to its innermost run — so that a value a
    member reads on its way (a modifier, a score), nested once inside the last level, is not taken
    for a member; without a repeat, every function once."""
    before: set[Callable[..., Any]] = set()
    innermost = -1  # the innermost run of a function that ran before it
    for k, (_, fn) in enumerate(running):
        if fn in before:
            innermost = k
        before.add(fn)
    if innermost >= 0:
        fn = running[innermost][1]
        earlier = max(j for j in range(innermost) if running[j][1] is fn)
        return list(running[earlier + 1:innermost + 1])
    seen: dict[Callable[..., Any], Running] = {}
    for entry in running:
        seen.setdefault(entry[1], entry)
    return list(seen.values())


def _place(fn: Callable[..., Any]) -> tuple[str, int, int]:
    parts = origin(fn)[0].rsplit(":", 2)
    if len(parts) < 3 or not (parts[1].isdigit() and parts[2].isdigit()):
        return parts[0], 0, 0
    return parts[0], int(parts[1]), int(parts[2])


def cascade_error(running: Sequence[Running]) -> CascadeError:
    """The error for a cascade past MAX_CASCADE: located at the loop's member written first in the
    rules (whichever the cascade reached first), naming each member in the loop's order."""
    loop = the_loop(running)
    start = min(range(len(loop)), key=lambda k: _place(loop[k][1]))
    loop = loop[start:] + loop[:start]
    members = []
    for cid, fn in loop:
        where, text = origin(fn)
        members.append(f"`{cid}`: `{text}` ({where})")
    first = origin(loop[0][1])[0]
    chain = " -> ".join(members)
    again = "itself again" if len(loop) == 1 else "the first again"
    return CascadeError(f"{first}: effects feed each other without end: {chain} -> {again}; the game "
                        f"stopped after {MAX_CASCADE} nested effects (no game of sound rules nests so deep)")
