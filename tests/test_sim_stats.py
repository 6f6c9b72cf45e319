"""The analysis of a simulation's records (nidavellir/sim/aggregate.py, paired.py, stats.py): the
per-rule-set figures of the summary on hand-made records with hand-computed answers, and the
paired comparison of two rule sets (delta method, Holm–Bonferroni) on records with no effect, a
built-in effect and independent noise."""
from __future__ import annotations

import json
import math
import random
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pytest

from nidavellir.sim.aggregate import Aggregator, aggregate
from nidavellir.sim.paired import Mean, Ratio, delta_test
from nidavellir.stats import Z95, holm, mean_sd, normal_p, shares

Record = dict[str, Any]

# -- a builder of valid records (sim-formats: a record) ------------------------------------------


def fact(card: str, player: int, *, age: int = 1, turn: int = 1, how: str = "took", points: int = 0,
         kind: str = "dwarf", cls: str | None = "hunter") -> dict[str, Any]:
    return {"card": card, "kind": kind, "class": cls, "player": player, "age": age, "turn": turn,
            "how": how, "points": points}


def record(set_: int, game: int, totals: Sequence[int], cards: Iterable[dict[str, Any]] = (), *,
           breakdown: list[dict[str, int]] | None = None, turns: int = 8, decisions: int = 40) -> Record:
    """A record of game `game` of rule set `set_`; by default each seat's breakdown puts its whole
    total under "hunter"."""
    n = len(totals)
    return {"set": set_, "game": game, "seed": 1 + game, "players": n, "bots": ["random"] * n,
            "totals": list(totals), "shares": shares(totals),
            "breakdown": breakdown if breakdown is not None else [{"hunter": t, "coins": 0} for t in totals],
            "turns": turns, "decisions": decisions, "cards": list(cards)}


def manifest(players: int, sets: int = 2, games: int | None = None,
             parts: Sequence[str] = ("warrior", "hunter", "coins")) -> dict[str, Any]:
    m: dict[str, Any] = {
        "simulation": 1, "players": players, "expansions": [], "bots": ["random"] * players, "seed": 1,
        "rule_sets": [{"index": 0, "label": "variant", "about": "base; variants: v", "variants": ["v"]},
                      {"index": 1, "label": "base", "about": "base", "variants": []}][:sets],
        "cards": {"skaa": {"name": "Skaa the Unfathomable", "kind": "hero", "class": "neutral"}},
        "parts": list(parts)}
    if games is not None:
        m["games"] = games
    return m


POOL = [f"c{i:02d}" for i in range(24)]
CLASS_OF = {c: ["warrior", "hunter", "miner", "blacksmith", "explorer", "neutral"][i % 6]
            for i, c in enumerate(POOL)}


def random_record(rng: random.Random, set_: int, game: int, *, players: int = 3,
                  bonus: tuple[str, int] | None = None) -> Record:
    """A record of a made-up game: each player acquires 2–6 cards of POOL (some twice), totals in a
    narrow range (so that ties happen); `bonus` (card, extra) adds `extra` to the total of every
    player who holds that card."""
    facts = []
    held: list[set[str]] = [set() for _ in range(players)]
    for p in range(players):
        for _ in range(rng.randint(2, 6)):
            card = rng.choice(POOL)
            facts.append(fact(card, p, age=rng.randint(1, 2), turn=rng.randint(1, 8),
                              how=rng.choice(["took", "took", "recruited", "placed"]),
                              points=rng.randint(0, 12), cls=CLASS_OF[card]))
            held[p].add(card)
    totals = [rng.randint(60, 75) for _ in range(players)]
    if bonus is not None:
        totals = [t + (bonus[1] if bonus[0] in held[p] else 0) for p, t in enumerate(totals)]
    breakdown = [{"warrior": rng.randint(0, 20), "hunter": rng.randint(0, 20), "coins": t} for t in totals]
    return record(set_, game, totals, facts, breakdown=breakdown, turns=rng.choice([7, 8]),
                  decisions=rng.randint(30, 40))


