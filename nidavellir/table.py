"""Plain-text score tables."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def score_table(result: Mapping[str, Any], title: str) -> str:
    players = result["players"]
    columns = list(players[0]["breakdown"]) if players else []
    head = ["player"] + columns + ["total"]
    rows = [[pl["name"]] + [str(pl["breakdown"][c]) for c in columns] + [str(pl["total"])] for pl in players]
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]

    def fmt(row: list[str]) -> str:
        return "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))

    lines = [title, fmt(head), "  ".join("-" * w for w in widths)]
    lines += [fmt(r) for r in rows]
    winners = result.get("winners", [])
    lines.append(("Winners: " if len(winners) > 1 else "Winner: ") + ", ".join(winners))
    return "\n".join(lines) + "\n"
