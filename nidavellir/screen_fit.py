"""Fitting a decision's board to the lines a screen has left (nidavellir/terminal.py).

Issue 18: "Whatever a decision's options name must be visible on the screen that asks it; nothing
is ever cut without a marker and the key that shows it." A board is blocks of lines (a tavern, your
coins, your army, your command zone …), each with a full form and a shorter one, and whether the
decision needs it (its options name something in it). The blocks the decision does not need give
way first: shortened, then left out; the needed ones are shortened only when nothing else is left,
and cut (marked) only as the last resort. What was shortened, cut or left out is said by the result,
so that the screen can name the key that shows it all.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

CUT = "…"   # the mark of a shortened line or list


@dataclass
class Block:
    """A part of the board: `full` lines, `short` lines (fewer, or shorter, marked with CUT where
    they leave something out; the full ones when there is no shorter form), whether the decision
    `needed` it, and `drop` (the lowest number gives way first)."""

    full: list[str]
    short: list[str] | None = None
    needed: bool = False
    drop: int = 0

    def __post_init__(self) -> None:
        if self.short is None or len(self.short) > len(self.full):
            self.short = list(self.full)


@dataclass
class Fitted:
    """The board as it fits: the lines, in the blocks' order, and whether anything was shortened,
    cut or left out (then a screen names the key that shows it all)."""

    lines: list[str] = field(default_factory=list)
    shortened: bool = False
    left_out: bool = False


def fit_blocks(blocks: Sequence[Block], room: int) -> Fitted:
    """The blocks in at most `room` lines: every block in full if they fit; else the unneeded ones
    shortened, one by one, in `drop` order; then left out; then the needed ones shortened; then the
    last needed lines cut, the last kept line marked."""
    forms: list[list[str] | None] = [b.full for b in blocks]

    def used() -> int:
        return sum(len(f) for f in forms if f is not None)

    shortened = left_out = False
    order = sorted(range(len(blocks)), key=lambda i: blocks[i].drop)
    for stage in ("short", "leave"):
        for i in order:
            if used() <= room:
                break
            b = blocks[i]
            if b.needed:
                continue
            if stage == "short" and b.short != b.full:
                forms[i], shortened = b.short, True
            elif stage == "leave":
                forms[i], left_out = None, True
    for i in order:
        if used() <= room:
            break
        b = blocks[i]
        if b.needed and b.short != b.full:
            forms[i], shortened = b.short, True
    lines = [line for f in forms if f is not None for line in f]
    if len(lines) > room:
        lines = lines[:max(room, 0)]
        if lines:
            lines[-1] = mark(lines[-1])
        shortened = True
    return Fitted(lines, shortened, left_out)


def mark(line: str) -> str:
    """A line with the cut mark at its end (once)."""
    return line if line.rstrip().endswith(CUT) else line.rstrip() + " " + CUT
