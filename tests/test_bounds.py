"""Numbers that size work have sane bounds, and the plan of a simulation is streamed (issue 17 §5:
"`simulate --games` has a sane upper bound, or better: the plan is streamed, never materialised.
Today `--games 99999999999999999999` prints nothing and grows by ~70 MB/s"; the bounds are in
nidavellir/cli.py and the README)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path

import pytest

from nidavellir.cli import MAX_CHUNK, MAX_GAMES, MAX_JOBS, MAX_SEED, main, parser
from nidavellir.sim.backends import Inline
from nidavellir.sim.plan import Plan, sides
from nidavellir.sim.run import Interrupted, play
from nidavellir.sim.worker import Task

HUGE = "99999999999999999999"


@pytest.mark.parametrize("args, message", [
    (["play", "--games", str(MAX_GAMES + 1)], "argument --games: a number of games from 1 to 10^9"),
    (["play", "--games", HUGE], "argument --games: a number of games from 1 to 10^9"),
    (["play", "--seed", str(MAX_SEED + 1)], "argument --seed: a seed from −10^12 to 10^12"),
    (["play", "--seed", str(-MAX_SEED - 1)], "argument --seed: a seed from −10^12 to 10^12"),
    (["play", "--bots", "search:1000001"], "at most 1,000,000 playouts per decision"),
    (["play", "--bots", "search:2h"], "a search budget is a number of playouts"),
    (["play", "--bots", "search:3601s"], "at most 3600 s per decision"),
    (["league", "--games", HUGE], "argument --games: a number of games from 1 to 10^9"),
    (["league", "--games", "0"], "argument --games: a number of games from 1 to 10^9, not `0`"),
    (["simulate", "--games", HUGE, "--out", "x"], f"argument --games: a number of games from 1 to 10^9, not `{HUGE}`"),
    (["simulate", "--games", "-3", "--out", "x"], "argument --games: a number of games from 1 to 10^9"),
    (["simulate", "--jobs", str(MAX_JOBS + 1), "--out", "x"], f"argument --jobs: a number of processes from 1 to {MAX_JOBS}"),
    (["simulate", "--jobs", "0", "--out", "x"], f"argument --jobs: a number of processes from 1 to {MAX_JOBS}"),
    (["simulate", "--chunk", str(MAX_CHUNK + 1), "--out", "x"], "argument --chunk: a number of games per task from 1 to 1,000"),
    (["simulate", "--seed", "1e9", "--out", "x"], "argument --seed: a seed from −10^12 to 10^12, not `1e9`"),
    (["report", "--jobs", str(10 ** 9), "x"], f"argument --jobs: a number of processes from 1 to {MAX_JOBS}"),
    (["play", "--games", "9" * 5000], "argument --games: a number of games from 1 to 10^9, not `" + "9" * 40 + "…`"),
])
def test_a_number_out_of_its_bounds_is_a_usage_error(tmp_path, capsys, monkeypatch, args, message):
    """Every option that sizes work (games of play, league and simulate; simulate's and report's
    processes; simulate's games per task; a search bot's budget) and the seed have documented
    bounds: a value outside is a usage error (exit 2) naming the bounds, before any work."""
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err
    assert not (tmp_path / "x").exists()


def test_the_bounds_themselves_are_allowed():
    """The bounds are inclusive: 10^9 games, the seeds ±10^12, 256 processes, 1,000 games per task."""
    args = parser().parse_args(["simulate", "--games", str(MAX_GAMES), "--seed", str(-MAX_SEED), "--jobs",
                                str(MAX_JOBS), "--chunk", str(MAX_CHUNK), "--out", "x"])
    assert (args.games, args.seed, args.jobs, args.chunk) == (MAX_GAMES, -MAX_SEED, MAX_JOBS, MAX_CHUNK)
    assert parser().parse_args(["play", "--seed", str(MAX_SEED)]).seed == MAX_SEED
    assert MAX_SEED + MAX_GAMES < 2 ** 63  # every seed of a simulation fits a record's 64-bit field


def test_the_plan_of_a_trillion_games_is_lazy():
    """"the plan is streamed, never materialised": the tasks of 10^12 games are made as they are
    taken, the first ones at once, and the last ends at the last game."""
    plan = Plan(3, (), ("random",) * 3, 1, 10 ** 12, sides((), [], []), "jsonl")
    assert list(islice(plan.tasks(0, 20), 3)) == [Task(0, 20), Task(20, 40), Task(40, 60)]
    assert list(plan.tasks(10 ** 12 - 25, 20)) == [Task(10 ** 12 - 25, 10 ** 12 - 5), Task(10 ** 12 - 5, 10 ** 12)]
    assert list(plan.tasks(10 ** 12, 20)) == []


def test_a_run_of_a_trillion_games_starts_at_once_and_stops_cleanly(tmp_path):
    """A run's plan, progress and writing stream: a simulation of 10^12 games tells its progress
    as it starts and after its first chunk, and Ctrl-C there keeps that chunk (its games are on disk)."""
    plan = Plan(3, (), ("random",) * 3, 1, 10 ** 12, sides((), [], []), "jsonl")
    told = []

    def stop(done: int, total: int) -> None:
        told.append((done, total))
        if done:
            raise KeyboardInterrupt

    with pytest.raises(Interrupted) as cut:
        play(plan, tmp_path / "sim", Inline(), chunk=4, progress=stop)
    assert told == [(0, 10 ** 12), (4, 10 ** 12)]
    assert (cut.value.done, cut.value.total) == (4, 10 ** 12)
    assert len((tmp_path / "sim" / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 4


def test_simulate_with_the_most_games_writes_records_at_once(tmp_path):
    """The command with --games 10^9 (the bound) writes its first records promptly, with little
    memory, and Ctrl-C stops it with the games it finished kept (exit 130)."""
    out = tmp_path / "sim"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "nidavellir", "simulate", "--games", str(MAX_GAMES), "--jobs", "1",
                             "--format", "jsonl", "--out", str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    records = out / "games.jsonl"
    try:
        for _ in range(600):  # (at most a minute; a game takes milliseconds)
            if records.exists() and records.stat().st_size > 0:
                break
            time.sleep(0.1)
        assert records.exists() and records.stat().st_size > 0, "no record written"
        status = Path(f"/proc/{proc.pid}/status")
        if status.exists():
            rss_kb = next(int(line.split()[1]) for line in status.read_text().splitlines() if line.startswith("VmRSS:"))
            assert rss_kb < 1_000_000, rss_kb
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err
    assert f"of {MAX_GAMES} games are in" in err and "run the same command to go on" in err
