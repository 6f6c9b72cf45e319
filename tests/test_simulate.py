"""`nidavellir simulate` and `nidavellir report` end to end (issue 11): "the statistics against
known cases (an identical variant shows no significant change; a variant that gives Skaa 40
points shows Skaa's win rate up, with the interval excluding 0)"; "determinism across backends
and job counts"; "resumable"; and the command line around them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from nidavellir.cli import main
from nidavellir.sim.backends import Inline, Pool, Ray
from nidavellir.sim.plan import Plan, sides
from nidavellir.sim.run import Interrupted, simulate

SKAA_40 = """\
layer:
  id: skaa-40
  name: Skaa is worth 40
  description: Skaa the Unfathomable adds 40 points to the Final Bravery Value instead of 17.
cards:
  - id: skaa
    points: 40
"""

SAME = """\
layer:
  id: same
  name: Nothing changes
  description: A variant that changes no rule.
"""


def variant(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def plan_of(variants: list[str], games: int, against: list[str] | None = None, fmt: str = "parquet",
            players: int = 3, seed: int = 1) -> Plan:
    return Plan(players, (), ("random",) * players, seed, games, sides((), variants, against or []), fmt)


def figure(summary: dict, scope: str, subject: str, measure: str) -> dict:
    (cmp,) = summary["comparisons"]
    found = [f for f in cmp["figures"] if (f["scope"], f["subject"], f["measure"]) == (scope, subject, measure)]
    assert len(found) == 1, (scope, subject, measure)
    return found[0]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


# -- the statistics against known cases ----------------------------------------------------------

def test_skaa_worth_40_wins_more_games(tmp_path):
    """003: "Skaa the Unfathomable: add 17 points to your Final Bravery Value". A variant making it
    40 (random bots, which do not look at points, so each paired game is played the same) raises
    the win rate of the player who recruits Skaa, its interval excluding 0; Skaa's mean points go
    from 17 to 40; and Skaa leads the ranked cards."""
    outcome = simulate(plan_of([variant(tmp_path, "skaa-40", SKAA_40)], 300), tmp_path / "sim", Pool(2))
    s = outcome.summary
    rate = figure(s, "card", "skaa", "taker_win_rate")
    assert rate["significant"] and rate["difference"] > 0 and rate["low"] > 0
    assert rate["value"] > rate["against_value"]
    points = figure(s, "card", "skaa", "mean_points")
    assert points["value"] == pytest.approx(40) and points["against_value"] == pytest.approx(17)
    assert points["difference"] == pytest.approx(23) and points["significant"]
    ranked_cards = [f["subject"] for f in s["comparisons"][0]["ranked"] if f["scope"] == "card"]
    assert ranked_cards[0] == "skaa"
    assert {f["subject"] for f in s["comparisons"][0]["ranked"] if f["scope"] == "card"} == {"skaa"}
    json.dumps(s, allow_nan=False)  # the summary is strict JSON (no NaN or Infinity)


def test_an_identical_variant_changes_nothing(tmp_path):
    """A variant that changes no rule plays every paired game the same: every difference is 0 and
    no figure is significant."""
    s = simulate(plan_of([variant(tmp_path, "same", SAME)], 120), tmp_path / "sim", Inline()).summary
    (cmp,) = s["comparisons"]
    assert cmp["pairs"] == 120 and len(cmp["figures"]) > 50
    assert all(f["difference"] == 0 and not f["significant"] for f in cmp["figures"])
    assert cmp["ranked"] == []
    assert s["rule_sets"][0]["seats"] == s["rule_sets"][1]["seats"]


# -- determinism across backends, workers and chunks ---------------------------------------------

def test_the_same_records_whatever_runs_them(tmp_path):
    """Issue 11: "Results are identical whatever the jobs, backend or chunking": one process in
    chunks of 7, two processes in chunks of 2, and a local Ray cluster (`ray.init(num_cpus=2)`)
    give the same records (the same digest) and the same summary."""
    import ray

    p = plan_of(["generous-offerings"], 40)
    one = simulate(p, tmp_path / "one", Inline(), chunk=7, render=False).summary
    two = simulate(p, tmp_path / "two", Pool(2), chunk=2, render=False).summary
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        on_ray = simulate(p, tmp_path / "ray", Ray(None), chunk=5, render=False).summary
    finally:
        ray.shutdown()
    assert one["records"]["count"] == 80
    assert one["records"]["digest"] == two["records"]["digest"] == on_ray["records"]["digest"]
    assert one == two == on_ray


def test_workers_forked_by_a_fresh_command_play_the_same_games(tmp_path):
    """The command forks its workers while it has no other thread (the rules already loaded in
    them); the games are the same as those played in one process (the same digest). (Two workers
    exactly, NIDAVELLIR_JOBS_EXACT=1: a small run on a busy machine would else play in-process.)"""
    import os
    import subprocess
    import sys

    p = plan_of(["generous-offerings"], 24)
    alone = simulate(p, tmp_path / "alone", Inline(), render=False).summary
    done = subprocess.run([sys.executable, "-m", "nidavellir", "simulate", "--players", "3", "--variant",
                           "generous-offerings", "--games", "24", "--jobs", "2", "--out", str(tmp_path / "forked"),
                           "--json"], capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "NIDAVELLIR_JOBS_EXACT": "1"})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["records"] == alone["records"]


def test_a_report_read_by_several_processes_is_the_same(tmp_path, monkeypatch):
    """Many records are read by several processes, each counting its Parquet parts; the counts
    are exact sums, so the summary is the one a single process makes."""
    from nidavellir.sim import records as stored
    from nidavellir.sim import run as running

    monkeypatch.setattr(stored, "PART_ROWS", 10)   # a part per chunk of 5 games (both rule sets)
    out = tmp_path / "sim"
    one = simulate(plan_of(["generous-offerings"], 40), out, Inline(), chunk=5, render=False).summary
    assert len(stored.parts(out / "games.parquet")) == 8
    monkeypatch.setattr(running, "PARALLEL_RECORDS", 1)
    seen = []
    two, _ = running.report(out, render=False, jobs=2, reading=lambda done, total: seen.append(done))
    assert two == one
    assert seen[0] == 0 and seen[-1] == 80 and len(seen) > 2


def test_an_interrupted_run_goes_on_where_it_stopped(tmp_path):
    """Resumable: Ctrl-C after some chunks leaves their games on disk; the same command again plays
    only the rest, to the records of a run never interrupted (JSON lines and Parquet)."""
    for fmt in ("jsonl", "parquet"):
        p = plan_of(["generous-offerings"], 30, fmt=fmt)
        whole = simulate(p, tmp_path / f"whole-{fmt}", Inline(), chunk=5, render=False).summary

        def stop(done: int, total: int) -> None:
            if done >= 20:
                raise KeyboardInterrupt

        out = tmp_path / f"cut-{fmt}"
        with pytest.raises(Interrupted) as cut:
            simulate(p, out, Inline(), chunk=5, progress=stop, render=False)
        assert cut.value.done == 20 and cut.value.total == 60
        again = simulate(p, out, Inline(), chunk=4, render=False)
        assert again.before == 10 and again.played == 40
        assert again.summary["records"]["digest"] == whole["records"]["digest"]


def test_more_games_extend_the_simulation(tmp_path):
    """Asking a folder for more games plays only the new seeds."""
    p = plan_of(["generous-offerings"], 10)
    simulate(p, tmp_path / "sim", Inline(), render=False)
    more = simulate(plan_of(["generous-offerings"], 16), tmp_path / "sim", Inline(), render=False)
    assert (more.before, more.played) == (10, 12)
    assert more.summary["rule_sets"][0]["games"] == 16


# -- the command line ------------------------------------------------------------------------------

def test_simulate_and_report_commands(tmp_path, capsys):
    """`simulate … --out DIR --json` writes the manifest, records, summary and report and prints
    the summary; `report DIR --json` makes the same summary from the records alone."""
    out = tmp_path / "sim"
    code, stdout, err = run_cli(capsys, "simulate", "--players", "2", "--variant", "generous-offerings",
                                "--games", "12", "--jobs", "1", "--out", str(out), "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    for name in ("simulation.json", "summary.json", "report.html", "report.md"):
        assert (out / name).is_file(), name
    assert list((out / "games.parquet").glob("part-*.parquet"))
    assert list((out / "plots").glob("*.png"))
    assert summary == json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert [r["label"] for r in summary["rule_sets"]] == ["generous-offerings", "base"]
    code, again, err = run_cli(capsys, "report", str(out), "--json")
    assert code == 0, err
    assert json.loads(again) == summary
    code, text, _ = run_cli(capsys, "report", str(out))
    assert code == 0 and "Generous offerings against base game over 12 paired games" in " ".join(text.split())


def test_simulate_without_a_variant_plays_one_rule_set(tmp_path, capsys):
    code, stdout, err = run_cli(capsys, "simulate", "--players", "3", "--games", "6", "--jobs", "1",
                                "--format", "jsonl", "--out", str(tmp_path / "s"), "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    assert [r["label"] for r in summary["rule_sets"]] == ["base"] and summary["comparisons"] == []
    assert (tmp_path / "s" / "games.jsonl").is_file()


def test_a_folder_of_another_simulation_is_refused(tmp_path, capsys):
    """Nothing lost: a folder holding another simulation is not overwritten; the error names how
    they differ (exit 1)."""
    out = str(tmp_path / "sim")
    assert run_cli(capsys, "simulate", "--games", "4", "--jobs", "1", "--out", out)[0] == 0
    before = sorted(p.name for p in Path(out).iterdir())
    code, _, err = run_cli(capsys, "simulate", "--games", "4", "--jobs", "1", "--seed", "9", "--out", out)
    assert code == 1 and "holds another simulation (seed: 1 there, 9 asked)" in err
    assert sorted(p.name for p in Path(out).iterdir()) == before
    (Path(out) / "simulation.json").unlink()  # records that nothing says the origin of are not added to
    code, _, err = run_cli(capsys, "simulate", "--games", "4", "--jobs", "1", "--out", out)
    assert code == 1 and "holds records (games.parquet) but no simulation.json" in err


def test_bad_folders_and_options(tmp_path, capsys):
    """Errors are explained, never a traceback: a report of a folder that is no simulation (1), a
    manifest that is not JSON (1, with its line and column), a missing folder (2), --games 0 (2),
    --jobs with --ray (2)."""
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run_cli(capsys, "report", str(empty))
    assert code == 1 and "simulation.json" in err and "Traceback" not in err
    (empty / "simulation.json").write_text("{\n  nope", encoding="utf-8")
    code, _, err = run_cli(capsys, "report", str(empty))
    assert code == 1 and "simulation.json:2:3: not JSON" in err
    code, _, err = run_cli(capsys, "report", str(tmp_path / "missing"))
    assert code == 2 and f"cannot read {tmp_path / 'missing'}: no such file or folder" in err
    code, _, err = run_cli(capsys, "simulate", "--games", "0", "--out", str(tmp_path / "x"))
    assert code == 2 and "argument --games: a number of games from 1 to 10^9, not `0`" in err
    code, _, err = run_cli(capsys, "simulate", "--jobs", "2", "--ray", "auto", "--out", str(tmp_path / "x"))
    assert code == 2 and "not allowed with argument" in err
    code, _, err = run_cli(capsys, "simulate", "--variant", "no-such-rule", "--out", str(tmp_path / "x"))
    assert code == 1 and "no-such-rule" in err
    assert not (tmp_path / "x").exists()
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    code, _, err = run_cli(capsys, "simulate", "--games", "2", "--out", str(tmp_path / "file" / "sim"))
    assert code == 2 and f"cannot write {tmp_path / 'file' / 'sim'}: a part of the path is a file, not a folder" \
        in err and "Traceback" not in err


def test_ray_missing_is_said_plainly(tmp_path, capsys, monkeypatch):
    """`--ray` without Ray installed: how to install it (exit 2), not an ImportError."""
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # (an import of it now raises ImportError)
    code, _, err = run_cli(capsys, "simulate", "--ray", "local", "--games", "2", "--out", str(tmp_path / "x"))
    assert code == 2 and 'pip install "nidavellir[ray]"' in err


def test_records_that_are_not_the_simulation_s_are_named(tmp_path, capsys):
    """Hostile records: a record of a rule set or game the manifest does not have, or a line that
    is no object, is reported with the records file and its place (exit 1), no traceback."""
    out = tmp_path / "sim"
    assert run_cli(capsys, "simulate", "--games", "3", "--jobs", "1", "--format", "jsonl", "--out", str(out))[0] == 0
    path = out / "games.jsonl"
    good = path.read_text(encoding="utf-8")
    for bad, said in [('{"set": 4, "game": 0}\n', "games.jsonl:4:"), ("[1, 2]\n", "games.jsonl:4:"),
                      (good.splitlines(keepends=True)[0], "a second record of game 0")]:
        path.write_text(good + bad, encoding="utf-8")
        code, _, err = run_cli(capsys, "report", str(out))
        assert code == 1 and "games.jsonl" in err and said in err and "Traceback" not in err, err


def test_an_edited_manifest_is_refused_with_what_is_wrong(tmp_path, capsys):
    """Hostile input: a manifest whose fields the report relies on are changed is an error naming
    the file and the field (exit 1), and nothing is written."""
    out = tmp_path / "sim"
    assert run_cli(capsys, "simulate", "--games", "2", "--jobs", "1", "--out", str(out))[0] == 0
    path = out / "simulation.json"
    good = json.loads(path.read_text(encoding="utf-8"))
    (out / "summary.json").unlink()
    for change, said in [({"players": "three"}, "`players`"), ({"games": -1}, "`games`"),
                         ({"rule_sets": [{"index": 5, "label": "x"}]}, "`rule_sets`"),
                         ({"bots": [1, 2]}, "`bots`"), ({"cards": {"skaa": 17}}, "`cards`")]:
        path.write_text(json.dumps({**good, **change}), encoding="utf-8")
        code, _, err = run_cli(capsys, "report", str(out))
        assert code == 1 and "simulation.json" in err and said in err and "Traceback" not in err, err
        assert not (out / "summary.json").exists()


def test_progress_is_told_when_the_work_starts_and_counts_the_games_asked(tmp_path):
    """run.play: "`progress(done, total)` is told when the work starts and after each chunk, in
    games of all rule sets, counting those already on disk (total: the games asked of every rule
    set)" — so a progress line times from the start and its total is the games asked."""
    told: list[tuple[int, int]] = []
    simulate(plan_of(["generous-offerings"], 10), tmp_path / "sim", Inline(), chunk=5,
             progress=lambda d, t: told.append((d, t)), render=False)
    assert told[0] == (0, 20) and told[-1] == (20, 20)
    assert [d for d, _ in told] == sorted(d for d, _ in told) and {t for _, t in told} == {20}
    told.clear()
    simulate(plan_of(["generous-offerings"], 16), tmp_path / "sim", Inline(), chunk=3,
             progress=lambda d, t: told.append((d, t)), render=False)
    assert told[0] == (20, 32) and told[-1] == (32, 32)
    told.clear()
    simulate(plan_of(["generous-offerings"], 16), tmp_path / "sim", Inline(),
             progress=lambda d, t: told.append((d, t)), render=False)
    assert told == []                     # nothing to play: no line
