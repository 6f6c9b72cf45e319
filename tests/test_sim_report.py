"""The report of a simulation (nidavellir/sim/report.py, plots.py): report.html, report.md and
plots/*.png rendered from summaries built here in the summary format (sim-formats.md), with a
single rule set, a comparison with and without significant changes, hostile names from a rules
file, and a rule set that played no game."""
from __future__ import annotations

import base64
import html.parser
import math
import random
import re
import struct
from pathlib import Path
from typing import Any

import matplotlib.image
import pytest

from nidavellir.sim import report
from nidavellir.sim.report import render_report
from nidavellir.stats import Z95, wilson

PARTS = ["warrior", "hunter", "miner", "blacksmith", "explorer", "heroes", "coins", "artifacts"]
HOSTILE = '<script>alert("x")</script> & Tom|Jerry *bold* $x$'
HOSTILE_LABEL = "<b>bold</b> & co"

# Named cards (the real game's), then numbered ones up to 150 cards: a big box's card table.
NAMED = [("skaa", "Skaa the Unfathomable", "hero", "neutral"), ("dwerg", "Dwerg the 5 Brothers", "hero", "neutral"),
         ("kraal", "Kraal the Venal", "hero", "warrior"), ("aral", "Aral Eagle Claws", "hero", "hunter"),
         ("zoral", "Zoral the Foreman", "hero", "miner"), ("idunn", "Idunn the Furtive", "hero", "explorer"),
         ("aegur", "Aëgur Fist of Steel", "hero", "blacksmith"), ("draupnir", "Draupnir", "artifact", None),
         ("vidofnir-vedrfolnir", "Vidofnir & Vedrfölnir", "artifact", None),
         ("mercenary:warrior9-explorer11", "Mercenary Warrior 9 / Explorer 11", "mercenary", None),
         ("distinction:warrior", "The King's Hand", "distinction", "warrior")]
CLASSES = ["warrior", "hunter", "miner", "blacksmith", "explorer"]


def _card_list(count: int, hostile: bool) -> list[tuple[str, str, str, str | None]]:
    cards = list(NAMED)
    if hostile:
        cards.append(("evil", HOSTILE, "hero", "neutral"))
    n = 0
    while len(cards) < count:
        cls = CLASSES[n % 5]
        cards.append((f"{cls}:{n:03d}", f"{cls.capitalize()} {n}", "dwarf", cls))
        n += 1
    return cards


def _dist(values: list[int]) -> dict[str, Any]:
    if not values:
        return {"mean": None, "sd": None, "min": None, "max": None, "quantiles": {}, "histogram": []}
    s = sorted(values)
    mean = sum(s) / len(s)
    sd = math.sqrt(sum((v - mean) ** 2 for v in s) / max(1, len(s) - 1))
    counts: dict[int, int] = {}
    for v in s:
        counts[v] = counts.get(v, 0) + 1
    return {"mean": mean, "sd": sd, "min": s[0], "max": s[-1],
            "quantiles": {q: s[min(len(s) - 1, int(len(s) * int(q) / 100))] for q in ("5", "25", "50", "75", "95")},
            "histogram": [[t, counts.get(t, 0)] for t in range(s[0], s[-1] + 1)]}