def figure(summary: dict[str, Any], scope: str, subject: str, measure: str) -> dict[str, Any]:
    found = [f for f in summary["comparisons"][0]["figures"]
             if (f["scope"], f["subject"], f["measure"]) == (scope, subject, measure)]
    assert len(found) == 1, (scope, subject, measure)
    return found[0]


def figure_keys(summary: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(f["scope"], f["subject"], f["measure"]) for f in summary["comparisons"][0]["figures"]}


# -- stats.py --------------------------------------------------------------------------------------


def test_holm_against_a_worked_example():
    """Holm's adjusted p: sorted 0.005, 0.01, 0.03, 0.04 are multiplied by 4, 3, 2, 1 (0.02, 0.03,
    0.06, 0.04), the running maximum makes the last 0.06; reported in the order given; capped at 1."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.6, 0.001]) == pytest.approx([1.0, 1.0, 0.003])
    assert holm([]) == []


def test_normal_p_and_mean_sd():
    """The two-sided normal p at 0, at the 97.5 % quantile and at 3 (R: 2 * pnorm(-3) = 0.002699796);
    the mean and sample sd from exact sums agree with `statistics` and keep a huge offset exact."""
    assert normal_p(0.0) == 1.0
    assert normal_p(Z95) == pytest.approx(0.05, abs=1e-12)
    assert normal_p(-3.0) == pytest.approx(0.002699796, abs=1e-9)
    values = [3, 7, 7, 19]
    assert mean_sd(4, sum(values), sum(v * v for v in values)) == pytest.approx(
        (statistics.mean(values), statistics.stdev(values)))
    big = [10**12 + v for v in values]  # float sums would lose the spread entirely
    assert mean_sd(4, sum(big), sum(v * v for v in big))[1] == pytest.approx(statistics.stdev(values))
    assert mean_sd(0, 0, 0) == (None, None) and mean_sd(1, 5, 25) == (5.0, 0.0)


# -- per rule set ----------------------------------------------------------------------------------


def test_seat_win_rates_and_their_wilson_intervals():
    """Ten two-player games, seat 1 winning seven: its win rate 0.7 with the 95 % Wilson interval
    R gives (prop.test(7, 10, correct = FALSE): 0.3967781–0.8922087), seat 2's 0.3 (0.1077913–
    0.6032219); the mean and sd of each seat's totals; no tie."""
    totals = [(50 + i, 40) if i < 7 else (30, 60) for i in range(10)]
    s = aggregate(manifest(2, sets=1), [record(0, i, t) for i, t in enumerate(totals)])
    rs = s["rule_sets"][0]
    assert rs["games"] == 10 and rs["ties"] == 0
    one, two = rs["seats"]
    assert (one["seat"], one["bot"], one["wins"], one["win_rate"]) == (1, "random", 7.0, 0.7)
    assert (one["low"], one["high"]) == pytest.approx((0.3967781, 0.8922087), abs=1e-7)
    assert (two["wins"], two["win_rate"]) == (3.0, pytest.approx(0.3))
    assert (two["low"], two["high"]) == pytest.approx((0.1077913, 0.6032219), abs=1e-7)
    assert one["mean_score"] == pytest.approx(46.1)
    assert one["sd_score"] == pytest.approx(statistics.stdev([t[0] for t in totals]))
    assert two["mean_score"] == pytest.approx(46.0)
    assert s["comparisons"] == []


def test_a_tie_shares_the_seats_win():
    """A tie of two in three games of three players: each tied seat gets half a win."""
    s = aggregate(manifest(3, sets=1), [record(0, 0, [5, 9, 9]), record(0, 1, [9, 5, 1]),
                                        record(0, 2, [1, 2, 3])])
    rs = s["rule_sets"][0]
    assert rs["ties"] == 1
    assert [seat["wins"] for seat in rs["seats"]] == [1.0, 0.5, 1.5]


