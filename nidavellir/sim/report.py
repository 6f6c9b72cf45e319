"""The report of a simulation: `DIR/report.html`, `DIR/report.md` and `DIR/plots/*.png`, rendered
from its summary (sim-formats: the summary) with the Jinja2 templates in `templates/`.

report.html is one self-contained file (the plots embedded as data URIs, inline style and a few
lines of plain JavaScript that sort the tables) with a table for every figure of the summary;
report.md is what a designer pastes into a discussion: the headline, the significant changes,
the seats' win rates, the most-taken cards and links to the plots. Every string of the summary
(labels, card names: they come from rules files) is escaped, for HTML by the templates'
autoescape, for Markdown by `md_text`. Numbers are written for people: rates in percent with one
decimal ("41.2 %"), intervals "41.2–45.0 %", differences signed ("+3.1 pp", "−0.9"), with a true
minus sign. The same summary always writes the same bytes.
"""
from __future__ import annotations

import base64
import re
import shlex
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from . import folder
from .labels import shown
from .plots import (
    COLOURS,
    VARIANT_MARKS,
    Plot,
    card_names,
    digits,
    measure_name,
    number,
    plots,
    scale,
    signed,
    subject_label,
    unit,
)

if TYPE_CHECKING:
    import jinja2

__all__ = [
    "difference",
    "difference_interval",
    "md_text",
    "p_value",
    "percent",
    "percent_interval",
    "render_report",
]

PLOT_NAMES = ("changes", "scores", "seats", "breakdown", "cards")  # every plot file the report may write
MD_TOP_CARDS = 15
MINUS = "−"
DASH = "—"

# -- numbers for people ---------------------------------------------------------------------------


def _plain(x: float, places: int) -> str:
    return f"{x:,.{places}f}".replace("-", MINUS)


def percent(rate: Any) -> str:
    """A rate in [0, 1] as a percent with one decimal: "41.2 %"; missing: a dash."""
    x = number(rate)
    return DASH if x is None else f"{_plain(100 * x, 1)} %"


def percent_interval(low: Any, high: Any) -> str:
    """An interval of rates: "41.2–45.0 %"."""
    lo, hi = number(low), number(high)
    if lo is None or hi is None:
        return DASH
    return f"{_plain(100 * lo, 1)}–{_plain(100 * hi, 1)} %"


def value(x: Any, measure: str) -> str:
    """A figure's value: rates in percent, takes per game with two decimals, points with one."""
    v = number(x)
    if v is None:
        return DASH
    return percent(v) if scale(measure) != 1 else _plain(v, digits(measure))


def difference(d: Any, measure: str) -> str:
    """A difference between two rule sets' figures, signed: "+3.1 pp" for rates, "−0.9" for points."""
    v = number(d)
    if v is None:
        return DASH
    text = signed(scale(measure) * v, digits(measure))
    return f"{text} pp" if unit(measure) == "pp" else text


def difference_interval(low: Any, high: Any, measure: str) -> str:
    """The interval of a difference: "−1.2 to +5.0 pp" (signed ends, so no dash reads as a minus)."""
    lo, hi = number(low), number(high)
    if lo is None or hi is None:
        return DASH
    k, n = scale(measure), digits(measure)
    text = f"{signed(k * lo, n)} to {signed(k * hi, n)}"
    return f"{text} pp" if unit(measure) == "pp" else text


def p_value(p: Any) -> str:
    """A p-value with three decimals, or "< 0.001"."""
    v = number(p)
    if v is None:
        return DASH
    return "< 0.001" if v < 0.001 else f"{v:.3f}"


def _count(x: Any) -> str:
    v = number(x)
    if v is None:
        return DASH
    return _plain(v, 0) if v == int(v) else _plain(v, 1)


def _mean(x: Any, places: int = 1) -> str:
    v = number(x)
    return DASH if v is None else _plain(v, places)


