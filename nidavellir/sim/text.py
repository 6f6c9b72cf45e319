"""A simulation's summary for a terminal: per rule set the seats' win rates and the mean score, and
the figures a comparison found moved, most significant first."""
from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from .labels import shown as set_name

SHOWN = 10   # ranked figures listed


def pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def summary_text(summary: Mapping[str, Any], files: Sequence[str] = ()) -> str:
    """A rule set per column (games, mean score, each seat's win rate), then each comparison."""
    sets: list[Mapping[str, Any]] = summary.get("rule_sets", [])
    players = summary.get("players", 0)
    lines = [f"{players} players, bots by seat {', '.join(summary.get('bots', []))}; seeds from {summary.get('seed')}"]
    rows = [["", *(set_name(rs, i) for i, rs in enumerate(sets))],
            ["games", *(str(rs.get("games", 0)) for rs in sets)],
            ["mean score", *(_number(rs.get("scores", {}).get("mean")) for rs in sets)]]
    for k in range(players):
        cells = []
        for rs in sets:
            seat = rs.get("seats", [])[k] if k < len(rs.get("seats", [])) else {}
            rate = seat.get("win_rate")
            cells.append("-" if rate is None else f"{pct(rate)} ({pct(seat.get('low'))}–{pct(seat.get('high'))})")
        rows.append([f"seat {k + 1} win rate", *cells])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines += ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip()
              for r in rows]
    lines.append("win rate: a tie of k winners gives each 1/k; (95% Wilson interval)")
    for cmp in summary.get("comparisons", []):
        a, b = set_name(sets[cmp["set"]], cmp["set"]), set_name(sets[cmp["against"]], cmp["against"])
        ranked = cmp.get("ranked", [])
        moved = [f for f in cmp.get("figures", []) if f.get("significant")]
        lines.append("")
        lines += textwrap.wrap(
            f"{a} against {b} over {cmp.get('pairs', 0)} paired games ({cmp.get('test')}, "
            f"{cmp.get('correction')} at {cmp.get('alpha')}): "
            + (f"{len(moved)} figure{'s' * (len(moved) != 1)} moved significantly" if moved
               else "no figure moved significantly"), 78)
        shown = [f for f in moved if f.get("scope") in ("rules", "seat")] + list(ranked)
        for f in shown[:SHOWN]:
            lines += textwrap.wrap(
                f"{f.get('label', f.get('measure'))}: {_value(f, 'against_value')} → {_value(f, 'value')}"
                f" ({_signed(f)}, 95% {_interval(f)}; p = {f['p_adjusted']:.2g} adjusted)", 78,
                initial_indent="  ", subsequent_indent="      ")
        if len(shown) > SHOWN:
            lines.append(f"  … {len(shown) - SHOWN} more in the report")
    if files:
        lines.append("")
        lines.append("written:")
        lines += [f"  {f}" for f in files]
    return "\n".join(lines) + "\n"


def _number(x: float | None) -> str:
    return "-" if x is None else f"{x:.1f}"


def _is_rate(f: Mapping[str, Any]) -> bool:
    return str(f.get("measure", "")).endswith("rate")


def _value(f: Mapping[str, Any], key: str) -> str:
    v = f.get(key)
    if v is None:
        return "-"
    return pct(v) if _is_rate(f) else f"{v:.2f}"


def _signed(f: Mapping[str, Any]) -> str:
    d = f["difference"]
    return f"{100 * d:+.1f} pp" if _is_rate(f) else f"{d:+.2f}"


def _interval(f: Mapping[str, Any]) -> str:
    lo, hi = f["low"], f["high"]
    return f"{100 * lo:+.1f} to {100 * hi:+.1f} pp" if _is_rate(f) else f"{lo:+.2f} to {hi:+.2f}"
