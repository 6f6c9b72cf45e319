"""Plain-text score tables, and the summary of many games."""
from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any


def seat_labels(result: Mapping[str, Any]) -> list[str]:
    """Each player's name, with the bot or `human` that played the seat where the result says
    (`P1 (greedy)`); a scored position has names only."""
    names = [str(p["name"]) for p in result["players"]]
    bots = result.get("bots") or []
    if len(bots) != len(names):
        return names
    return [f"{name} ({bot})" for name, bot in zip(names, bots)]


WIDTH = 80   # a terminal's columns: a table fits them


def columns(head: Sequence[str], rows: Sequence[Sequence[str]], width: int = WIDTH) -> list[str]:
    """Rows under a head, the first column to the left, the others to the right, and a rule, within
    `width` columns where it can be: a head of several words is first stacked on two lines (`win` over
    `rate`), then a word longer than its column's cells is cut to them (at least 4 letters, each cut
    named in a key under the rows)."""
    heads = [[h] for h in head]
    gap = 2

    def widths() -> list[int]:
        return [max([len(r[i]) for r in rows] + [len(x) for x in heads[i]]) for i in range(len(head))]

    def wide() -> bool:
        return sum(widths()) + gap * (len(head) - 1) > width

    key: list[str] = []
    if wide():
        heads = [_stacked(h) for h in head]
    if wide():
        gap = 1
    cells = [max((len(r[i]) for r in rows), default=0) for i in range(len(head))]
    longest = sorted(range(1, len(head)), key=lambda i: -max(len(x) for x in heads[i]))
    for i in longest:  # (the longest heads first, as few as fit)
        if not wide():
            break
        cut = [x[:max(cells[i], 4)] for x in heads[i]]
        if cut != heads[i]:
            key.append(f"{' '.join(cut)}: {head[i]}")
            heads[i] = cut
    w = widths()
    depth = max(len(h) for h in heads)
    lines = []

    def fmt(row: Sequence[str]) -> str:
        return (" " * gap).join(cell.ljust(n) if i == 0 else cell.rjust(n)
                                for i, (cell, n) in enumerate(zip(row, w))).rstrip()

    for k in range(depth):  # (a short head sits on the last line, over its column)
        lines.append(fmt([h[k - depth + len(h)] if k >= depth - len(h) else "" for h in heads]))
    lines.append((" " * gap).join("-" * n for n in w))
    lines.extend(fmt(r) for r in rows)
    if key:
        lines.extend(textwrap.wrap("Key: " + "; ".join(key) + ".", width))
    return lines


def _stacked(head: str) -> list[str]:
    """A head on two lines, split at the space nearest its middle (one word stays on one line)."""
    spaces = [i for i, ch in enumerate(head) if ch == " "]
    if not spaces:
        return [head]
    at = min(spaces, key=lambda i: abs(len(head) - 2 * i))
    return [head[:at], head[at + 1:]]


def score_table(result: Mapping[str, Any], title: str) -> str:
    players = result["players"]
    parts = list(players[0]["breakdown"]) if players else []
    head = ["player"] + parts + ["total"]
    rows = [[label] + [str(pl["breakdown"][c]) for c in parts] + [str(pl["total"])]
            for label, pl in zip(seat_labels(result), players)]
    lines = [title, *columns(head, rows)]
    winners = result.get("winners", [])
    lines.append(("Winners: " if len(winners) > 1 else "Winner: ") + ", ".join(winners))
    return "\n".join(lines) + "\n"


class Tally:
    """What a run of games says per seat: wins (each winner of a shared win counts one) and the
    mean score, with the seat's bot."""

    def __init__(self) -> None:
        self.games = 0
        self.shared = 0                 # games with more than one winner
        self.labels: list[str] = []
        self.wins: list[int] = []
        self.totals: list[int] = []

    def add(self, result: Mapping[str, Any]) -> None:
        players = result["players"]
        if not self.labels:
            self.labels = seat_labels(result)
            self.wins = [0] * len(players)
            self.totals = [0] * len(players)
        winners = set(result.get("winners", []))
        self.games += 1
        self.shared += len(winners) > 1
        for i, p in enumerate(players):
            self.wins[i] += p["name"] in winners
            self.totals[i] += p["total"]

    def table(self, title: str) -> str:
        n = max(self.games, 1)
        rows = [[label, str(wins), f"{100 * wins / n:.1f}%", f"{total / n:.1f}"]
                for label, wins, total in zip(self.labels, self.wins, self.totals)]
        lines = [title, *columns(["seat", "wins", "win %", "mean score"], rows)]
        if self.shared:
            lines.append(f"{self.shared} of {self.games} games had more than one winner; each of them counts a win.")
        return "\n".join(lines) + "\n"
