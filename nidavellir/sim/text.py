"""A simulation's summary for a terminal: per rule set the seats' win rates and the mean score, and
the figures a comparison found moved, most significant first."""
from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

SHOWN = 10   # ranked figures listed


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary_text(summary: Mapping[str, Any], files: Sequence[str] = ()) -> str:
    sets: list[Mapping[str, Any]] = summary.get("rule_sets", [])
    players = summary.get("players", 0)
    lines = [f"{players} players, bots {', '.join(summary.get('bots', []))}; seeds from {summary.get('seed')}"]
    head = ["rule set", "games", "mean score", *(f"seat {i + 1}" for i in range(players))]
    rows = []
    for rs in sets:
        seats = rs.get("seats", [])
        scores = rs.get("scores", {})
        rows.append([str(rs.get("label", "")), str(rs.get("games", 0)),
                     f"{scores.get('mean', 0):.1f}" if rs.get("games") else "-",
                     *(f"{pct(s['win_rate'])} ({pct(s['low'])}–{pct(s['high'])})" for s in seats)])
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    lines += [fmt.format(*head), *(fmt.format(*r) for r in rows)]
    lines.append("seat N: win rate in that seat (95% Wilson interval); a tie of k winners gives each 1/k")
    for cmp in summary.get("comparisons", []):
        a, b = sets[cmp["set"]]["label"], sets[cmp["against"]]["label"]
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
            lines.append(f"  {f.get('label', f.get('measure'))}: {_value(f, 'against_value')} → {_value(f, 'value')}"
                         f" ({_signed(f)}, 95% {_interval(f)}; p = {f['p_adjusted']:.2g} adjusted)")
        if len(shown) > SHOWN:
            lines.append(f"  … {len(shown) - SHOWN} more in the report")
    if files:
        lines.append("")
        lines.append("written: " + ", ".join(files))
    return "\n".join(lines) + "\n"


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
