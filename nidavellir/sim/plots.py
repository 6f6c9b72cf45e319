"""The plots of a simulation report, drawn from its summary (sim-formats: the summary) as PNG bytes.

Each plot is a matplotlib figure drawn by the Agg backend without pyplot (no global state), with
the fonts matplotlib ships (the same glyphs on every machine) and without the PNG's "Software"
entry, so one summary always gives the same bytes. Names from rules files are drawn as plain text
(no mathtext: a `$` in a card's name stays a `$`) and shortened when long. matplotlib is imported
inside the functions: importing this module is cheap.

Rule set 0 (the variant tested) is drawn in vermilion, rule set 1 (its reference) in blue
(Okabe–Ito colours, told apart with colour-blindness too).
"""
from __future__ import annotations

import io
import math
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .labels import shown

if TYPE_CHECKING:
    from matplotlib.figure import Figure

COLOURS = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
DPI = 110
WIDTH = 10.0          # inches: 1,100 pixels at DPI
TOP_CARDS = 40        # the cards chart shows the most-taken cards, the report's tables all of them
TOP_CHANGES = 30      # the changes chart shows the significant figures with the largest |z|
LABEL_CHARS = 34      # longer names are cut with an ellipsis

# Figures that are proportions: shown in percent, their differences in percentage points.
RATE_MEASURES = frozenset({"win_rate", "take_rate", "taker_win_rate"})
# The order in which the changes chart groups card and class figures (others follow by name).
MEASURE_ORDER = ("take_rate", "per_game", "taker_win_rate", "mean_points", "part_mean")
MEASURE_NAMES = {"take_rate": "take rate", "per_game": "takes per game", "taker_win_rate": "taker win rate",
                 "mean_points": "mean points per take", "part_mean": "mean column score",
                 "win_rate": "win rate", "mean_score": "mean score", "winning_score": "winning score",
                 "margin": "winning margin", "turns": "turns"}


@dataclass(frozen=True)
class Plot:
    """A plot of the report: its file is `plots/<name>.png`."""
    name: str
    title: str
    png: bytes


def plots(summary: Mapping[str, Any]) -> list[Plot]:
    """Every plot of a summary, in the order the report shows them (changes only with a comparison)."""
    out = [Plot("scores", "Score distributions", scores_png(summary)),
           Plot("seats", "Win rate by seat", seats_png(summary)),
           Plot("breakdown", "Mean score by part", breakdown_png(summary)),
           Plot("cards", "Most-taken cards", cards_png(summary))]
    if summary.get("comparisons"):
        out.insert(0, Plot("changes", "Significant changes", changes_png(summary)))
    return out


# -- shared helpers -------------------------------------------------------------------------------

def number(value: Any) -> float | None:
    """A finite number from the summary, or None (missing, null, NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def short(text: Any, limit: int = LABEL_CHARS) -> str:
    """A label on one line, cut to `limit` characters with an ellipsis."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def card_names(summary: Mapping[str, Any]) -> dict[str, str]:
    """Each card id's name, from the rule sets' card tables (the first that names it)."""
    names: dict[str, str] = {}
    for rs in summary.get("rule_sets", []):
        for c in [*rs.get("cards", []), *(rs.get("variant_cards") or [])]:  # (a variant's card may be untaken)
            names.setdefault(str(c["card"]), str(c.get("name") or c["card"]))
    return names


def measure_name(measure: str) -> str:
    """The words for a measure (`part:warrior` is the warrior column's mean score)."""
    if measure.startswith("part:"):
        return f"mean {measure[5:]} score"
    return MEASURE_NAMES.get(measure, measure.replace("_", " "))


def scale(measure: str) -> float:
    """What a measure's values are multiplied by to show them: 100 for rates (percent)."""
    return 100.0 if measure in RATE_MEASURES else 1.0


def unit(measure: str) -> str:
    """The unit of a difference in a measure: percentage points for rates, else the measure's own."""
    if measure in RATE_MEASURES:
        return "pp"
    return "cards" if measure == "per_game" else "turns" if measure == "turns" else "points"


def signed(x: float, digits: int) -> str:
    """A signed number with a true minus sign ("+3.1", "−0.9"); one that rounds to zero unsigned."""
    text = f"{x:+.{digits}f}"
    if float(text) == 0:
        return f"{0:.{digits}f}"
    return text.replace("-", "\u2212")


def digits(measure: str) -> int:
    """The decimals a measure's values and differences are shown with (rates in percent)."""
    return 2 if measure in ("per_game", "turns") else 1


def _labels(summary: Mapping[str, Any]) -> list[str]:
    return [short(shown(rs, i), 24) for i, rs in enumerate(summary.get("rule_sets", []))]