def test_score_quantiles_histogram_winning_scores_and_margin():
    """Five two-player games: the ten totals sorted are 10 10 10 20 20 20 30 40 50 60, so (linear
    between order statistics, position 9q) the 5/25/50/75/95 % quantiles are 10, 12.5, 20, 37.5,
    55.5 (numpy.quantile agrees); the histogram counts every total from 10 to 60, zeros included;
    one winning total per game (20 40 50 20 60, the tie once); margins 10 10 40 0 50."""
    games = [(10, 20), (30, 40), (10, 50), (20, 20), (60, 10)]
    rs = aggregate(manifest(2, sets=1), [record(0, i, t) for i, t in enumerate(games)])["rule_sets"][0]
    scores = rs["scores"]
    every = [t for g in games for t in g]
    assert scores["quantiles"] == {"5": 10.0, "25": 12.5, "50": 20.0, "75": 37.5, "95": 55.5}
    assert list(scores["quantiles"].values()) == pytest.approx(list(np.quantile(every, [.05, .25, .5, .75, .95])))
    assert (scores["mean"], scores["min"], scores["max"]) == (27.0, 10, 60)
    assert scores["sd"] == pytest.approx(statistics.stdev(every))
    hist = {v: c for v, c in scores["histogram"]}
    assert [v for v, _ in scores["histogram"]] == list(range(10, 61))
    assert (hist[10], hist[20], hist[30], hist[60], hist[11], hist[59]) == (3, 3, 1, 1, 0, 0)
    assert sum(hist.values()) == 10
    win = rs["winning_scores"]
    assert (win["mean"], win["min"], win["max"], win["quantiles"]["50"]) == (38.0, 20, 60, 40.0)
    assert sum(c for _, c in win["histogram"]) == 5
    assert rs["ties"] == 1
    assert rs["margin"]["mean"] == 22.0
    assert rs["margin"]["sd"] == pytest.approx(statistics.stdev([10, 10, 40, 0, 50]))


def test_card_figures():
    """Two three-player games. Hunter: 5 takes (two copies by player 0 in game 0), in both games,
    by seat 2/1/2, by age 3 and 2, mean turn 14/5, mean points 20/5; its takers are 4 (game,
    player) pairs, not 5 (two copies count once), and win 1 + (½ + ½) = 2 of those: rate 0.5 with
    Wilson 0.1500390–0.8499610; each game's hunters average 4 points a take (12/3, 8/2), so the
    mean points' interval, the game as the unit, is 4–4. Skaa's name comes from the manifest, the
    classes from the facts."""
    g0 = record(0, 0, [30, 20, 10], [
        fact("skaa", 0, age=1, turn=2, how="recruited", points=10, kind="hero", cls="neutral"),
        fact("hunter", 0, age=1, turn=3, points=4),
        fact("hunter", 0, age=2, turn=1, points=5),
        fact("hunter", 2, age=2, turn=4, points=3)])
    g1 = record(0, 1, [10, 25, 25], [
        fact("hunter", 1, age=1, turn=5, points=6),
        fact("hunter", 2, age=1, turn=1, how="placed", points=2)])
    rs = aggregate(manifest(3, sets=1), [g0, g1])["rule_sets"][0]
    hunter, skaa = rs["cards"]          # sorted by id
    assert hunter == {
        "card": "hunter", "name": "hunter", "kind": "dwarf", "class": "hunter",
        "takes": 5, "games_taken": 2, "take_rate": 1.0, "per_game": 2.5, "by_seat": [2, 1, 2],
        "by_age": {"1": 3, "2": 2}, "mean_turn": pytest.approx(2.8), "by_how": {"placed": 1, "took": 4},
        "mean_points": 4.0, "points_low": 4.0, "points_high": 4.0, "taker_games": 4, "taker_wins": 2.0, "taker_win_rate": 0.5,
        "low": pytest.approx(0.1500390, abs=1e-7), "high": pytest.approx(0.8499610, abs=1e-7)}
    assert (skaa["name"], skaa["kind"], skaa["class"]) == ("Skaa the Unfathomable", "hero", "neutral")
    assert (skaa["takes"], skaa["games_taken"], skaa["take_rate"], skaa["per_game"]) == (1, 1, 0.5, 0.5)
    assert (skaa["taker_games"], skaa["taker_wins"], skaa["mean_points"]) == (1, 1.0, 10.0)
    assert skaa["by_age"] == {"1": 1} and skaa["by_how"] == {"recruited": 1} and skaa["by_seat"] == [1, 0, 0]
    assert rs["classes"] == [
        {"class": "hunter", "takes": 5, "per_game": 2.5, "mean_points": 4.0, "part_mean": 120 / 6},
        {"class": "neutral", "takes": 1, "per_game": 0.5, "mean_points": 10.0, "part_mean": None}]


