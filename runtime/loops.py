"""The guard against rules whose effects feed themselves.

Every compiled handler the engine runs (an effect on an event, a replacement, a window) and every
value it evaluates (a modifier's amount, a card's score) is one level of the cascade while it runs.
A cascade deeper than MAX_CASCADE stops the game with a located rules error naming the effects of
the loop, their rules file, line and column, in words that are true of it:

- a loop of values (a param or a score that reads itself) never ends: nothing changes while a value
  is worked out, so "without end";
- a loop of effects that `check` warned can repeat says what check said would stop it
  (`RuleSet.loops`): it went deeper than MAX_CASCADE before that happened;
- any other loop of effects went deeper than sound rules ever do: the game stops, but the error does
  not claim it would never have ended.

MAX_CASCADE (measured, Python 3.11): no random game of the shipped rules nests more than 4 levels
(tests/test_cascades.py checks they stay under MAX_CASCADE / 8); a loop that `check` warns of but
that ends — a coin bettered by 1 again and again until the treasure has no better one — nests one
level per treasure value above the coin: about 20 with the shipped treasure, 116 with a treasure of
116 values (audit/s2/ev-better-bigtreasure.yaml). 256 lets such variants end. A level costs at most
FRAMES_PER_LEVEL Python frames (3 for a value, 5 for a replacement placing a card, 6 for a take that
triggers a take), so 256 levels need about 2,000 frames more than the flow's own (under 100), past
Python's default recursion limit of 1,000: `ensure_stack` raises the limit to STACK_FRAMES (never
lowers it), well within what a thread's 8 MB stack holds (nested generators overflow it only past
20,000 levels). So the guard's error always comes before Python's own (never a RecursionError).
"""
from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Sequence
from typing import Any

from nidavellir.errors import RulesRuntimeError
from nidavellir.interface.rules import SOURCE_MARKER, LoopWarning

MAX_CASCADE = 256  # effects and values nested in one another
FRAMES_PER_LEVEL = 8  # the most Python frames one level of the cascade takes (measured: 3 to 6)
STACK_FRAMES = MAX_CASCADE * FRAMES_PER_LEVEL + 1000  # the recursion limit the engine needs

Running = tuple[str, Callable[..., Any]]  # a card's id and the compiled function it runs


class CascadeError(RulesRuntimeError):
    """Effects (or values) that feed each other past MAX_CASCADE levels."""


def ensure_stack() -> None:
    """Let Python nest as deep as MAX_CASCADE levels need (see the module's docstring)."""
    if sys.getrecursionlimit() < STACK_FRAMES:
        sys.setrecursionlimit(STACK_FRAMES)


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


def _is_value(fn: Callable[..., Any]) -> bool:
    """A compiled value (a modifier's amount, a score), not a handler (a generator: it can act)."""
    return not inspect.isgeneratorfunction(fn)


def warned_loop(loop: Sequence[Running], loops: Sequence[LoopWarning]) -> LoopWarning | None:
    """The loop `check` warned of that this one is: every effect of the warned loop is in it (the
    largest such), else the one sharing most of its effects."""
    here = {origin(fn)[0] for _, fn in loop}
    inside = [w for w in loops if set(w.members) <= here]
    if inside:
        return max(inside, key=lambda w: len(w.members))
    shared = max(loops, key=lambda w: len(set(w.members) & here), default=None)
    return shared if shared is not None and set(shared.members) & here else None


def cascade_error(running: Sequence[Running], loops: Sequence[LoopWarning] = ()) -> CascadeError:
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
    if all(_is_value(fn) for _, fn in loop):
        return CascadeError(f"{first}: effects feed each other without end: {chain} -> {again}; the game "
                            f"stopped after {MAX_CASCADE} nested effects (no game of sound rules nests so deep)")
    warned = warned_loop(loop, loops)
    if warned is not None:
        return CascadeError(f"{first}: effects went deeper than {MAX_CASCADE} nested effects: {chain} -> {again}; "
                            f"check warned at {warned.at} that this loop stops only when {warned.stops}, and it "
                            "had not stopped yet, so the game stopped there")
    return CascadeError(f"{first}: effects went deeper than {MAX_CASCADE} nested effects: {chain} -> {again}; "
                        "sound rules never nest so deep (the shipped rules nest at most a few), so the game "
                        "stopped there")