def _colour(i: int) -> str:
    return COLOURS[i % len(COLOURS)]


@contextmanager
def _style() -> Iterator[None]:
    import matplotlib

    with matplotlib.rc_context({
        "text.parse_math": False, "font.family": "DejaVu Sans", "font.size": 9.5,
        "axes.spines.top": False, "axes.spines.right": False, "axes.grid": True, "axes.axisbelow": True,
        "grid.color": "#d9d9d9", "grid.linewidth": 0.6, "axes.titlesize": 11, "axes.titleweight": "bold",
        "legend.frameon": False, "figure.facecolor": "white", "savefig.facecolor": "white",
    }), warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*[Gg]lyph.*missing")  # a name's emoji: a box, no warning
        yield


def _figure(height: float, width: float = WIDTH) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None}, pil_kwargs={"optimize": True})
    return buf.getvalue()


def _note(title: str, text: str, height: float = 1.3) -> bytes:
    """A figure with nothing to plot: a title and a sentence saying why."""
    with _style():
        fig = _figure(height)
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.set_title(title, loc="left")
        ax.text(0.5, 0.4, text, ha="center", va="center", fontsize=11, color="#444444", transform=ax.transAxes)
        return _png(fig)


def _played(summary: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    """The rule sets (index in the summary, rule set) that have games."""
    return [(i, rs) for i, rs in enumerate(summary.get("rule_sets", [])) if (rs.get("games") or 0) > 0]


# -- score distributions --------------------------------------------------------------------------

def _step(low: int, high: int, bins: int = 40) -> int:
    """A round bin width that puts the range [low, high] in at most about `bins` bins."""
    span = high - low + 1
    for w in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if span / w <= bins:
            return w
    return math.ceil(span / bins)


def _binned(hists: Sequence[Sequence[Sequence[float]]]) -> tuple[list[float], list[list[float]]]:
    """Histograms of integer totals put in common bins: the edges and each one's share (percent)."""
    totals = [int(t) for h in hists for t, n in h if n]
    if not totals:
        return [], [[] for _ in hists]
    w = _step(min(totals), max(totals))
    first = (min(totals) // w) * w
    count = (max(totals) - first) // w + 1
    edges = [first + k * w - 0.5 for k in range(count + 1)]
    shares = []
    for h in hists:
        bins = [0.0] * count
        for t, n in h:
            if n:
                bins[(int(t) - first) // w] += float(n)
        total = sum(bins)
        shares.append([100.0 * b / total if total else 0.0 for b in bins])
    return edges, shares


def scores_png(summary: Mapping[str, Any]) -> bytes:
    """Two panels: every player's final score, and the winner's, one outlined area per rule set
    (share of the scores in each bin, so rule sets with different numbers of games compare)."""
    played = _played(summary)
    if not played:
        return _note("Score distributions", "No games were played.")
    labels = _labels(summary)
    with _style():
        fig = _figure(4.2)
        axes = fig.subplots(1, 2, sharey=False)
        for ax, key, title in ((axes[0], "scores", "Every player's final score"),
                               (axes[1], "winning_scores", "The winner's score")):
            hists = [rs.get(key, {}).get("histogram", []) for _, rs in played]
            edges, shares = _binned(hists)
            for (i, rs), share in zip(played, shares):
                if not share:
                    continue
                mean = number(rs.get(key, {}).get("mean"))
                c = _colour(i)
                ax.stairs(share, edges, fill=True, color=c, alpha=0.14, linewidth=0)
                text = labels[i] + (f" (mean {mean:.1f})" if mean is not None else "")
                ax.stairs(share, edges, color=c, linewidth=1.8, label=text)
                if mean is not None:
                    ax.axvline(mean, color=c, linestyle="--", linewidth=1.2)
            ax.set_title(title, loc="left", pad=22 if edges else 6)
            ax.set_xlabel("Final Bravery Value (dashed: the mean)")
            ax.set_ylabel(f"share of scores per {edges[1] - edges[0]:.0f}-point bin (%)" if edges else "share (%)")
            ax.set_ylim(bottom=0)
            if edges:  # between the title and the plot: never over a curve
                ax.legend(loc="lower left", bbox_to_anchor=(0.0, 1.0), ncols=len(played), fontsize=8.5,
                          borderaxespad=0.2, handlelength=1.5, columnspacing=1.2)
        return _png(fig)


# -- seats ----------------------------------------------------------------------------------------

def seats_png(summary: Mapping[str, Any]) -> bytes:
    """Each seat's win rate per rule set with its 95 % interval, against the chance line 1/N."""
    played = _played(summary)
    players = int(summary.get("players") or 0)
    if not played or players <= 0:
        return _note("Win rate by seat", "No games were played.")
    labels = _labels(summary)
    with _style():
        fig = _figure(4.0, 8.0)
        ax = fig.add_subplot()
        k = len(played)
        offsets = [(j - (k - 1) / 2) * 0.22 for j in range(k)]
        bots: dict[int, str] = {}
        for (i, rs), dx in zip(played, offsets):
            label: str | None = labels[i]  # on the rule set's first point only
            for s in rs.get("seats", []):
                rate, low, high = (number(s.get(f)) for f in ("win_rate", "low", "high"))
                if rate is None:
                    continue
                x = int(s["seat"]) + dx
                lo = rate if low is None else low
                hi = rate if high is None else high
                ax.errorbar([x], [100 * rate], yerr=[[100 * (rate - lo)], [100 * (hi - rate)]], fmt="o",
                            color=_colour(i), capsize=5, markersize=7, linewidth=1.6,
                            label=label)
                label = None
                ax.annotate(f"{100 * rate:.1f}", (x, 100 * rate), xytext=(7, 0), textcoords="offset points",
                            va="center", fontsize=8.5, color=_colour(i))
                bots.setdefault(int(s["seat"]), short(s.get("bot", ""), 16))
        chance = 100.0 / players
        ax.axhline(chance, color="#555555", linestyle="--", linewidth=1.1, label=f"chance: 1/{players} = {chance:.1f} %")
        seats = list(range(1, players + 1))
        ax.set_xticks(seats, [f"seat {n}\n{bots.get(n, '')}" for n in seats])
        ax.set_xlim(0.4, players + 0.6)
        ax.set_ylabel("win rate (%, 95 % interval)")
        ax.set_title("Win rate by seat", loc="left")
        ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=k + 1, fontsize=8.5, borderaxespad=0.2)
        return _png(fig)


# -- breakdown ------------------------------------------------------------------------------------

def _parts(summary: Mapping[str, Any]) -> list[str]:
    """The breakdown parts of every rule set, in the order they first appear."""
    parts: list[str] = []
    for rs in summary.get("rule_sets", []):
        for b in rs.get("breakdown", []):
            if b["part"] not in parts:
                parts.append(str(b["part"]))
    return parts


def breakdown_png(summary: Mapping[str, Any]) -> bytes:
    """The mean score of each breakdown part (per player and game), grouped bars per rule set,
    each with its 95 % interval (the summary's "low" and "high"; no bar where it has none)."""
    if not _played(summary) or not _parts(summary):
        return _note("Mean score by part", "No games were played.")
    with _style():
        return _png(breakdown_figure(summary))


def breakdown_figure(summary: Mapping[str, Any]) -> Figure:
    """breakdown_png's figure (drawn in the plots' style): one Axes, a bar container and an
    errorbar container (the intervals) per rule set."""
    played = _played(summary)
    parts = _parts(summary)
    labels = _labels(summary)
    fig = _figure(4.2)
    ax = fig.add_subplot()
    k = len(played)
    width = 0.8 / k
    for j, (i, rs) in enumerate(played):
        rows = {b["part"]: b for b in rs.get("breakdown", [])}
        means = {p: number(b.get("mean")) for p, b in rows.items()}
        xs = [p + (j - (k - 1) / 2) * width for p in range(len(parts))]
        ys = [means.get(part) or 0.0 for part in parts]
        ax.bar(xs, ys, width * 0.92, color=_colour(i), label=labels[i])
        tops = list(ys)  # where each bar's value is written: above its interval
        shown = [(n, interval) for n, part in enumerate(parts)
                 if (interval := _interval(means.get(part), rows.get(part))) is not None]
        if shown:
            ax.errorbar([xs[n] for n, _ in shown], [ys[n] for n, _ in shown],
                        yerr=[[ys[n] - lo for n, (lo, _) in shown], [hi - ys[n] for n, (_, hi) in shown]],
                        fmt="none", ecolor="#333333", elinewidth=1.0, capsize=3)
            for n, (_, hi) in shown:
                tops[n] = hi
        for n, part in enumerate(parts):
            mean = means.get(part)
            ax.annotate(f"{mean:.1f}" if mean is not None else "–", (xs[n], tops[n]), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=7.5)
    ax.set_xticks(range(len(parts)), [short(p, 14) for p in parts])
    ax.set_ylabel("mean points per player and game (95 % interval)")
    ax.set_title("Mean score by part", loc="left")
    ax.grid(axis="x", visible=False)
    ax.margins(y=0.12)
    ax.legend(loc="lower right", bbox_to_anchor=(1.0, 1.0), ncols=k)
    return fig


def _interval(mean: float | None, row: Mapping[str, Any] | None) -> tuple[float, float] | None:
    """A breakdown mean's 95 % interval (low, high) from its summary row, None without one."""
    if mean is None or row is None:
        return None
    low, high = number(row.get("low")), number(row.get("high"))
    if low is None or high is None:
        return None
    return min(low, mean), max(high, mean)


# -- cards ----------------------------------------------------------------------------------------

VARIANT_MARKS = {"added": "+", "changed": "*"}


def variant_marks(summary: Mapping[str, Any]) -> dict[str, str]:
    """The cards the rule sets' variants add (+) or change (*), in the summary's order."""
    marks: dict[str, str] = {}
    for rs in summary.get("rule_sets", []):
        for c in rs.get("variant_cards") or []:
            marks.setdefault(str(c["card"]), VARIANT_MARKS.get(str(c.get("how")), ""))
    return marks


def _top_cards(summary: Mapping[str, Any]) -> tuple[list[str], int]:
    """The ids of the cards the plot shows: every card a variant adds or changes first (taken or
    not: issue 18, "They are always in plots/cards.png"), then the most-taken others (by the best
    take rate over the rule sets, then id) up to TOP_CARDS in all; and how many of the others were
    taken."""
    best: dict[str, float] = {}
    for _, rs in _played(summary):
        for c in rs.get("cards", []):
            rate = number(c.get("take_rate")) or 0.0
            best[str(c["card"])] = max(best.get(str(c["card"]), 0.0), rate)
    marked = list(variant_marks(summary)) if _played(summary) else []
    ranked = sorted(best.keys() - set(marked), key=lambda card: (-best[card], card))
    return marked + ranked[:max(0, TOP_CARDS - len(marked))], len(ranked)


def cards_png(summary: Mapping[str, Any]) -> bytes:
    """The most-taken cards, one row each: their take rate (share of games in which one was taken)
    and their takers' win rate with its 95 % interval, against the chance line 1/N."""
    top, total = _top_cards(summary)
    if not top:
        return _note("Most-taken cards", "No card was taken.")
    played = _played(summary)
    labels = _labels(summary)
    names = card_names(summary)
    players = int(summary.get("players") or 0)
    k = len(played)
    rows = len(top)
    with _style():
        fig = _figure(1.6 + rows * (0.2 + 0.1 * k))
        left, right = fig.subplots(1, 2, sharey=True, width_ratios=(1, 1))
        band = 0.8 / k
        for ax in (left, right):
            for r in range(1, rows, 2):  # every other row shaded: the eye follows a card across
                ax.axhspan(r - 0.5, r + 0.5, color="#f2f2f2", zorder=0, linewidth=0)
        for j, (i, rs) in enumerate(played):
            by_id = {str(c["card"]): c for c in rs.get("cards", [])}
            ys = [r + (j - (k - 1) / 2) * band for r in range(rows)]
            rates = [100 * (number(by_id[c].get("take_rate")) or 0.0) if c in by_id else 0.0 for c in top]
            left.barh(ys, rates, band * 0.9, color=_colour(i), label=labels[i])
            for y, card in zip(ys, top):
                c = by_id.get(card)
                rate = number(c.get("taker_win_rate")) if c else None
                if c is None or rate is None:
                    continue
                low, high = number(c.get("low")), number(c.get("high"))
                lo, hi = (rate if low is None else low), (rate if high is None else high)
                right.errorbar([100 * rate], [y], xerr=[[100 * (rate - lo)], [100 * (hi - rate)]], fmt="o",
                               color=_colour(i), markersize=4.5, capsize=2.5, linewidth=1.2)
        marks = variant_marks(summary)
        left.set_yticks(range(rows), [f"{marks[c]} {short(names.get(c, c))}" if c in marks else short(names.get(c, c))
                                      for c in top])
        left.invert_yaxis()
        left.set_ylim(rows - 0.5, -0.5)
        left.set_xlabel("take rate: games in which it was taken (%)")
        above = {"loc": "lower left", "bbox_to_anchor": (0.0, 1.0), "borderaxespad": 0.2, "fontsize": 8.5}
        left.set_title("Take rate", loc="left", pad=20)
        left.grid(axis="y", visible=False)
        left.legend(ncols=k, **above)  # between the title and the bars: never over a bar
        if players > 0:
            right.axvline(100.0 / players, color="#555555", linestyle="--", linewidth=1.1,
                          label=f"chance: 1/{players} = {100.0 / players:.1f} %")
            right.legend(**above)
        right.set_xlabel("win rate of the players who took it (%, 95 % interval)")
        right.set_title("Takers' win rate", loc="left", pad=20)
        right.grid(axis="y", visible=False)
        others = rows - sum(1 for c in top if c in marks)
        more = " other" if marks else ""
        note = (f"the {others} most-taken of {total}{more} cards" if total > others else f"all {total}{more} cards taken")
        note = (f"First the cards the variants add (+) or change (*), then {note}" if marks
                else note[0].upper() + note[1:]) + ", by take rate"
        fig.suptitle(note + ("" if marks else " (every card is in the report's card tables)"),
                     x=0.01, ha="left", fontsize=10, color="#444444")
        return _png(fig)


# -- significant changes --------------------------------------------------------------------------

def _measure_rank(measure: str) -> tuple[int, str]:
    return (MEASURE_ORDER.index(measure) if measure in MEASURE_ORDER else len(MEASURE_ORDER), measure)


def subject_label(figure: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """What a compared figure is about, in words: a card's name, a class, a seat, the rules."""
    scope, subject = figure.get("scope"), str(figure.get("subject", ""))
    if scope == "card":
        return names.get(subject, subject)
    if scope == "class":
        return f"{subject} cards"
    if scope == "seat":
        return f"seat {subject}"
    return "all games"


def changes_png(summary: Mapping[str, Any]) -> bytes:
    """The significant card and class figures of the comparison (its `ranked` list, the largest
    |z| first), grouped by measure, each with its difference and 95 % interval; or a note that
    none changed."""
    comparisons = summary.get("comparisons") or []
    if not comparisons:
        return _note("Significant changes", "One rule set: nothing to compare.")
    comp = comparisons[0]
    labels = _labels(summary)
    ia, ib = int(comp.get("set", 0)), int(comp.get("against", 1))
    a = labels[ia] if ia < len(labels) else "variant"
    b = labels[ib] if ib < len(labels) else "reference"
    ranked = list(comp.get("ranked", []))[:TOP_CHANGES]
    how = f"{comp.get('correction', 'corrected')}, α = {number(comp.get('alpha')) or 0.05:g}"
    if not ranked:
        tested = sum(1 for f in comp.get("figures", []) if f.get("scope") in ("card", "class"))
        return _note(f"Significant changes: {a} against {b}",
                     f"No card or class figure changed significantly "
                     f"({tested} card and class figures tested; {how}).")
    names = card_names(summary)
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for f in ranked:
        groups.setdefault(str(f["measure"]), []).append(f)
    order = sorted(groups, key=_measure_rank)
    with _style():
        fig = _figure(1.3 + sum(0.75 + 0.3 * len(groups[m]) for m in order))
        axes = fig.subplots(len(order), 1, height_ratios=[0.9 + len(groups[m]) for m in order], squeeze=False)
        for ax, measure in zip(axes[:, 0], order):
            figs = groups[measure]
            k = scale(measure)
            ys = list(range(len(figs)))
            for y, f in zip(ys, figs):
                d, low, high = (number(f.get(x)) for x in ("difference", "low", "high"))
                if d is None:
                    continue
                lo, hi = (d if low is None else low), (d if high is None else high)
                c = COLOURS[0] if d > 0 else COLOURS[1]
                ax.errorbar([k * d], [y], xerr=[[k * (d - lo)], [k * (hi - d)]], fmt="o", color=c,
                            markersize=6, capsize=3.5, linewidth=1.6)
                ax.annotate(signed(k * d, digits(measure)), (k * hi, y),
                            xytext=(6, 0), textcoords="offset points", va="center", fontsize=8.5, color=c)
            ax.axvline(0, color="#333333", linewidth=1.0)
            ax.set_yticks(ys, [short(subject_label(f, names)) for f in figs])
            ax.set_ylim(len(figs) - 0.4, -0.6)
            ax.grid(axis="y", visible=False)
            ax.margins(x=0.15)
            ax.set_xlabel(f"difference in {measure_name(measure)} ({unit(measure)}), {a} − {b}")
            ax.set_title(measure_name(measure).capitalize(), loc="left", fontsize=10)
        every = len(comp.get("ranked", []))
        shown = f"the {len(ranked)} with the largest |z| of {every}" if every > len(ranked) else f"{every}"
        fig.suptitle(f"Significant changes in cards and classes: {a} − {b} ({shown} figures)\n"
                     f"{how}; bars: 95 % intervals; vermilion: higher under {a}, blue: lower",
                     x=0.01, ha="left", fontsize=10, color="#444444")
        return _png(fig)