def test_breakdown_length_and_a_part_a_rule_set_lacks():
    """Breakdown means and sds per seat-game in the manifest's "parts" order; a part no record has
    (warrior) is left out; turns and decisions give mean, min and max. The mean's 95 % interval has
    the game as the unit: hunter's games both average 4 (interval of width 0, however the seats
    vary); coins' games average 5 and 3 (mean 4, se 1)."""
    b = [[{"hunter": 3, "coins": 10}, {"hunter": 5, "coins": 0}],
         [{"hunter": 7, "coins": 2}, {"hunter": 1, "coins": 4}]]
    recs = [record(0, 0, [13, 5], breakdown=b[0], turns=8, decisions=30),
            record(0, 1, [9, 5], breakdown=b[1], turns=6, decisions=41)]
    rs = aggregate(manifest(2, sets=1), recs)["rule_sets"][0]
    assert [p["part"] for p in rs["breakdown"]] == ["hunter", "coins"]
    assert rs["breakdown"][0] == {"part": "hunter", "mean": 4.0, "sd": pytest.approx(statistics.stdev([3, 5, 7, 1])),
                                  "low": 4.0, "high": 4.0}
    assert rs["breakdown"][1]["mean"] == 4.0
    assert rs["breakdown"][1]["low"] == pytest.approx(4.0 - 1.959963984540054)
    assert rs["breakdown"][1]["high"] == pytest.approx(4.0 + 1.959963984540054)
    assert rs["length"] == {"turns": {"mean": 7.0, "min": 6, "max": 8},
                            "decisions": {"mean": 35.5, "min": 30, "max": 41}}


def test_a_rule_set_without_games_and_the_summary_is_json():
    """A rule set with no record has 0 games and no mean (null), and nothing is compared; the
    summary is strict JSON (no NaN or infinity)."""
    s = aggregate(manifest(3), [random_record(random.Random(g), 0, g) for g in range(5)])
    empty = s["rule_sets"][1]
    assert (empty["games"], empty["ties"], empty["cards"], empty["classes"], empty["breakdown"]) == (0, 0, [], [], [])
    assert empty["seats"][0]["win_rate"] is None and (empty["seats"][0]["low"], empty["seats"][0]["high"]) == (0.0, 1.0)
    assert empty["scores"]["mean"] is None and empty["scores"]["histogram"] == []
    assert empty["length"]["turns"] == {"mean": None, "min": None, "max": None}
    assert s["comparisons"][0]["pairs"] == 0 and s["comparisons"][0]["figures"] == []
    assert s["rule_sets"][0]["games"] == 5
    json.dumps(s, allow_nan=False)
    assert [rs["label"] for rs in s["rule_sets"]] == ["variant", "base"]


# -- pairing ----------------------------------------------------------------------------------------


def paired_records(games: int, *, players: int = 3, chunk: int = 10) -> list[Record]:
    """Both rule sets from the same made-up process, in the order a simulation writes them (a chunk
    of game indexes of set 0, then the same of set 1); set 1's games are independent of set 0's."""
    out: list[Record] = []
    for start in range(0, games, chunk):
        for s in (0, 1):
            out += [random_record(random.Random(1000 * s + g), s, g, players=players)
                    for g in range(start, min(games, start + chunk))]
    return out


def test_records_in_shuffled_order_give_the_same_summary():
    """The summary is built from exact sums: any order of the records gives the same one."""
    recs = paired_records(60)
    shuffled = list(recs)
    random.Random(5).shuffle(shuffled)
    a, b = aggregate(manifest(3), recs), aggregate(manifest(3), shuffled)
    assert a == b
    assert a["comparisons"][0]["pairs"] == 60 and len(a["comparisons"][0]["figures"]) > 50


