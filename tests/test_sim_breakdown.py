"""The breakdown's intervals (issue 18: "`plots/breakdown.png` has error bars"): each part's mean
with its 95 % interval in the summary, and drawn on the plot."""
from __future__ import annotations

import math
import random

from matplotlib.container import ErrorbarContainer

from nidavellir.sim.aggregate import _RuleSet
from nidavellir.sim.backends import Inline
from nidavellir.sim.plots import breakdown_figure
from nidavellir.sim.run import simulate
from nidavellir.stats import Z95, ratio_interval
from nidavellir.sim.plan import Plan, sides


def test_ratio_interval_is_the_delta_method_over_units():
    """stats.ratio_interval: R = Σa / Σb ± 1.959964 √(Σ u_i² / (n (n − 1))), u_i = (a_i − R b_i) / b̄,
    computed here unit by unit from the values."""
    rng = random.Random(5)
    for n in (2, 3, 17, 200):
        a = [rng.randint(0, 40) for _ in range(n)]
        b = [rng.randint(0, 5) for _ in range(n)]
        b[0] = max(b[0], 1)
        r = sum(a) / sum(b)
        mean_b = sum(b) / n
        se = math.sqrt(sum(((x - r * y) / mean_b) ** 2 for x, y in zip(a, b)) / (n * (n - 1)))
        low, high = ratio_interval(n, sum(a), sum(b), sum(x * x for x in a), sum(x * y for x, y in zip(a, b)),
                                   sum(y * y for y in b))
        assert low is not None and high is not None
        assert math.isclose(low, r - Z95 * se, abs_tol=1e-9) and math.isclose(high, r + Z95 * se, abs_tol=1e-9)
    assert ratio_interval(1, 3, 1, 9, 3, 1) == (None, None)       # one unit: no interval
    assert ratio_interval(4, 0, 0, 0, 0, 0) == (None, None)       # a mean of nothing
    assert ratio_interval(3, 6, 3, 12, 6, 3) == (2.0, 2.0)        # every unit the same: width 0


def test_the_breakdown_interval_has_the_game_as_unit():
    """aggregate.py: "low", "high": the mean's 95 % interval with the game as the unit. Two games of
    3 seats: part sums 30 and 0 over 3 seats each (mean 5, u = ±5, se = 5)."""
    records = [[{"warrior": v} for v in values] for values in ([10, 10, 10], [0, 0, 0])]
    agg = _RuleSet(3, 6)
    for breakdown in records:
        agg._count_parts(breakdown)
    count, total, squares, aa, ab, bb = agg.parts["warrior"]
    assert (count, total, aa, ab, bb) == (6, 30, 900, 90, 18)
    low, high = ratio_interval(2, total, count, aa, ab, bb)
    assert low is not None and high is not None
    assert math.isclose(high - 5.0, Z95 * 5.0) and math.isclose(5.0 - low, Z95 * 5.0)


def test_the_plot_draws_each_mean_s_interval(tmp_path):
    """plots/breakdown.png: per rule set, an errorbar container whose bars span each part's
    summary interval, centred on the bar's mean."""
    summary = simulate(Plan(3, (), ("random",) * 3, 1, 12, sides((), ["generous-offerings"], []), "parquet"), tmp_path / "sim", Inline(), render=False).summary
    sets = [rs for rs in summary["rule_sets"] if rs["games"]]
    assert len(sets) == 2
    for rs in sets:
        assert rs["breakdown"]
        for b in rs["breakdown"]:
            assert b["low"] <= b["mean"] <= b["high"]
    fig = breakdown_figure(summary)
    (ax,) = fig.axes
    bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    assert len(bars) == len(sets)
    for container, rs in zip(bars, sets):
        (lines,) = container.lines[2]               # the vertical segments, one per part
        spans = sorted((round(float(seg[0][1]), 9), round(float(seg[1][1]), 9)) for seg in lines.get_segments())
        want = sorted((round(b["low"], 9), round(b["high"], 9)) for b in rs["breakdown"])
        assert spans == want


def test_no_interval_no_error_bar():
    """A summary whose breakdown has no interval (one game, or an older summary) draws the means only."""
    summary = {"players": 2, "rule_sets": [{"index": 0, "label": "base", "games": 1, "breakdown": [
        {"part": "warrior", "mean": 4.0, "sd": 0.0, "low": None, "high": None}, {"part": "coins", "mean": 9.0}]}]}
    (ax,) = breakdown_figure(summary).axes
    assert not [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
