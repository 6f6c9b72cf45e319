"""Plain-text score tables, and the summary of many games."""
from __future__ import annotations

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


def _columns(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows under a head, the first column to the left, the others to the right, and a rule."""
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]

    def fmt(row: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))

    return [fmt(head), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows]


def score_table(result: Mapping[str, Any], title: str) -> str:
    players = result["players"]
    columns = list(players[0]["breakdown"]) if players else []
    head = ["player"] + columns + ["total"]
    rows = [[label] + [str(pl["breakdown"][c]) for c in columns] + [str(pl["total"])]
            for label, pl in zip(seat_labels(result), players)]
    lines = [title, *_columns(head, rows)]
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
        lines = [title, *_columns(["seat", "wins", "win %", "mean score"], rows)]
        if self.shared:
            lines.append(f"{self.shared} of {self.games} games had more than one winner; each of them counts a win.")
        return "\n".join(lines) + "\n"
