"""bench/simulate_scaling.py: how `nidavellir simulate` scales with cores, and its memory with games.

    python bench/simulate_scaling.py                       # 1 vs 2 (or --jobs) workers, 1,000 games per rule set
    python bench/simulate_scaling.py --games 3000 --jobs 1,2 --json
    python bench/simulate_scaling.py --memory 2000,20000   # peak memory for 2,000 and 20,000 games per rule set

Speed: a simulation of a shipped variant against the base rules (random bots, 3 players, the base
game unless --expansions), played into a temporary folder with 1 worker (this process) and with
J worker processes; games/s over the whole run, pool start-up and writing the records included
(the summary and report after it are not timed). DESIGN §10: simulation scales with cores (≥ 1.8×
on 2). The ratio is measured on this machine as it is: other load lowers it.

Memory: each size runs in a fresh process (as every speed run does); its peak resident memory (ru_maxrss)
and its largest worker's are reported, with the summary made after the games (which reads every
record back). Flat memory: the figures barely move with ten times the games.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(games: int, players: int, expansions: tuple[str, ...], jobs: int, out: Path,
             report: bool = False) -> dict:
    """One simulation as the command plays it (nidavellir.sim.run.play), timed; with `report`,
    its summary timed after it."""
    from nidavellir.sim.backends import Inline, Pool
    from nidavellir.sim.plan import Plan, sides
    from nidavellir.sim.run import play
    from nidavellir.sim.run import report as make_report

    class MeasuredPool(Pool):
        """A pool that reads its workers' peak memory before it stops them."""
        peak_mb = 0.0

        def close(self) -> None:
            if self.executor is not None:
                self.peak_mb = peak_mb_of_workers(self)
            super().close()

    plan = Plan(players, expansions, ("random",) * players, 1, games,
                sides(expansions, ["generous-offerings"], []), "parquet")
    backend = Inline() if jobs == 1 else MeasuredPool(jobs)
    start = time.perf_counter()
    _, rows = play(plan, out, backend)
    seconds = time.perf_counter() - start
    result = {"jobs": jobs, "games": rows, "seconds": round(seconds, 3), "games_per_s": round(rows / seconds, 1),
              "worker_mb": getattr(backend, "peak_mb", 0.0)}
    if report:
        start = time.perf_counter()
        make_report(out, render=False)
        result["summary_s"] = round(time.perf_counter() - start, 3)
    return result


def peak_mb_of_workers(backend: object) -> float:
    """The largest peak resident memory (VmHWM) of a pool's worker processes, read from /proc
    (they are the forkserver's children, not this process's: ru_maxrss of children misses them)."""
    executor = getattr(backend, "executor", None)
    pids = list(getattr(executor, "_processes", {}) or {})
    peak = 0.0
    for pid in pids:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) / 1024.0)
        except OSError:
            pass
    return peak


def speed(games: int, players: int, expansions: tuple[str, ...], jobs: list[int]) -> dict:
    """Each worker count in a fresh process, as the command runs (nothing loaded, no thread yet)."""
    rows = []
    for j in jobs:
        rows.append(fresh(games, players, expansions, j, report=False))
        print(f"  {j} worker{'s' * (j != 1)}: {rows[-1]['games_per_s']:,.0f} games/s", file=sys.stderr)
    base = rows[0]["games_per_s"]
    for row in rows:
        row["speedup"] = round(row["games_per_s"] / base, 2)
    return {"players": players, "expansions": list(expansions), "games_per_rule_set": games,
            "cores": os.cpu_count(), "rows": rows}


def memory(sizes: list[int], players: int, expansions: tuple[str, ...], jobs: int) -> list[dict]:
    rows = []
    for games in sizes:
        rows.append(fresh(games, players, expansions, jobs, report=True))
        r = rows[-1]
        print(f"  {games:,} games per rule set: main {r['main_mb']:.0f} MB, largest worker {r['worker_mb']:.0f} MB, "
              f"{r['games_per_s']:,.0f} games/s", file=sys.stderr)
    return rows


def fresh(games: int, players: int, expansions: tuple[str, ...], jobs: int, report: bool) -> dict:
    cmd = [sys.executable, __file__, "--one-run", str(games), "--players", str(players), "--jobs", str(jobs),
           "--expansions", ",".join(expansions)] + (["--with-summary"] if report else [])
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"simulate_scaling: a run failed:\n{done.stderr}")
    return dict(json.loads(done.stdout))


def one_run(games: int, players: int, expansions: tuple[str, ...], jobs: int, report: bool) -> dict:
    out = Path(tempfile.mkdtemp(prefix="nidavellir-simbench-"))
    try:
        result = run_once(games, players, expansions, jobs, out, report=report)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    result["main_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # (Linux: KiB)
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000, help="games per rule set for the speed runs")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--expansions", default="", help="comma-separated boxes")
    ap.add_argument("--jobs", default="1,2", help="worker counts to compare (first is the reference)")
    ap.add_argument("--memory", default="", help="games per rule set for the memory runs, comma-separated")
    ap.add_argument("--one-run", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--with-summary", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    expansions = tuple(x for x in args.expansions.split(",") if x)
    if args.one_run is not None:
        print(json.dumps(one_run(args.one_run, args.players, expansions, int(args.jobs.split(",")[-1]),
                                 args.with_summary)))
        return 0
    jobs = [int(j) for j in args.jobs.split(",")]
    result: dict = {"speed": speed(args.games, args.players, expansions, jobs)}
    if args.memory:
        result["memory"] = memory([int(g) for g in args.memory.split(",")], args.players, expansions, jobs[-1])
    if args.json:
        print(json.dumps(result))
    else:
        s = result["speed"]
        print(f"simulate, {s['players']} players, {'+'.join(['base', *s['expansions']])}, "
              f"{s['games_per_rule_set']} games per rule set × 2, {s['cores']} cores:")
        for row in s["rows"]:
            print(f"  {row['jobs']} worker(s): {row['games_per_s']:8,.0f} games/s  × {row['speedup']:.2f}")
        goal = next((r for r in s["rows"] if r["jobs"] == 2), None)
        if goal is not None:
            print(f"  goal ≥ 1.8× on 2 workers: {'PASS' if goal['speedup'] >= 1.8 else 'MISS'}")
        for row in result.get("memory", []):
            print(f"  memory, {row['games'] // 2:,} games per rule set: main {row['main_mb']:.0f} MB, "
                  f"largest worker {row['worker_mb']:.0f} MB (summary {row['summary_s']:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
