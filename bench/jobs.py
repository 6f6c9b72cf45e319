"""bench/jobs.py: does `simulate --jobs` ever make a run slower than `--jobs 1`?

    python bench/jobs.py                     # idle, then with one core kept busy by a burner
    python bench/jobs.py --games 300 --load 0,1 --repeat 2 --json

Each run is the whole command (`python -m nidavellir simulate`, a shipped variant against the base
rules, random bots, 3 players, into a fresh temporary folder), timed from start to exit: rules
loading, measuring the free cores, starting the pool, playing, writing and the report included.
The ways run: `--jobs 1`; `--jobs 2` forced (NIDAVELLIR_JOBS_EXACT=1: two workers whatever the
load, what simulate did before it chose); `--jobs 2` chosen (the workers from the free cores); and
no `--jobs` (every free core). With `--load N`, N processes each burn a core (a busy loop) during
the runs. Printed: seconds (the best of --repeat runs), the workers simulate chose (its stderr line)
and each time's ratio to `--jobs 1` under the same load (< 1: faster). A measurement of this machine
as it is, not a test: other programs' load moves it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WAYS = (("--jobs 1", ["--jobs", "1"], False), ("--jobs 2 forced", ["--jobs", "2"], True),
        ("--jobs 2 chosen", ["--jobs", "2"], False), ("no --jobs", [], False))

BURN = "while True:\n    pass\n"


def timed(games: int, players: int, variant: str, extra: list[str], exact: bool) -> tuple[float, str]:
    """One whole simulate command: its seconds, and the line it said about --jobs (or "")."""
    out = Path(tempfile.mkdtemp(prefix="nidavellir-jobsbench-"))
    env = dict(os.environ)
    env.pop("NIDAVELLIR_JOBS_EXACT", None)
    if exact:
        env["NIDAVELLIR_JOBS_EXACT"] = "1"
    cmd = [sys.executable, "-m", "nidavellir", "simulate", "--players", str(players), "--games", str(games),
           "--variant", variant, "--format", "jsonl", "--out", str(out / "sim"), *extra]
    try:
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        seconds = time.perf_counter() - start
    finally:
        shutil.rmtree(out, ignore_errors=True)
    if done.returncode != 0:
        raise SystemExit(f"bench/jobs.py: a run failed:\n{done.stderr}")
    said = [line for line in done.stderr.splitlines() if "--jobs" in line]
    return seconds, said[0].removeprefix("nidavellir simulate: ") if said else ""


def under_load(burners: int, games: int, players: int, variant: str, repeat: int) -> list[dict]:
    """Every way, best of `repeat`, while `burners` processes keep a core busy each."""
    procs = [subprocess.Popen([sys.executable, "-c", BURN]) for _ in range(burners)]
    try:
        time.sleep(0.5 if burners else 0)   # (the burners running before the first sample)
        rows = []
        for name, extra, exact in WAYS:
            runs = [timed(games, players, variant, extra, exact) for _ in range(repeat)]
            rows.append({"load": burners, "way": name, "seconds": min(s for s, _ in runs), "said": runs[0][1]})
    finally:
        for p in procs:
            p.kill()
            p.wait()
    base = rows[0]["seconds"]
    for r in rows:
        r["ratio"] = r["seconds"] / base
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--games", type=int, default=200, help="games per rule set (two rule sets are played)")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--variant", default="generous-offerings")
    ap.add_argument("--load", default="0,1", help="burner processes for each series, comma-separated")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each way; the best is kept")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    print(f"cores: {len(os.sched_getaffinity(0))}; load average now {os.getloadavg()[0]:.2f}; "
          f"{args.games} games per rule set, 2 rule sets", file=sys.stderr)
    rows: list[dict] = []
    for burners in (int(x) for x in args.load.split(",")):
        rows += under_load(burners, args.games, args.players, args.variant, args.repeat)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    for r in rows:
        print(f"load {r['load']}  {r['way']:<16} {r['seconds']:7.2f} s  × {r['ratio']:.2f} of --jobs 1"
              + (f"   ({r['said']})" if r["said"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