# -- Markdown -------------------------------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_\[\]|$~])")
_MD_TAG = re.compile(r"<(?=[A-Za-z/!?])")
_MD_ENTITY = re.compile(r"&(?=[A-Za-z0-9#])")


def md_text(text: Any) -> str:
    """Plain text as Markdown shows it on one line (in a table cell too): the characters Markdown
    would read as markup escaped, a tag's `<` and an entity's `&` as entities, lines joined."""
    line = " ".join(str(text).split())
    line = _MD_TAG.sub("&lt;", _MD_ENTITY.sub("&amp;", line))  # the `&` first: `&lt;` stays one entity
    return _MD_SPECIAL.sub(r"\\\1", line)


def _md_finalize(x: Any) -> Any:
    return x if hasattr(x, "__html__") else md_text("" if x is None else x)


@lru_cache(maxsize=2)
def _env(kind: str) -> jinja2.Environment:
    import jinja2  # here: importing the module stays cheap

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(Path(__file__).with_name("templates"))),
                             autoescape=kind == "html", undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    if kind == "md":
        env.finalize = _md_finalize
    return env


# -- what the templates show ----------------------------------------------------------------------

def _cell(text: str, sort: Any = None, cls: str = "n") -> dict[str, Any]:
    """A table cell: its text, the number it sorts by (empty: last), its class (n: a number)."""
    v = number(sort)
    return {"text": text, "v": "" if v is None else repr(v), "cls": cls}