def _rule_set(index: int, label: str, games: int, players: int, rng: random.Random, shift: float,
              cards: list[tuple[str, str, str, str | None]], favour: str) -> dict[str, Any]:
    """A rule set of `games` games: scores about 90 (+ shift), seat 1 a little ahead, `favour`
    taken more often under a shift."""
    scores = [[round(rng.gauss(90 + shift + (2 if k == 0 else 0), 14)) for k in range(players)] for _ in range(games)]
    seats, winners, margins = [], [], []
    wins = [0.0] * players
    for g in scores:
        best = max(g)
        tied = [k for k in range(players) if g[k] == best]
        for k in tied:
            wins[k] += 1 / len(tied)
        winners.append(best)
        margins.append(best - max([v for k, v in enumerate(g) if k != tied[0]] or [best]))
    for k in range(players):
        low, high = wilson(wins[k], games)
        col = [g[k] for g in scores]
        d = _dist(col)
        seats.append({"seat": k + 1, "bot": "random" if k else "greedy", "wins": wins[k],
                      "win_rate": wins[k] / games if games else 0.0, "low": low, "high": high,
                      "mean_score": d["mean"], "sd_score": d["sd"]})
    card_rows: list[dict[str, Any]] = []
    for i, (cid, name, kind, cls) in enumerate(cards):
        base_rate = 0.9 / (1 + i / 12)
        rate = min(1.0, base_rate * (1.6 if cid == favour and shift else 1.0))
        taken = sum(1 for _ in range(games) if rng.random() < rate)
        takes = taken + taken // 10
        taker_games = taken
        win_rate = min(0.95, max(0.05, rng.gauss(1 / players + (0.15 if cid == favour else 0), 0.015)))
        taker_wins = round(win_rate * taker_games, 1)
        low, high = wilson(taker_wins, taker_games)
        by_seat = [takes // players + (1 if s < takes % players else 0) for s in range(players)]
        card_rows.append({"card": cid, "name": name, "kind": kind, "class": cls, "takes": takes,
                          "games_taken": taken, "take_rate": taken / games if games else 0.0,
                          "per_game": takes / games if games else 0.0, "by_seat": by_seat,
                          "by_age": {"1": takes // 2, "2": takes - takes // 2}, "mean_turn": 2.0 + i % 5 / 2,
                          "by_how": {"recruited" if kind == "hero" else "took": takes},
                          "mean_points": 3.0 + i % 17, "taker_games": taker_games, "taker_wins": taker_wins,
                          "taker_win_rate": taker_wins / taker_games if taker_games else 0.0, "low": low, "high": high})
    card_rows = [c for c in card_rows if c["takes"] > 0]
    card_rows.sort(key=lambda c: c["card"])
    flat = [v for g in scores for v in g]
    return {"index": index, "label": label, "about": f"base + thingvellir; variants: {label}" if index == 0 else
            "base + thingvellir",
            "variants": [label] if index == 0 else [], "games": games, "ties": games // 150, "seats": seats,
            "scores": _dist(flat), "winning_scores": _dist(winners),
            "margin": {"mean": sum(margins) / games if games else None, "sd": 6.0 if games else None},
            "breakdown": [{"part": p, "mean": (12.0 + 3 * j + shift / 4) if games else None,
                           "sd": 6.0 if games else None} for j, p in enumerate(PARTS)],
            "length": {"turns": {"mean": 8.0, "min": 8, "max": 8} if games else {"mean": None, "min": None, "max": None},
                       "decisions": {"mean": 64.2, "min": 60, "max": 70} if games else
                       {"mean": None, "min": None, "max": None}},
            "cards": card_rows,
            "classes": [{"class": c, "takes": 100 * games // 50, "per_game": 2.0 if games else None,
                         "mean_points": 7.1, "part_mean": 12.0 + 3 * PARTS.index(c) + shift / 4 if games and c in PARTS else None}
                        for c in sorted(CLASSES + ["neutral"])]}


def _holm(ps: list[float]) -> list[float]:
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = running
    return out


def _figure(scope: str, subject: str, measure: str, label: str, value: float, against: float, se: float) -> dict[str, Any]:
    d = value - against
    z = d / se
    p = math.erfc(abs(z) / math.sqrt(2))
    return {"scope": scope, "subject": subject, "measure": measure, "label": label, "value": value,
            "against_value": against, "difference": d, "low": d - Z95 * se, "high": d + Z95 * se, "z": z, "p": p}


def _comparison(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Set 0 against set 1: every figure both define, with a plausible standard error."""
    n = min(a["games"], b["games"])
    figs = [_figure("rules", "all", "mean_score", "mean score", a["scores"]["mean"], b["scores"]["mean"], 14 / math.sqrt(n)),
            _figure("rules", "all", "winning_score", "winning score", a["winning_scores"]["mean"],
                    b["winning_scores"]["mean"], 12 / math.sqrt(n)),
            _figure("rules", "all", "margin", "winning margin", a["margin"]["mean"], b["margin"]["mean"], 6 / math.sqrt(n)),
            _figure("rules", "all", "turns", "turns", 8.0, 8.0, 1e-9)]
    figs += [_figure("rules", "all", f"part:{x['part']}", f"mean {x['part']} score", x["mean"], y["mean"], 6 / math.sqrt(n))
             for x, y in zip(a["breakdown"], b["breakdown"])]
    for x, y in zip(a["seats"], b["seats"]):
        figs.append(_figure("seat", str(x["seat"]), "win_rate", f"seat {x['seat']} win rate", x["win_rate"],
                            y["win_rate"], 0.47 / math.sqrt(n)))
        figs.append(_figure("seat", str(x["seat"]), "mean_score", f"seat {x['seat']} mean score", x["mean_score"],
                            y["mean_score"], 14 / math.sqrt(n)))
    theirs = {c["card"]: c for c in b["cards"]}
    for c in a["cards"]:
        o = theirs.get(c["card"])
        if o is None:
            continue
        for m, se in (("take_rate", 0.5 / math.sqrt(n)), ("per_game", 0.6 / math.sqrt(n)),
                      ("mean_points", 5 / math.sqrt(n)), ("taker_win_rate", 0.5 / math.sqrt(max(1, c["taker_games"])))):
            figs.append(_figure("card", c["card"], m, f"{c['name']}: {m.replace('_', ' ')}", c[m], o[m], se))
    for x, y in zip(a["classes"], b["classes"]):
        if x["part_mean"] is None:  # "every figure both sides define"
            continue
        figs.append(_figure("class", x["class"], "part_mean", f"{x['class']}: column score", x["part_mean"],
                            y["part_mean"], 6 / math.sqrt(n)))
    for f, p in zip(figs, _holm([f["p"] for f in figs])):
        f["p_adjusted"] = p
        f["significant"] = p < 0.05
    ranked = sorted((f for f in figs if f["scope"] in ("card", "class") and f["significant"]), key=lambda f: -abs(f["z"]))
    return {"set": 0, "against": 1, "pairs": n,
            "test": "paired z-test on per-seed differences (delta method for ratios)",
            "correction": "Holm–Bonferroni", "alpha": 0.05, "figures": figs, "ranked": ranked}


def make_summary(sets: int = 2, games: int = 2000, shift: float = 4.0, hostile: bool = False,
                 cards: int = 150, players: int = 3, empty: bool = False, seed: int = 7) -> dict[str, Any]:
    """A summary (sim-formats.md) of `sets` rule sets; with two a comparison of set 0 against set 1
    where set 0 scores `shift` points more and favours Skaa (shift 0: nothing changes). `empty`:
    rule set 0 played no game (no comparison then)."""
    rng = random.Random(seed)
    card_list = _card_list(cards, hostile)
    labels = [HOSTILE_LABEL if hostile else "skaa-40", "base"]
    rule_sets = [_rule_set(i, labels[i], 0 if (empty and i == 0) else games, players, rng, shift if i == 0 else 0.0,
                           card_list, "skaa") for i in range(sets)]
    if shift == 0 and sets == 2:  # nothing changes: the same games under both rule sets
        rule_sets[0] = dict(rule_sets[1], index=0, label=labels[0], variants=[labels[0]])
    comparisons = [_comparison(rule_sets[0], rule_sets[1])] if sets == 2 and not empty else []
    return {"summary": 1, "players": players, "expansions": ["thingvellir"],
            "bots": ["greedy"] + ["random"] * (players - 1), "seed": 1, "rule_sets": rule_sets,
            "comparisons": comparisons}


# -- checks ---------------------------------------------------------------------------------------

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Nesting(html.parser.HTMLParser):
    """Fails on an end tag that does not close the innermost open element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.errors: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open[-1] != tag:
            self.errors.append(f"</{tag}> at {self.getpos()} closes {self.open[-1:] or 'nothing'}")
        else:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def well_formed(page: str) -> str:
    """The page's text, after checking that every element closes in order."""
    p = _Nesting()
    p.feed(page)
    p.close()
    assert p.errors == [], p.errors[:5]
    assert p.open == [], f"never closed: {p.open}"
    return " ".join(" ".join(p.text).split())


def png_size(data: bytes) -> tuple[int, int]:
    """The width and height of a PNG, after checking its signature and IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG signature"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def check_plots(paths: list[Path], page: str) -> None:
    """Every plot written is a valid PNG that decodes to its IHDR size, and the page embeds it."""
    pngs = [p for p in paths if p.suffix == ".png"]
    assert pngs
    for p in pngs:
        data = p.read_bytes()
        width, height = png_size(data)
        assert 300 < width <= 2000 and 100 < height <= 4000, (p.name, width, height)  # legible, not huge
        image = matplotlib.image.imread(p)
        assert image.shape[:2] == (height, width)
        assert f"data:image/png;base64,{base64.b64encode(data).decode()}" in page, f"{p.name} not embedded"
    assert page.count("data:image/png;base64,") == len(pngs)


def md_links(md: str, out: Path) -> list[str]:
    """The targets of the Markdown's links, after checking that each names a file that exists."""
    targets = re.findall(r"\]\(([^)]+)\)", md)
    for t in targets:
        assert (out / t).is_file(), f"{t} links to nothing"
    return targets


def render(summary: dict[str, Any], out: Path) -> tuple[list[Path], str, str, str]:
    paths = render_report(summary, out)
    page = (out / "report.html").read_text(encoding="utf-8")
    md = (out / "report.md").read_text(encoding="utf-8")
    return paths, page, well_formed(page), md


# -- tests ----------------------------------------------------------------------------------------

def test_single_rule_set(tmp_path: Path) -> None:
    """One rule set, no comparison: the page and the Markdown show its seats' win rates with their
    intervals and its mean score; no changes plot is drawn, and every plot is embedded and valid."""
    s = make_summary(sets=1)
    paths, page, text, md = render(s, tmp_path)
    assert tmp_path / "report.html" in paths and tmp_path / "report.md" in paths
    seat = s["rule_sets"][0]["seats"][0]
    rate = f"{100 * seat['win_rate']:.1f} %"
    interval = f"{100 * seat['low']:.1f}–{100 * seat['high']:.1f} %"
    mean = f"{s['rule_sets'][0]['scores']['mean']:.1f}"
    for shown in (text, md):
        assert rate in shown and interval in shown and mean in shown
    assert "Significant" not in text and not (tmp_path / "plots" / "changes.png").exists()
    assert {p.name for p in paths if p.suffix == ".png"} == {"scores.png", "seats.png", "breakdown.png", "cards.png"}
    check_plots(paths, page)
    assert set(md_links(md, tmp_path)) >= {"plots/scores.png", "plots/seats.png", "plots/cards.png"}


def test_comparison_with_significant_changes(tmp_path: Path) -> None:
    """Two rule sets where the variant scores more and favours Skaa: the page names the test and the
    correction, its table of significant changes lists the ranked figures first, in rank order,
    before the table of every figure; the Markdown lists them too, with signed differences."""
    s = make_summary()
    comp = s["comparisons"][0]
    assert len(comp["ranked"]) >= 3, "the fixture must have significant changes"
    paths, page, text, md = render(s, tmp_path)
    check_plots(paths, page)
    assert (tmp_path / "plots" / "changes.png") in paths
    assert "paired z-test on per-seed differences" in text and "Holm–Bonferroni" in text
    mean = next(f for f in comp["figures"] if f["measure"] == "mean_score" and f["scope"] == "rules")
    signed = f"{mean['difference']:+.1f}".replace("-", "−")
    assert signed in text and signed in md
    ranked_section = page[page.index('id="ranked"'):page.index('id="figures"')]
    positions = [ranked_section.find(f'data-figure="{f["scope"]}:{f["subject"]}:{f["measure"]}"') for f in comp["ranked"]]
    assert -1 not in positions and positions == sorted(positions)
    skaa = next(f for f in comp["ranked"] if f["subject"] == "skaa" and f["measure"] == "take_rate")
    assert f"{100 * skaa['difference']:+.1f} pp" in md
    figures_section = page[page.index('id="figures"'):]
    assert figures_section.count("data-figure=") == len(comp["figures"])
    assert "Skaa the Unfathomable" in md


def test_table_rows_match_their_headings(tmp_path: Path) -> None:
    """Every row of every table of the page has as many cells as its heading row (a sortable
    table sorts by column index), and the page has the tables the report promises."""
    s = make_summary()
    _, page, _, _ = render(s, tmp_path)
    tables = re.findall(r"<table[^>]*>(.*?)</table>", page, re.DOTALL)
    # the headline, the ranked changes; per rule set seats, length, scores, breakdown, classes, cards; all figures
    assert len(tables) == 2 + 6 * len(s["rule_sets"]) + 1
    for t in tables:
        head, body = t.split("</thead>")
        width = len(re.findall(r"<th[\s>]", head))
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.DOTALL):
            assert row.count("<td") == width, row[:200]


def test_comparison_without_significant_changes(tmp_path: Path) -> None:
    """Two rule sets playing the same games: no figure is significant, and the page, the Markdown
    and the changes plot say so in words instead of showing an empty table."""
    s = make_summary(shift=0.0)
    assert not any(f["significant"] for f in s["comparisons"][0]["figures"])
    paths, page, text, md = render(s, tmp_path)
    check_plots(paths, page)
    assert "No figure changed significantly" in text and "No figure changed significantly" in md
    assert 'id="ranked"' not in page


def test_hostile_names_are_escaped(tmp_path: Path) -> None:
    """A card name and a rule set label with markup, `&`, `|`, `*` and `$` (rules files are user
    input): the page shows them as text (no live tag), and the Markdown's tables keep their columns."""
    s = make_summary(hostile=True)
    paths, page, text, md = render(s, tmp_path)
    assert "<script>alert" not in page and "<b>bold</b>" not in page
    assert "&lt;script&gt;alert" in page and "&lt;b&gt;bold&lt;/b&gt; &amp; co" in page
    assert HOSTILE in text and HOSTILE_LABEL in text
    assert "<script>" not in md and "<b>" not in md
    assert r'&lt;script>alert("x")&lt;/script> & Tom\|Jerry \*bold\* \$x\$' in md
    rows = [line for line in md.splitlines() if line.startswith("|") and "alert" in line]
    assert rows, "the hostile card is in the top-cards table"
    for line in rows:
        cells = re.split(r"(?<!\\)\|", line)
        header = next(h for h in md.splitlines()[: md.splitlines().index(line)][::-1]
                      if h.startswith("|") and "---" in h)
        assert len(cells) == len(re.split(r"(?<!\\)\|", header))
    check_plots(paths, page)


def test_rule_set_without_games(tmp_path: Path) -> None:
    """A rule set that played no game (next to one that did) renders: its figures show as dashes,
    the plots still draw the other rule set, and the Markdown says it played none."""
    s = make_summary(empty=True)
    paths, page, text, md = render(s, tmp_path)
    check_plots(paths, page)
    assert "0 games" in text and "0 games" in md
    single = make_summary(sets=1, games=0)
    paths, page, text, md = render(single, tmp_path / "none")
    check_plots(paths, page)
    assert "No games were played" in text and "No games were played" in md


def test_same_summary_same_bytes(tmp_path: Path) -> None:
    """Rendering one summary twice writes identical files (no timestamps, stable order), and a
    second render into the same folder drops a changes plot the new summary does not have."""
    s = make_summary()
    first = render_report(s, tmp_path / "a")
    second = render_report(s, tmp_path / "b")
    assert [p.relative_to(tmp_path / "a") for p in first] == [p.relative_to(tmp_path / "b") for p in second]
    for x, y in zip(first, second):
        assert x.read_bytes() == y.read_bytes(), x.name
    again = render_report(make_summary(sets=1), tmp_path / "a")
    assert not (tmp_path / "a" / "plots" / "changes.png").exists()
    assert sorted(p.name for p in (tmp_path / "a" / "plots").iterdir()) == sorted(p.name for p in again if p.suffix == ".png")


def test_markdown_tables(tmp_path: Path) -> None:
    """The Markdown has a seat table and a top-cards table whose rows all have the header's number
    of columns, and the top cards are the most-taken first."""
    s = make_summary()
    _, _, _, md = render(s, tmp_path)
    tables = [t for t in re.split(r"\n\n+", md) if t.startswith("|")]
    assert len(tables) >= 3
    for t in tables:
        rows = t.splitlines()
        assert re.fullmatch(r"\|( *:?-+:? *\|)+", rows[1]), rows[1]
        widths = {len(re.split(r"(?<!\\)\|", r)) for r in rows}
        assert len(widths) == 1, t
    cards = next(t for t in tables if "take rate" in t.splitlines()[0])
    by_rate = sorted(s["rule_sets"][0]["cards"], key=lambda c: (-c["take_rate"], c["card"]))
    assert by_rate[0]["name"] in cards.splitlines()[2]


@pytest.mark.parametrize(("value", "text"), [(0.4123, "41.2 %"), (0.0, "0.0 %"), (1.0, "100.0 %"), (None, "—")])
def test_percent(value: float | None, text: str) -> None:
    """Rates are shown in percent with one decimal; a missing figure as a dash."""
    assert report.percent(value) == text


def test_markdown_text() -> None:
    """Text from a rules file shows as itself in Markdown: a tag's `<` and an entity's `&` become
    entities (once), the characters of emphasis, code, links, tables and math are backslashed,
    a lone `&` or `<` stays, and lines are joined (a table row stays one line)."""
    assert report.md_text("<b>x</b> &amp; Tom|Jerry *a* _b_ `c` [d](e) $x$") == \
        r"&lt;b>x&lt;/b> &amp;amp; Tom\|Jerry \*a\* \_b\_ \`c\` \[d\](e) \$x\$"
    assert report.md_text("Tom & Jerry < 3\nnext line") == "Tom & Jerry < 3 next line"


def test_intervals_and_differences() -> None:
    """An interval of rates reads "41.2–45.0 %"; a difference of rates is signed in percentage
    points, of points with one decimal, with a true minus sign; a tiny p-value reads "< 0.001"."""
    assert report.percent_interval(0.412, 0.45) == "41.2–45.0 %"
    assert report.difference(0.031, "take_rate") == "+3.1 pp"
    assert report.difference(-0.9, "mean_score") == "−0.9"
    assert report.difference_interval(-0.012, 0.05, "win_rate") == "−1.2 to +5.0 pp"
    assert report.p_value(0.0000001) == "< 0.001" and report.p_value(0.0123) == "0.012"


@pytest.mark.parametrize("bots, meant, other", [
    (["random"] * 3, "Random play measures what the rules allow", "--bots greedy"),
    (["greedy", "random", "random"], "greedy takes what raises its score now", "--bots greedy"),
    (["greedy"] * 3, "A finding that holds with other bots too", "--bots search"),
])
def test_the_report_says_who_played_what_it_means_and_how_to_rerun(bots, meant, other):
    """Issue 18: "The report says which bots played and what that means (random play measures the
    rules, not the balance people will feel; suggest greedy or search, with their cost in time), and
    offers the command to rerun with them" — the same games: players, boxes, variants, games, seed."""
    from nidavellir.sim.report import bots_note

    summary = {"players": 4, "expansions": ["thingvellir"], "bots": bots, "seed": 7,
               "rule_sets": [{"games": 300, "given": ["my rule.yaml"], "variants": ["my-rule"]},
                             {"games": 300, "given": ["first-game"], "variants": ["first-game"]}]}
    note = bots_note(summary)
    assert note["bots"] == ", ".join(bots)
    assert meant in note["meaning"] + " " + note["advice"]
    assert "search" in note["cost"] and "Greedy" in note["cost"]
    assert note["command"] == ("nidavellir simulate --players 4 --expansions thingvellir --variant 'my rule.yaml' "
                               f"--against first-game --games 300 --seed 7 {other} --out DIR")