@pytest.mark.parametrize("split", ["halves", "by rule set", "alternate"])
def test_aggregators_of_parts_merge_into_the_whole(split):
    """`report` counts parts of the records in several processes and merges them: the summary is
    the one of counting every record in one Aggregator, however the records were split (a game
    index's two records in one part or in two), and a record counted by both is refused."""
    recs = paired_records(80)
    groups = {"halves": [recs[:70], recs[70:]], "by rule set": [[r for r in recs if r["set"] == s] for s in (0, 1)],
              "alternate": [recs[0::2], recs[1::2]]}[split]
    parts = []
    for group in groups:
        agg = Aggregator(manifest(3, games=80))
        for r in group:
            agg.add(r)
        parts.append(agg)
    whole = parts[0]
    for other in parts[1:]:
        whole.merge(other)
    assert whole.pending == 0
    assert whole.summary() == aggregate(manifest(3, games=80), recs)
    twice = Aggregator(manifest(3, games=80))
    twice.add(recs[0])
    again = Aggregator(manifest(3, games=80))
    again.add(recs[0])
    with pytest.raises(ValueError, match="counted twice"):
        twice.merge(again)


def test_a_game_index_waits_only_for_its_other_record():
    """Memory stays flat: in the order a simulation writes records, at most a chunk of game indexes
    waits for its other rule set; after the last record nothing waits."""
    agg = Aggregator(manifest(3, games=200))
    most = 0
    for r in paired_records(200, chunk=10):
        agg.add(r)
        most = max(most, agg.pending)
    assert most == 10 and agg.pending == 0
    assert agg.summary()["comparisons"][0]["pairs"] == 200


def test_leftovers_count_per_rule_set_but_are_not_paired():
    """Game index 3 only under set 0: set 0 has 4 games, set 1 has 3, 3 pairs; the comparison is
    exactly the one of the three complete indexes."""
    recs = paired_records(3, chunk=3)
    extra = random_record(random.Random(99), 0, 3)
    with_extra = aggregate(manifest(3), [*recs, extra])
    without = aggregate(manifest(3), recs)
    assert [rs["games"] for rs in with_extra["rule_sets"]] == [4, 3]
    assert with_extra["comparisons"] == without["comparisons"]
    assert with_extra["comparisons"][0]["pairs"] == 3
    assert with_extra["rule_sets"][0] != without["rule_sets"][0]


def test_records_that_break_the_format_are_refused():
    """A second record of one game and rule set, an unknown rule set, a game index beyond the
    manifest's games, shares that do not add up to one win."""
    agg = Aggregator(manifest(2, games=5))
    agg.add(record(0, 1, [3, 4]))
    with pytest.raises(ValueError, match="second record"):
        agg.add(record(0, 1, [3, 4]))
    with pytest.raises(ValueError, match="rule set 7"):
        agg.add(record(7, 2, [3, 4]))
    with pytest.raises(ValueError, match="game index"):
        agg.add(record(0, 5, [3, 4]))
    bad = record(1, 2, [3, 4])
    bad["shares"] = [0.5, 0.6]
    with pytest.raises(ValueError, match="win shares"):
        agg.add(bad)


# -- the paired statistics ---------------------------------------------------------------------------


def per_seed(recs: list[Record], figure_key: tuple[str, str, str]) -> tuple[np.ndarray, np.ndarray]:
    """The per-game (a, b) of one figure, written again from the records (paired.py's table): an
    array of shape (games, 2) for a and for b, column s for rule set s, rows by game index."""
    scope, subject, measure = figure_key
    games = max(r["game"] for r in recs) + 1
    a, b = np.zeros((games, 2)), np.zeros((games, 2))
    for r in recs:
        i, s = r["game"], r["set"]
        if (scope, measure) == ("rules", "mean_score"):
            a[i, s], b[i, s] = sum(r["totals"]), len(r["totals"])
        elif (scope, measure) == ("seat", "win_rate"):
            a[i, s], b[i, s] = r["shares"][int(subject) - 1], 1
        elif measure.startswith("part:"):
            part = measure[5:]
            a[i, s] = sum(seat.get(part, 0) for seat in r["breakdown"])
            b[i, s] = sum(part in seat for seat in r["breakdown"])
        elif scope == "card":
            mine = [f for f in r["cards"] if f["card"] == subject]
            takers = {f["player"] for f in mine}
            a[i, s], b[i, s] = {"take_rate": (1 if mine else 0, 1),
                                "per_game": (len(mine), 1),
                                "mean_points": (sum(f["points"] for f in mine), len(mine)),
                                "taker_win_rate": (sum(r["shares"][p] for p in takers), len(takers))}[measure]
        elif scope == "class":
            mine = [f for f in r["cards"] if f["class"] == subject]
            a[i, s], b[i, s] = {"per_game": (len(mine), 1),
                                "mean_points": (sum(f["points"] for f in mine), len(mine))}[measure]
        else:
            raise AssertionError(figure_key)
    return a, b


