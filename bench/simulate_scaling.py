"""bench/simulate_scaling.py: how `nidavellir simulate` scales with cores, and its memory with games.

    python bench/simulate_scaling.py                       # 1 vs 2 (or --jobs) workers, 1,000 games per rule set
    python bench/simulate_scaling.py --games 3000 --jobs 1,2 --json
    python bench/simulate_scaling.py --memory 2000,20000   # peak memory for 2,000 and 20,000 games per rule set

Speed: a simulation of a shipped variant against the base rules (random bots, 3 players, the base
game unless --expansions), played into a temporary folder with 1 worker (this process) and with
J worker processes; games/s over the whole run, pool start-up and writing the records included
(the summary and report after it are not timed). DESIGN §10: simulation scales with cores (≥ 1.8×
on 2). The ratio is measured on this machine as it is: other load lowers it.

Memory: each size runs in a fresh process (`--memory-run`); its peak resident memory (ru_maxrss)
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
    from nidavellir.sim import records
    from nidavellir.sim.backends import Inline, Pool, chunk_size
    from nidavellir.sim.plan import Plan, sides
    from nidavellir.sim.run import report as make_report
    from nidavellir.sim.worker import Task

    plan = Plan(players, expansions, ("random",) * players, 1, games,
                sides(expansions, ["generous-offerings"], []), "parquet")
    from nidavellir.sim.plan import write_manifest

    write_manifest(out, plan.manifest())
    backend = Inline() if jobs == 1 else Pool(jobs)
    size = chunk_size(games, jobs)
    start = time.perf_counter()
    writer = records.writer(out, "parquet")
    rows = 0
    for done in backend.run(plan.job(), [Task(a, min(a + size, games)) for a in range(0, games, size)]):
        writer.write(done.payload, done.rows)
        rows += done.rows
    writer.close()
    backend.close()
    seconds = time.perf_counter() - start
    result = {"jobs": jobs, "games": rows, "seconds": round(seconds, 3), "games_per_s": round(rows / seconds, 1)}
    if report:
        start = time.perf_counter()
        make_report(out, render=False)
        result["summary_s"] = round(time.perf_counter() - start, 3)
    return result


def speed(games: int, players: int, expansions: tuple[str, ...], jobs: list[int]) -> dict:
    rows = []
    for j in jobs:
        out = Path(tempfile.mkdtemp(prefix="nidavellir-simbench-"))
        try:
            rows.append(run_once(games, players, expansions, j, out))
        finally:
            shutil.rmtree(out, ignore_errors=True)
        print(f"  {j} worker{'s' * (j != 1)}: {rows[-1]['games_per_s']:,.0f} games/s", file=sys.stderr)
    base = rows[0]["games_per_s"]
    for row in rows:
        row["speedup"] = round(row["games_per_s"] / base, 2)
    return {"players": players, "expansions": list(expansions), "games_per_rule_set": games,
            "cores": os.cpu_count(), "rows": rows}


def memory(sizes: list[int], players: int, expansions: tuple[str, ...], jobs: int) -> list[dict]:
    rows = []
    for games in sizes:
        cmd = [sys.executable, __file__, "--memory-run", str(games), "--players", str(players),
               "--jobs", str(jobs), "--expansions", ",".join(expansions)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        rows.append(json.loads(done.stdout))
        r = rows[-1]
        print(f"  {games:,} games per rule set: main {r['main_mb']:.0f} MB, largest worker {r['worker_mb']:.0f} MB, "
              f"{r['games_per_s']:,.0f} games/s", file=sys.stderr)
    return rows


def memory_run(games: int, players: int, expansions: tuple[str, ...], jobs: int) -> dict:
    out = Path(tempfile.mkdtemp(prefix="nidavellir-simmem-"))
    try:
        result = run_once(games, players, expansions, jobs, out, report=True)
    finally:
        shutil.rmtree(out, ignore_errors=True)
    kb = 1024.0  # (Linux reports ru_maxrss in KiB)
    result["main_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / kb
    result["worker_mb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / kb
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=1000, help="games per rule set for the speed runs")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--expansions", default="", help="comma-separated boxes")
    ap.add_argument("--jobs", default="1,2", help="worker counts to compare (first is the reference)")
    ap.add_argument("--memory", default="", help="games per rule set for the memory runs, comma-separated")
    ap.add_argument("--memory-run", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    expansions = tuple(x for x in args.expansions.split(",") if x)
    if args.memory_run is not None:
        print(json.dumps(memory_run(args.memory_run, args.players, expansions, int(args.jobs.split(",")[-1]))))
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
