"""The worker processes `simulate` runs (nidavellir/sim/workers.py).

Issue 18: "make sure `--jobs` never makes a run slower than `--jobs 1` (measured 19.8 s vs 23.1 s on
a loaded 2-core machine): choose the workers from the cores actually free, or say why not."
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from nidavellir.cli import main
from nidavellir.sim import workers
from nidavellir.sim.workers import (
    POOL_GAMES,
    busy_between,
    choose,
    cpu_times,
    exact_asked,
    worth_measuring,
)

MANY = 10 * POOL_GAMES


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_an_idle_machine_runs_what_was_asked() -> None:
    """On an idle machine the workers are the cores asked, and nothing is said."""
    assert choose(2, 2, 0.0, MANY) == (2, None)
    assert choose(None, 4, 0.1, MANY) == (4, None)
    assert choose(3, 8, 0.0, MANY) == (3, None)


def test_one_busy_core_of_two_leaves_one_worker_and_says_why() -> None:
    """"choose the workers from the cores actually free": a core kept busy by another program is not
    free; the line says what was asked, what runs and why."""
    workers, why = choose(2, 2, 1.0, MANY)
    assert workers == 1
    assert why is not None and why.startswith("--jobs 2: 1 worker, 1 of 2 cores is busy")
    assert "NIDAVELLIR_JOBS_EXACT=1" in why and "\n" not in why


def test_busy_is_counted_by_whole_cores_over_half_used() -> None:
    """A core busy less than half the time still counts as free; more than half, as busy; the
    default (no --jobs) takes the free cores without a word."""
    assert choose(4, 4, 0.4, MANY) == (4, None)
    assert choose(4, 4, 1.6, MANY)[0] == 2
    assert choose(None, 4, 2.7, MANY) == (1, None)
    assert choose(4, 4, 3.9, MANY)[0] == 1          # at least one worker, however busy


def test_more_jobs_than_cores_runs_the_cores() -> None:
    """Processes beyond the cores play no faster; the line says how many cores there are."""
    workers, why = choose(8, 2, 0.0, MANY)
    assert workers == 2 and why is not None and "2 cores to run on" in why


def test_small_runs_play_in_this_process() -> None:
    """"few games (small runs) play in-process since starting a pool costs more than it saves"."""
    workers, why = choose(2, 2, 0.0, POOL_GAMES - 1)
    assert workers == 1 and why is not None and f"{POOL_GAMES - 1} games" in why
    assert choose(2, 2, 0.0, POOL_GAMES) == (2, None)
    assert choose(1, 8, 0.0, 3) == (1, None)          # what was asked: nothing to say


def test_exact_runs_the_count_asked() -> None:
    """An explicit way to force the asked count, for tests and benchmarks."""
    assert choose(2, 2, 2.0, 1, exact=True) == (2, None)
    assert choose(None, 3, 3.0, 1, exact=True) == (3, None)
    assert exact_asked({"NIDAVELLIR_JOBS_EXACT": "1"}) and exact_asked({"NIDAVELLIR_JOBS_EXACT": "yes"})
    assert not exact_asked({}) and not exact_asked({"NIDAVELLIR_JOBS_EXACT": "0"})


def test_measuring_only_when_it_could_matter() -> None:
    """The sample costs a quarter second: not taken for a small run, one worker, or an exact count."""
    assert worth_measuring(2, 2, MANY)
    assert worth_measuring(None, 2, MANY)
    assert not worth_measuring(1, 2, MANY)
    assert not worth_measuring(None, 1, MANY)
    assert not worth_measuring(2, 2, POOL_GAMES - 1)
    assert not worth_measuring(2, 2, MANY, exact=True)


STAT_BEFORE = """cpu  300 0 100 600 0 0 0 0 0 0
cpu0 100 0 50 300 0 0 0 0 0 0
cpu1 200 0 50 300 0 0 0 0 0 0
intr 12345
"""
STAT_AFTER = """cpu  500 0 100 700 0 0 0 0 0 0
cpu0 100 0 50 500 0 0 0 0 0 0
cpu1 400 0 50 300 0 0 0 0 0 0
intr 12345
"""


def test_proc_stat_is_read_per_cpu() -> None:
    """Between the two samples cpu1 was busy all the time and cpu0 idle: one busy core of two,
    none of cpu0 alone, one of cpu1 alone."""
    both = busy_between(cpu_times(STAT_BEFORE), cpu_times(STAT_AFTER), 2)
    assert both == pytest.approx(1.0)
    assert busy_between(cpu_times(STAT_BEFORE, [0]), cpu_times(STAT_AFTER, [0]), 1) == pytest.approx(0.0)
    assert busy_between(cpu_times(STAT_BEFORE, [1]), cpu_times(STAT_AFTER, [1]), 1) == pytest.approx(1.0)


def test_unreadable_proc_stat_counts_nothing_busy(tmp_path: Path) -> None:
    """Where /proc/stat cannot be read the choice is the cores asked (nothing is counted busy)."""
    assert workers.busy_cores([0], 0.0, tmp_path / "no-stat") == 0.0


def test_the_reason_is_one_line_on_stderr(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """"when the choice differs from what the user asked, say why on stderr in one line": a small
    run asked for two processes plays in this one and says so; with NIDAVELLIR_JOBS_EXACT=1 it does
    not."""
    monkeypatch.delenv("NIDAVELLIR_JOBS_EXACT", raising=False)
    code, _, err = run_cli(capsys, "simulate", "--players", "2", "--games", "2", "--jobs", "2",
                           "--format", "jsonl", "--out", str(tmp_path / "small"))
    assert code == 0
    lines = [line for line in err.splitlines() if "--jobs" in line]
    said = ("nidavellir simulate: --jobs 2: 1 worker, 2 games play faster in this process than a pool starts "
            "(NIDAVELLIR_JOBS_EXACT=1 runs 2)")
    assert lines == [said]
    monkeypatch.setenv("NIDAVELLIR_JOBS_EXACT", "1")
    code, _, err = run_cli(capsys, "simulate", "--players", "2", "--games", "2", "--jobs", "2",
                           "--format", "jsonl", "--out", str(tmp_path / "exact"))
    assert code == 0 and "--jobs" not in err


def test_the_reason_names_a_busy_core(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The measurement is what the command uses: with one of two cores measured busy, `--jobs 2`
    over enough games runs one worker and says why (the measurement and the size of a small run
    replaced: the machine's own load is not the test's)."""
    monkeypatch.delenv("NIDAVELLIR_JOBS_EXACT", raising=False)
    monkeypatch.setattr(workers, "available_cpus", lambda: [0, 1])
    monkeypatch.setattr(workers, "busy_cores", lambda cpus, *a, **k: 1.0)
    monkeypatch.setattr(workers, "POOL_GAMES", 2)   # (a pool's worth of games, cheaply)
    code, _, err = run_cli(capsys, "simulate", "--players", "2", "--games", "2", "--jobs", "2",
                           "--format", "jsonl", "--out", str(tmp_path / "busy"))
    assert code == 0
    assert "nidavellir simulate: --jobs 2: 1 worker, 1 of 2 cores is busy (NIDAVELLIR_JOBS_EXACT=1 runs 2)" in err