def direct_delta(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """D and its SE computed from the per-seed lists, as the brief states the delta method."""
    n = len(a)
    r = a.sum(axis=0) / b.sum(axis=0)
    u = (a - r * b) / b.mean(axis=0)
    w = u[:, 0] - u[:, 1]
    return float(r[0] - r[1]), math.sqrt(float((w * w).sum()) / (n * (n - 1)))


@pytest.mark.parametrize("key", [
    ("rules", "all", "mean_score"), ("rules", "all", "part:warrior"), ("seat", "2", "win_rate"),
    ("card", "c05", "take_rate"), ("card", "c05", "per_game"), ("card", "c05", "mean_points"),
    ("card", "c07", "taker_win_rate"), ("class", "miner", "per_game"), ("class", "miner", "mean_points")])
def test_the_delta_method_from_streamed_sums_matches_the_per_seed_computation(key):
    """The streamed sums give the D, SE, z and p that per-seed lists give directly (numpy), with
    the 95 % interval D ± 1.959964 SE; ratios whose b varies (points per take, win rate per taker)
    as well as plain means."""
    recs = paired_records(80)
    s = aggregate(manifest(3), recs)
    f = figure(s, *key)
    a, b = per_seed(recs, key)
    d, se = direct_delta(a, b)
    assert se > 0
    assert f["difference"] == pytest.approx(d, rel=1e-9, abs=1e-12)
    assert (f["high"] - f["low"]) / 2 == pytest.approx(1.959964 * se, rel=1e-6)
    assert (f["low"] + f["high"]) / 2 == pytest.approx(d, abs=1e-9)
    assert f["z"] == pytest.approx(d / se, rel=1e-9)
    assert f["p"] == pytest.approx(math.erfc(abs(d / se) / math.sqrt(2)), rel=1e-9)
    assert (f["value"], f["against_value"]) == pytest.approx(tuple(a.sum(axis=0) / b.sum(axis=0)))


def test_delta_test_edge_cases():
    """Fewer than 2 pairs, or Σb = 0 on a side: not compared. SE = 0: p = 1 when D = 0, p = 0 (and
    z undefined) when every pair moved by the same amount."""
    same, moved, lone = Mean(), Mean(), Ratio()
    for x in (3, 5, 8):
        same.add(x, x)
        moved.add(x + 2, x)
        lone.add(x, 1, 0, 0)
    r = delta_test(3, same.sums(3))
    assert r is not None and (r.difference, r.low, r.high, r.z, r.p) == (0.0, 0.0, 0.0, 0.0, 1.0)
    r = delta_test(3, moved.sums(3))
    assert r is not None and (r.difference, r.low, r.high, r.z, r.p) == (2.0, 2.0, 2.0, None, 0.0)
    assert delta_test(3, lone.sums(3)) is None
    one = Mean()
    one.add(1, 0)
    assert delta_test(1, one.sums(1)) is None


def test_identical_rule_sets_differ_in_nothing():
    """The same records under set 0 and set 1: every difference is exactly 0, every p is 1, nothing
    is significant, nothing is ranked (and there are card and class figures to look at)."""
    base = [random_record(random.Random(g), 0, g) for g in range(120)]
    s = aggregate(manifest(3), [*base, *({**r, "set": 1} for r in base)])
    figures = s["comparisons"][0]["figures"]
    assert {f["scope"] for f in figures} == {"rules", "seat", "card", "class"}
    assert all(f["difference"] == 0.0 and f["p"] == 1.0 and not f["significant"] for f in figures)
    assert s["comparisons"][0]["ranked"] == []


def test_a_uniform_shift_is_certain():
    """Set 0 adds 2 to every total of every game: each seat's mean score moves by exactly 2 in every
    pair (SE = 0, p = 0, significant), while win shares do not move at all (p = 1)."""
    base = [random_record(random.Random(g), 1, g) for g in range(50)]
    shifted = [{**r, "set": 0, "totals": [t + 2 for t in r["totals"]]} for r in base]
    s = aggregate(manifest(3), [*shifted, *base])
    score = figure(s, "seat", "1", "mean_score")
    assert (score["difference"], score["low"], score["high"], score["z"], score["p"]) == (2.0, 2.0, 2.0, None, 0.0)
    assert score["significant"]
    assert figure(s, "seat", "1", "win_rate")["p"] == 1.0
    json.dumps(s, allow_nan=False)


def test_a_built_in_effect_is_found_and_ranked_first():
    """Over 400 paired games (the same deals under both rule sets), set 0 gives every holder of
    c03 15 more points: c03's takers' win rate is significantly higher, its interval excludes 0, and
    it ranks first among the significant card and class figures."""
    recs = []
    for g in range(400):
        recs.append(random_record(random.Random(g), 0, g, bonus=("c03", 15)))
        recs.append(random_record(random.Random(g), 1, g))
    s = aggregate(manifest(3), recs)
    f = figure(s, "card", "c03", "taker_win_rate")
    assert f["significant"] and f["low"] > 0 and f["value"] > f["against_value"] + 0.3
    ranked = s["comparisons"][0]["ranked"]
    assert (ranked[0]["scope"], ranked[0]["subject"], ranked[0]["measure"]) == ("card", "c03", "taker_win_rate")
    assert all(r["significant"] and r["scope"] in ("card", "class") for r in ranked)
    assert [abs(r["z"]) for r in ranked] == sorted((abs(r["z"]) for r in ranked), reverse=True)
    assert figure(s, "card", "c03", "take_rate")["difference"] == 0.0   # the same takes


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_independent_noise_flags_nothing(seed):
    """Two rule sets drawn from the same random process with different seeds (300 games, 24 cards,
    about 130 figures): Holm keeps the family-wise false-positive rate at 5 %, and none of these
    five seeds flags a figure (raw p below 0.05 do occur: the correction is what holds them)."""
    recs = []
    for g in range(300):
        for s in (0, 1):
            recs.append(random_record(random.Random(f"{seed}/{s}/{g}"), s, g))
    summary = aggregate(manifest(3), recs)
    figures = summary["comparisons"][0]["figures"]
    assert len(figures) > 100
    assert any(f["p"] < 0.05 for f in figures)
    assert not any(f["significant"] for f in figures)
    assert summary["comparisons"][0]["ranked"] == []


def test_only_figures_both_sides_define_are_compared():
    """A card only set 0's games have: its take rate and takes per game are compared (0 under set
    1), its points per take and its takers' win rate are not (no take under set 1); a part only set
    0's breakdown has is not compared either."""
    recs = []
    for g in range(20):
        rng = random.Random(g)
        extra = [fact("new", rng.randrange(3), points=4)] if g % 2 else []
        r0 = random_record(rng, 0, g)
        r0["cards"] += extra
        r0["breakdown"] = [{**b, "artifacts": 1} for b in r0["breakdown"]]
        recs += [r0, random_record(random.Random(500 + g), 1, g)]
    s = aggregate(manifest(3, parts=("warrior", "hunter", "coins", "artifacts")), recs)
    keys = figure_keys(s)
    assert {("card", "new", "take_rate"), ("card", "new", "per_game")} <= keys
    assert ("card", "new", "mean_points") not in keys and ("card", "new", "taker_win_rate") not in keys
    assert ("rules", "all", "part:artifacts") not in keys and ("rules", "all", "part:hunter") in keys
    assert figure(s, "card", "new", "take_rate")["value"] == 0.5
    assert [p["part"] for p in s["rule_sets"][1]["breakdown"]] == ["warrior", "hunter", "coins"]
