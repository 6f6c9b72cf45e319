"""The progress line's rate and total (issue 18: "the first rate is not `3,506,619 games/s`; the
total is the games asked, or says "(both rule sets)""). Rendered from given counts and a given
clock: no timing is measured."""
from __future__ import annotations

import io

from nidavellir.progress import RATE_AFTER, Progress, Stage
from nidavellir.sim.command import counted


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_no_rate_before_it_is_measured():
    """A rate over a near-zero interval is not shown: before `RATE_AFTER` seconds of work the line
    has the count only; from then on the rate and time left are games over the time since the start."""
    clock = Clock()
    bar = Progress(4000, io.StringIO(), clock=clock)
    clock.now = 0.0003
    bar.done = 1000                       # a first chunk finished almost at once
    assert bar.line(clock.now) == "1000/4000 games"
    clock.now = RATE_AFTER - 0.01
    assert "games/s" not in bar.line(clock.now)
    clock.now = 2.0
    bar.done = 1000
    assert bar.line(clock.now) == "1000/4000 games · 500 games/s · 6.0 s left"
    bar.done = 0
    assert bar.line(clock.now) == "0/4000 games"  # no game yet: no rate, no time left


def test_the_final_line_times_the_whole_work():
    """The final line gives the rate over the whole work from its start, however short."""
    clock = Clock()
    bar = Progress(10, io.StringIO(), clock=clock)
    clock.now = 0.5
    bar.done = 10
    assert bar.final(clock.now) == "10/10 games · 20 games/s · 0.5 s in all"


def test_a_stage_times_from_the_work_s_start_and_not_what_was_already_done():
    """A Stage's line is drawn from the work's first `update`, made when it starts: the games done
    before (a continued simulation) count towards the total asked but not the rate."""
    clock, screen = Clock(), io.StringIO()
    stage = Stage(screen, True, scope="(both rule sets)", clock=clock)
    stage.update(600, 2000)               # 300 games per rule set were on disk
    assert screen.getvalue() == "\r600/2000 games (both rule sets)"
    clock.now = 0.001
    stage.update(700, 2000)
    assert stage.bar is not None and "games/s" not in stage.bar.line(clock.now)
    clock.now = 2.0
    stage.update(1000, 2000)
    assert screen.getvalue().endswith("\r1000/2000 games (both rule sets) · 200 games/s · 5.0 s left")
    clock.now = 7.0
    stage.update(2000, 2000)
    assert screen.getvalue().endswith("\r2000/2000 games (both rule sets) · 200 games/s · 7.0 s in all\n")
    assert stage.finished


def test_a_stage_that_is_not_shown_draws_nothing():
    screen = io.StringIO()
    stage = Stage(screen, False, scope="(both rule sets)")
    stage.update(0, 10)
    stage.update(10, 10)
    assert screen.getvalue() == ""


def test_what_the_total_counts():
    """One rule set: the games asked, said as games; two: "(both rule sets)"."""
    assert [counted(n) for n in (1, 2, 3)] == ["", "(both rule sets)", "(3 rule sets)"]