def _seats(rs: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A rule set's seats; without games a seat has no rate (not 0 %, not the interval 0–100 %)."""
    if not rs.get("games"):
        return [{"seat": int(s["seat"]), "bot": str(s.get("bot", "")),
                 "cells": [_cell(_count(s.get("wins")), s.get("wins"))] + [_cell(DASH)] * 4, "rate": DASH,
                 "interval": DASH} for s in rs.get("seats", [])]
    return [{"seat": int(s["seat"]), "bot": str(s.get("bot", "")),
             "cells": [_cell(_count(s.get("wins")), s.get("wins")), _cell(percent(s.get("win_rate")), s.get("win_rate")),
                       _cell(percent_interval(s.get("low"), s.get("high")), s.get("low")),
                       _cell(_mean(s.get("mean_score")), s.get("mean_score")),
                       _cell(_mean(s.get("sd_score")), s.get("sd_score"))],
             "rate": percent(s.get("win_rate")), "interval": percent_interval(s.get("low"), s.get("high"))}
            for s in rs.get("seats", [])]


QUANTILES = ("5", "25", "50", "75", "95")


def _distribution(name: str, d: Mapping[str, Any]) -> dict[str, Any]:
    q = d.get("quantiles") or {}
    return {"name": name, "cells": [_mean(d.get("mean")), _mean(d.get("sd")), _count(d.get("min")),
                                    *(_count(q.get(k)) for k in QUANTILES), _count(d.get("max"))]}


def _joined(counts: Sequence[Any]) -> str:
    return " · ".join(_count(v) for v in counts)


def _ages(rs: Mapping[str, Any]) -> list[str]:
    """The ages in which a rule set's cards were taken, in order."""
    ages = {str(a) for c in rs.get("cards", []) for a in (c.get("by_age") or {})}
    return sorted(ages, key=lambda a: (int(a), a) if a.isdigit() else (1 << 30, a))


def _cards(rs: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A rule set's cards, the most-taken first, a row each."""
    ages = _ages(rs)
    rows = []
    for c in sorted(rs.get("cards", []), key=lambda c: (-(number(c.get("take_rate")) or 0.0), str(c["card"]))):
        by_age = c.get("by_age") or {}
        how = sorted((c.get("by_how") or {}).items())
        rows.append({"card": str(c["card"]), "name": str(c.get("name") or c["card"]),
                     "kind": str(c.get("kind") or DASH), "class": str(c.get("class") or DASH),
                     # the figures a designer asks for first, so they show at 1200 px without scrolling sideways
                     "cells": [_cell(percent(c.get("take_rate")), c.get("take_rate")),
                               _cell(percent(c.get("taker_win_rate")), c.get("taker_win_rate")),
                               _cell(percent_interval(c.get("low"), c.get("high")), c.get("low")),
                               _cell(_mean(c.get("mean_points")), c.get("mean_points")),
                               _cell(_count(c.get("taker_games")), c.get("taker_games")),
                               _cell(_mean(c.get("per_game"), 2), c.get("per_game")),
                               _cell(_count(c.get("takes")), c.get("takes")),
                               _cell(_joined(c.get("by_seat") or []), None),
                               _cell(_joined([by_age.get(a, 0) for a in ages]), None),
                               _cell(" · ".join(f"{k} {_count(v)}" for k, v in how), None, "seq"),
                               _cell(_mean(c.get("mean_turn")), c.get("mean_turn"))],
                     "take_rate": percent(c.get("take_rate")), "taker_win_rate": percent(c.get("taker_win_rate"))})
    return rows


def _classes(rs: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A rule set's classes, a row each."""
    return [{"class": str(c.get("class") or DASH),
             "cells": [_cell(_count(c.get("takes")), c.get("takes")), _cell(_mean(c.get("per_game"), 2), c.get("per_game")),
                       _cell(_mean(c.get("mean_points")), c.get("mean_points")),
                       _cell(_mean(c.get("part_mean")), c.get("part_mean"))]}
            for c in rs.get("classes", [])]


def _rule_set(i: int, rs: Mapping[str, Any]) -> dict[str, Any]:
    """A rule set's section of the report: its tables, formatted."""
    length = rs.get("length") or {}
    margin = rs.get("margin") or {}
    games = int(rs.get("games") or 0)
    return {"index": i, "anchor": f"set-{i}", "label": shown(rs, i),
            "about": str(rs.get("about", "")),
            "colour": COLOURS[i % len(COLOURS)], "games": games, "games_text": f"{games:,} games",
            "ties": _count(rs.get("ties")), "seats": _seats(rs),
            "scores": [_distribution("every player's score", rs.get("scores") or {}),
                       _distribution("the winner's score", rs.get("winning_scores") or {})],
            "margin": {"mean": _mean(margin.get("mean")), "sd": _mean(margin.get("sd"))},
            "breakdown": [{"part": str(b["part"]), "mean": _mean(b.get("mean")), "sd": _mean(b.get("sd"))}
                          for b in rs.get("breakdown", [])],
            "length": [{"name": name, "mean": _mean((length.get(key) or {}).get("mean")),
                        "min": _count((length.get(key) or {}).get("min")), "max": _count((length.get(key) or {}).get("max"))}
                       for key, name in (("turns", "turns"), ("decisions", "decisions"))],
            "cards": _cards(rs), "ages": " · ".join(_ages(rs)), "classes": _classes(rs)}


def _figure(f: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A compared figure as the tables show it: formatted, with the numbers its cells sort by."""
    measure = str(f.get("measure", ""))
    d = number(f.get("difference"))
    significant = bool(f.get("significant"))
    return {"key": f"{f.get('scope')}:{f.get('subject')}:{measure}", "scope": str(f.get("scope", "")),
            "subject": subject_label(f, names), "subject_id": str(f.get("subject", "")),
            "label": str(f.get("label") or measure_name(measure)), "measure": measure_name(measure),
            "value": value(f.get("value"), measure), "against": value(f.get("against_value"), measure),
            "difference": difference(d, measure),
            "interval": difference_interval(f.get("low"), f.get("high"), measure),
            "z": _mean(f.get("z"), 2), "p": p_value(f.get("p")), "p_adjusted": p_value(f.get("p_adjusted")),
            "significant": significant,
            # only a significant change is coloured: the eye should not read noise as an effect
            "direction": "up" if significant and d and d > 0 else "down" if significant and d and d < 0 else "",
            "sort": {"value": number(f.get("value")), "against": number(f.get("against_value")), "difference": d,
                     "low": number(f.get("low")), "z": number(f.get("z")), "p": number(f.get("p")),
                     "p_adjusted": number(f.get("p_adjusted"))}}


HEADLINE = (("rules", "mean_score"), ("rules", "winning_score"), ("rules", "margin"), ("rules", "turns"),
            ("seat", "win_rate"))


def _comparison(comp: Mapping[str, Any], labels: Sequence[str], names: Mapping[str, str]) -> dict[str, Any]:
    """The comparison: the method in words, its headline figures (the rules' and the seats' main
    figures, and any other of theirs that changed significantly), the ranked and all figures."""
    figures = [_figure(f, names) for f in comp.get("figures", [])]
    significant = [f for f in figures if f["significant"]]
    headline = [f for f, raw in zip(figures, comp.get("figures", []))
                if (raw.get("scope"), raw.get("measure")) in HEADLINE or
                (f["significant"] and raw.get("scope") in ("rules", "seat"))]
    a, b = int(comp.get("set", 0)), int(comp.get("against", 1))
    alpha = number(comp.get("alpha"))
    return {"a": labels[a] if a < len(labels) else f"rule set {a}", "b": labels[b] if b < len(labels) else f"rule set {b}",
            "pairs": f"{int(comp.get('pairs') or 0):,}", "test": str(comp.get("test", "")),
            "correction": str(comp.get("correction", "")), "alpha": f"{alpha:g}" if alpha is not None else DASH,
            "tested": f"{len(figures):,}", "significant": len(significant),
            "significant_rules": len([f for f in significant if f["scope"] in ("rules", "seat")]),
            "headline": headline, "ranked": [_figure(f, names) for f in comp.get("ranked", [])], "figures": figures}


def _headline_rows(sets: Sequence[dict[str, Any]], raw: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The headline of rule sets without a comparison: a row per figure, a column per rule set."""
    def row(label: str, cells: list[str]) -> dict[str, Any]:
        return {"label": label, "cells": cells}
    rows = [row("games", [f"{s['games']:,}" for s in sets]), row("ties", [s["ties"] for s in sets]),
            row("mean score", [_mean((r.get("scores") or {}).get("mean")) for r in raw]),
            row("winning score", [_mean((r.get("winning_scores") or {}).get("mean")) for r in raw]),
            row("winning margin", [_mean((r.get("margin") or {}).get("mean")) for r in raw]),
            row("turns", [_mean(((r.get("length") or {}).get("turns") or {}).get("mean")) for r in raw])]
    seats = max((len(s["seats"]) for s in sets), default=0)
    for k in range(seats):
        rows.append(row(f"seat {k + 1} win rate",
                        [f"{s['seats'][k]['rate']} ({s['seats'][k]['interval']})"
                         if k < len(s["seats"]) and s["games"] else DASH for s in sets]))
    return rows


def _md_cards(sets: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The most-taken cards of the first rule set that took any, with every rule set's rates."""
    first = next((s for s in sets if s["cards"]), None)
    if first is None:
        return None
    by_set = [{c["card"]: c for c in s["cards"]} for s in sets]
    rows = [{"name": c["name"], "card": c["card"], "kind": c["kind"],
             "take": [m[c["card"]]["take_rate"] if c["card"] in m else DASH for m in by_set],
             "wins": [m[c["card"]]["taker_win_rate"] if c["card"] in m else DASH for m in by_set]}
            for c in first["cards"][:MD_TOP_CARDS]]
    return {"label": first["label"], "taken": len(first["cards"]), "rows": rows}


ARROWS = {"higher": "▲", "lower": "▼"}
VARIANT_RULE = ("Each figure is the card's, with its 95 % interval, beside its peers' mean: the plain mean of the same "
                "figure over the other cards of the same kind and class in the same rule set that no variant adds or "
                "changes (the take rate over all of them, one never taken counting 0 %; the points and the win rate "
                "over those taken). ▲ higher or ▼ lower: the card's interval lies wholly above or below its peers' "
                "mean. No arrow is not \"no difference\": more games narrow the interval.")


def _variant_figure(f: Mapping[str, Any], measure: str) -> dict[str, str]:
    """A variant card's figure as the tables show it: the value, its interval, the peers' mean, the flag."""
    if measure == "mean_points":
        lo, hi = number(f.get("low")), number(f.get("high"))
        interval = DASH if lo is None or hi is None else f"{_plain(lo, 1)}–{_plain(hi, 1)}"
        value, peers = _mean(f.get("value")), _mean(f.get("peers"))
    else:
        value, peers = percent(f.get("value")), percent(f.get("peers"))
        interval = percent_interval(f.get("low"), f.get("high"))
    flagged = str(f.get("flag") or "")
    return {"value": value, "interval": interval, "peers": peers, "flag": flagged,
            "arrow": ARROWS.get(flagged, ""), "v": "" if number(f.get("value")) is None else repr(number(f.get("value")))}


def _variant_cards(raw: Sequence[Mapping[str, Any]], labels: Sequence[str]) -> list[dict[str, Any]]:
    """Per rule set whose variants add or change cards: a row per card (issue 18: "Is my new card too
    strong?"); none without such cards."""
    out = []
    for i, rs in enumerate(raw):
        rows = []
        for c in rs.get("variant_cards") or []:
            how = str(c.get("how", ""))
            count = int(c.get("peer_count") or 0)
            group = str(c.get("peers", ""))
            rows.append({"card": str(c["card"]), "name": str(c.get("name") or c["card"]), "how": how,
                         "mark": VARIANT_MARKS.get(how, ""), "kind": str(c.get("kind") or DASH),
                         "peers": f"other {group} ({count})" if count else f"no other {group}",
                         "taken": f"{int(c.get('games_taken') or 0):,}",
                         "figures": [_variant_figure(c.get(m) or {}, m)
                                     for m in ("take_rate", "mean_points", "taker_win_rate")]})
        if rows:
            out.append({"label": labels[i] if i < len(labels) else f"rule set {i}", "games": f"{int(rs.get('games') or 0):,}",
                        "rows": rows, "added": sum(r["how"] == "added" for r in rows),
                        "changed": sum(r["how"] == "changed" for r in rows)})
    return out


def _context(summary: Mapping[str, Any], drawn: Sequence[Plot], images: bool) -> dict[str, Any]:
    """What the templates show (`images`: the plots as data URIs, for the self-contained page)."""
    raw = list(summary.get("rule_sets", []))
    sets = [_rule_set(i, rs) for i, rs in enumerate(raw)]
    labels = [s["label"] for s in sets]
    names = card_names(summary)
    comps = summary.get("comparisons") or []
    comparison = _comparison(comps[0], labels, names) if comps else None
    title = f"{comparison['a']} against {comparison['b']}" if comparison else " and ".join(labels) or "no rule set"
    boxes = " + ".join(["base", *(str(e) for e in summary.get("expansions", []))])
    bots = [str(b) for b in summary.get("bots", [])]
    return {"title": title, "players": int(summary.get("players") or 0), "boxes": boxes, "bots": ", ".join(bots),
            "seed": str(summary.get("seed", DASH)), "sets": sets, "comparison": comparison,
            "headline_rows": _headline_rows(sets, raw), "md_cards": _md_cards(sets), "bots_note": bots_note(summary),
            "variant_cards": _variant_cards(raw, labels), "variant_rule": VARIANT_RULE,
            "quantiles": QUANTILES, "played": any(s["games"] for s in sets),
            "notes": [str(n) for n in (summary.get("records") or {}).get("notes") or []],
            "plots": [{"name": p.name, "title": p.title, "file": Markup(f"plots/{p.name}.png"),
                       "src": Markup("data:image/png;base64," + base64.b64encode(p.png).decode("ascii")) if images else ""}
                      for p in drawn]}


BOT_MEANING = {
    "random": "picks uniformly among the legal options",
    "greedy": "takes what raises its score now (closer to people than random, but it plans nothing)",
    "search": "plans ahead by playing sampled games out (the closest to people here)",
}
BOT_COST = "Greedy takes a little longer than random; search far longer, as its budget (search:N) sets"


def bots_note(summary: Mapping[str, Any]) -> dict[str, str]:
    """Which bots played, what that means for the figures, and the command that plays the same games
    with others (issue 18: "The report says which bots played and what that means")."""
    bots = [str(b) for b in summary.get("bots", [])]
    kinds = list(dict.fromkeys(b.split(":")[0] for b in bots))
    meaning = "; ".join(f"{k} {BOT_MEANING.get(k, 'is a bot of its own')}" for k in kinds)
    sets = list(summary.get("rule_sets", []))
    args = ["nidavellir", "simulate", "--players", str(summary.get("players") or 3)]
    if summary.get("expansions"):
        args += ["--expansions", ",".join(str(e) for e in summary["expansions"])]
    for i, flag in ((0, "--variant"), (1, "--against")):
        if len(sets) > i:
            for v in sets[i].get("given") or ([] if i else sets[i].get("variants") or []):
                args += [flag, str(v)]
    games = max((int(s.get("games") or 0) for s in sets), default=0)
    other = "search" if kinds and all(k in ("random", "greedy") for k in kinds) and "random" not in kinds else "greedy"
    args += ["--games", str(max(games, 1)), "--seed", str(summary.get("seed", 1)), "--bots", other, "--out", "DIR"]
    advice = ("Random play measures what the rules allow, not the balance people will feel: play the same "
              "games with greedy (or search) bots before deciding." if kinds == ["random"] else
              "A finding that holds with other bots too is one to trust.")
    return {"bots": ", ".join(bots) or DASH, "meaning": meaning, "advice": advice, "cost": BOT_COST + ".",
            "command": " ".join(shlex.quote(a) for a in args)}


def render_report(summary: Mapping[str, Any], out: Path) -> list[Path]:
    """Write `out/report.html`, `out/report.md` and `out/plots/*.png` for a summary; the paths written
    (the two reports, then the plots in the order the report shows them). A plot file of an earlier
    report that this one does not draw (the changes of a comparison) is removed. Every file is
    judged first and written whole (folder.py: never a pipe, never through a link out of `out`)."""
    out = Path(out)
    plots_folder = out / "plots"
    drawn = plots(summary)
    page = _env("html").get_template("report.html.j2").render(_context(summary, drawn, images=True))
    text = _env("md").get_template("report.md.j2").render(_context(summary, drawn, images=False))
    html_path, md_path = out / "report.html", out / "report.md"
    stale = [plots_folder / f"{name}.png" for name in PLOT_NAMES if name not in {p.name for p in drawn}]
    folder.make_folder(out, out)
    for path in (html_path, md_path):
        folder.check_write(out, path)  # (judged before anything is written)
    folder.make_folder(out, plots_folder)
    for path in [*(plots_folder / f"{p.name}.png" for p in drawn), *stale]:
        folder.check_write(out, path)
    written: list[Path] = []
    for p in drawn:
        path = plots_folder / f"{p.name}.png"
        folder.write_file(out, path, p.png)
        written.append(path)
    for path in stale:
        if folder.exists(path):
            path.unlink()
    folder.write_file(out, html_path, _tidy(page).encode("utf-8"))
    folder.write_file(out, md_path, _tidy(text).encode("utf-8"))
    return [html_path, md_path, *written]


def _tidy(text: str) -> str:
    """No trailing spaces, at most one blank line in a row, one newline at the end."""
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