def test_report_reads_with_the_free_cores_too(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`--jobs` never makes a run slower than `--jobs 1`, `report DIR --jobs J` included: reading
    many records in parallel, it takes the free cores as simulate does and says why in one line;
    the summary is the same. (The busy core and the count that makes records many are replaced:
    the machine's own load is not the test's.)"""
    from nidavellir.sim import run

    monkeypatch.setenv("NIDAVELLIR_JOBS_EXACT", "1")
    folder = tmp_path / "sim"
    code, _, _ = run_cli(capsys, "simulate", "--players", "2", "--games", "4", "--jobs", "1", "--out", str(folder))
    assert code == 0
    before = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    monkeypatch.delenv("NIDAVELLIR_JOBS_EXACT")
    monkeypatch.setattr(workers, "available_cpus", lambda: [0, 1])
    monkeypatch.setattr(workers, "busy_cores", lambda cpus, *a, **k: 1.0)
    monkeypatch.setattr(run, "PARALLEL_RECORDS", 2)
    code, _, err = run_cli(capsys, "report", str(folder), "--jobs", "2")
    assert code == 0
    assert [ln for ln in err.splitlines() if "--jobs" in ln] == [
        "nidavellir report: --jobs 2: 1 worker, 1 of 2 cores is busy (NIDAVELLIR_JOBS_EXACT=1 runs 2)"]
    assert json.loads((folder / "summary.json").read_text(encoding="utf-8")) == before
