#!/usr/bin/env python3
"""Benchmark nidavellir: random-bot games per second, rules compile time, CLI start-up.

    python bench/benchmark.py [--games N] [--runs R] [--json]

A script, never a test: it prints figures and the design's goals with PASS/MISS next to
them, for information only, and exits 0 whatever the figures are. It needs the package
installed (`python -m pip install -e ".[dev]"`), and measures whatever `nidavellir` that
Python imports. Nothing is written outside a temporary folder: the compiled-rules cache
(NIDAVELLIR_CACHE) and any .pyc files it asks for go there.

  games/s    whole games, RandomBot in every seat, single process, seeds 1..N, for 2..5
             players, base game and every combination of the expansions whose folder
             exists under rules/; the rules are loaded before the clock starts.
  compile    cold: a fresh Python that imports the compiler, then times only
             compile_specs(layer_specs(<all available expansions>)), which includes
             building the Lark parser from the grammar.
             cached: a fresh Python times load_rules(<all expansions>, (<variant>,)) after
             an earlier run filled the on-disk cache (a variant keeps the committed
             generated/ module out of it); the whole subprocess is timed as well.
  start-up   wall time of `nidavellir --help` and `nidavellir play --players 3 --seed 1`
             as subprocesses, median of R runs after one warm-up, both as this
             environment runs them and with a warm .pyc cache (PYTHONPYCACHEPREFIX).
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

GOAL_TEXT = "≥ 200 three-player base games/s on one core; full rules compile cold < 1 s, cached < 0.1 s"
GOAL_GAMES_PER_S = 200.0
GOAL_COLD_S = 1.0
GOAL_CACHED_S = 0.1
PLAYER_COUNTS = (2, 3, 4, 5)


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"… {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------- machine
def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.lower().startswith(("model name", "hardware", "cpu model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def machine_info() -> dict:
    import nidavellir

    try:
        affinity = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        affinity = None
    return {
        "cpu_count": os.cpu_count(),
        "cpus_usable": affinity,
        "cpu_model": cpu_model(),
        "python": platform.python_version(),
        "python_impl": platform.python_implementation(),
        "platform": platform.platform(terse=True),
        "writes_bytecode": not sys.dont_write_bytecode,
        "nidavellir": str(Path(nidavellir.__file__).resolve().parent),
        "git_commit": git_commit(),
    }


def git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


# ---------------------------------------------------------------------------------- games
def available_expansions() -> tuple[str, ...]:
    from nidavellir.compiler.build import EXPANSIONS, rules_dir

    return tuple(e for e in EXPANSIONS if (rules_dir() / e).is_dir())


def expansion_sets(available: tuple[str, ...]) -> list[tuple[str, ...]]:
    sets: list[tuple[str, ...]] = [()]
    for k in range(1, len(available) + 1):
        sets.extend(itertools.combinations(available, k))
    return sets


def play_games(rules, players: int, games: int) -> tuple[float, int]:
    """Play seeds 1..games with random bots; return (seconds, total decisions)."""
    from nidavellir.runtime.bots import RandomBot
    from nidavellir.runtime.game import Game

    decisions = 0
    start = time.perf_counter()
    for seed in range(1, games + 1):
        g = Game(rules, players, seed)
        bots = [RandomBot(seed * 1000 + i) for i in range(players)]
        while g.pending is not None:
            d = g.pending
            g.answer(bots[d.player].choose(g.engine, d))
            decisions += 1
        g.scores()
    return time.perf_counter() - start, decisions


def bench_games(games: int) -> list[dict]:
    from nidavellir.compiler.build import load_rules

    rows = []
    for expansions in expansion_sets(available_expansions()):
        rules = load_rules(expansions)
        lo = rules.game["players"].get("min", 2)
        hi = rules.game["players"].get("max", 5)
        for n in PLAYER_COUNTS:
            if not lo <= n <= hi:
                continue
            progress(f"{games} games, {n} players, {'+'.join(expansions) or 'base'}")
            seconds, decisions = play_games(rules, n, games)
            rows.append({
                "expansions": list(expansions),
                "players": n,
                "games": games,
                "seconds": seconds,
                "games_per_s": games / seconds,
                "ms_per_game": 1000 * seconds / games,
                "decisions_per_game": decisions / games,
                "us_per_decision": 1e6 * seconds / decisions if decisions else None,
            })
    return rows


# ---------------------------------------------------------------------------------- compile
COLD_CODE = r"""
import json, sys, time
t0 = time.perf_counter()
from nidavellir.compiler.build import EXPANSIONS, compile_specs, layer_specs, rules_dir
t1 = time.perf_counter()
expansions = tuple(e for e in EXPANSIONS if (rules_dir() / e).is_dir())
specs = layer_specs(expansions)
t2 = time.perf_counter()
compiled = compile_specs(specs)
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "compile_s": t3 - t2, "expansions": list(expansions),
                  "cards": len(compiled.data["cards"]), "source_chars": len(compiled.source)}))
"""

CACHED_CODE = r"""
import json, sys, time
from nidavellir.compiler import build
expansions, variant = tuple(json.loads(sys.argv[1])), sys.argv[2]
compiled = []
real_compile = build.compile_specs
def counting(specs):
    compiled.append(1)
    return real_compile(specs)
build.compile_specs = counting
t0 = time.perf_counter()
rules = build.load_rules(expansions, (variant,))
t1 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "compiled": bool(compiled), "module": rules.module.__name__,
                  "cards": len(rules.cards)}))
"""

COMMITTED_CODE = r"""
import json, time
from nidavellir.compiler import build
t0 = time.perf_counter()
rules = build.load_rules()
t1 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "module": rules.module.__name__}))
"""


def python_json(code: str, args: list[str], env: dict) -> tuple[dict, float]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, stdin=subprocess.DEVNULL, timeout=300)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1]), wall


def pick_variant() -> Path | None:
    from nidavellir.compiler.build import rules_dir

    folder = rules_dir() / "variants"
    preferred = folder / "first-game.yaml"
    if preferred.is_file():
        return preferred
    found = sorted(folder.glob("*.yaml"))
    return found[0] if found else None


def bench_compile(runs: int, env: dict, cache: Path) -> dict:
    expansions = available_expansions()
    out: dict = {"expansions": list(expansions)}

    progress(f"cold compile x{runs}")
    cold = [python_json(COLD_CODE, [], env) for _ in range(runs)]
    out["cold"] = {
        "runs": runs,
        "compile_s": statistics.median(r["compile_s"] for r, _ in cold),
        "compile_min_s": min(r["compile_s"] for r, _ in cold),
        "import_s": statistics.median(r["import_s"] for r, _ in cold),
        "subprocess_s": statistics.median(w for _, w in cold),
        "cards": cold[0][0]["cards"],
        "source_chars": cold[0][0]["source_chars"],
    }

    variant = pick_variant()
    if variant is None:
        out["cached"] = None
    else:
        progress(f"cached load x{runs}")
        cache_env = dict(env, NIDAVELLIR_CACHE=str(cache / "cached-bench"))
        args = [json.dumps(list(expansions)), str(variant)]
        first, first_wall = python_json(CACHED_CODE, args, cache_env)  # fills the cache
        cached = [python_json(CACHED_CODE, args, cache_env) for _ in range(runs)]
        out["cached"] = {
            "runs": runs,
            "variant": variant.name,
            "filling_run_compiled": first["compiled"],
            "filling_run_load_s": first["load_s"],
            "load_s": statistics.median(r["load_s"] for r, _ in cached),
            "load_min_s": min(r["load_s"] for r, _ in cached),
            "subprocess_s": statistics.median(w for _, w in cached),
            "all_from_cache": not any(r["compiled"] for r, _ in cached),
        }

    progress(f"committed module load x{runs}")
    committed = [python_json(COMMITTED_CODE, [], env) for _ in range(runs)]
    out["committed"] = {
        "runs": runs,
        "module": committed[0][0]["module"],
        "load_s": statistics.median(r["load_s"] for r, _ in committed),
        "subprocess_s": statistics.median(w for _, w in committed),
    }
    return out


# ---------------------------------------------------------------------------------- CLI start-up
def cli_command() -> list[str]:
    """The `nidavellir` script next to this Python (not a pyenv shim), else on PATH, else -m."""
    candidates = [Path(sysconfig.get_path("scripts")) / "nidavellir", Path(sys.executable).parent / "nidavellir"]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return [str(c)]
    found = shutil.which("nidavellir")
    return [found] if found else [sys.executable, "-m", "nidavellir.cli"]


def time_command(cmd: list[str], runs: int, env: dict) -> dict:
    def once() -> float:
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                              stdin=subprocess.DEVNULL, timeout=300)
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}:\n{proc.stderr.decode(errors='replace')}")
        return wall

    once()  # warm-up: file cache, and the .pyc cache when one is written
    walls = [once() for _ in range(runs)]
    return {"runs": runs, "median_s": statistics.median(walls), "min_s": min(walls), "max_s": max(walls)}


def bench_startup(runs: int, env: dict, tmp: Path) -> dict:
    script = cli_command()
    commands = {"help": [*script, "--help"], "play": [*script, "play", "--players", "3", "--seed", "1"]}
    warm_env = dict(env, PYTHONPYCACHEPREFIX=str(tmp / "pycache"))
    warm_env.pop("PYTHONDONTWRITEBYTECODE", None)
    out: dict = {"command": script, "as_is": {}, "warm_pyc": {}}
    for name, cmd in commands.items():
        progress(f"start-up `{' '.join(cmd[-4:])}` x{runs}")
        out["as_is"][name] = time_command(cmd, runs, env)
        out["warm_pyc"][name] = time_command(cmd, runs, warm_env)
    out["as_is_writes_bytecode"] = "PYTHONDONTWRITEBYTECODE" not in env
    return out


# ---------------------------------------------------------------------------------- report
def goals(result: dict) -> list[dict]:
    rows = []
    three = [r for r in result["games"] if r["players"] == 3 and not r["expansions"]]
    if three:
        v = three[0]["games_per_s"]
        rows.append({"goal": "3-player base games/s (one core)", "target": f">= {GOAL_GAMES_PER_S:g}",
                     "value": v, "shown": f"{v:.0f} games/s", "pass": v >= GOAL_GAMES_PER_S})
    comp = result.get("compile")
    if comp:
        v = comp["cold"]["compile_s"]
        rows.append({"goal": "full rules compile, cold", "target": f"< {GOAL_COLD_S:g} s",
                     "value": v, "shown": f"{v * 1000:.0f} ms", "pass": v < GOAL_COLD_S})
        if comp.get("cached"):
            v = comp["cached"]["load_s"]
            rows.append({"goal": "full rules load, cached", "target": f"< {GOAL_CACHED_S:g} s",
                         "value": v, "shown": f"{v * 1000:.1f} ms", "pass": v < GOAL_CACHED_S})
    return rows


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"


def table(headers: list[str], rows: list[list[str]], left: tuple[int, ...] = (0,)) -> str:
    """Columns in `left` are text (left-aligned); the others are figures (right-aligned)."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def print_report(r: dict) -> None:
    m = r["machine"]
    usable = f" ({m['cpus_usable']} usable)" if m["cpus_usable"] not in (None, m["cpu_count"]) else ""
    print("nidavellir benchmark")
    print(f"machine: {m['cpu_count']} CPUs{usable}, {m['cpu_model']}")
    print(f"python:  {m['python_impl']} {m['python']} on {m['platform']}; "
          f"bytecode writing {'on' if m['writes_bytecode'] else 'off (PYTHONDONTWRITEBYTECODE)'}")
    print(f"package: {m['nidavellir']}" + (f" (git {m['git_commit']})" if m["git_commit"] else ""))

    print(f"\nRandom-bot games, single process, seeds 1..{r['games'][0]['games'] if r['games'] else 0}")
    print(table(["rules", "players", "games/s", "ms/game", "decisions/game", "µs/decision"], [
        ["+".join(g["expansions"]) or "base", str(g["players"]), f"{g['games_per_s']:.0f}",
         f"{g['ms_per_game']:.2f}", f"{g['decisions_per_game']:.1f}", f"{g['us_per_decision']:.0f}"]
        for g in r["games"]]))

    c = r.get("compile")
    if c:
        rules = "+".join(["base", *c["expansions"]])
        cold, cached, committed = c["cold"], c.get("cached"), c["committed"]
        print(f"\nRules ({rules}; {cold['cards']} cards), medians of {cold['runs']} fresh subprocesses")
        rows = [["cold: compile_specs (incl. grammar parse)", ms(cold["compile_s"]), ms(cold["subprocess_s"]),
                 f"importing the compiler: {ms(cold['import_s'])}"]]
        if cached:
            note = "" if cached["all_from_cache"] and cached["filling_run_compiled"] else " NOT ALL FROM CACHE"
            rows.append([f"cached: load_rules(+{cached['variant']})", ms(cached["load_s"]),
                         ms(cached["subprocess_s"]),
                         f"filling run: {ms(cached['filling_run_load_s'])}{note}"])
        rows.append(["committed module: load_rules()", ms(committed["load_s"]), ms(committed["subprocess_s"]),
                     committed["module"]])
        print(table(["measure", "timed call", "whole subprocess", "note"], rows, left=(0, 3)))

    s = r.get("startup")
    if s:
        as_is = "as run here" + ("" if s["as_is_writes_bytecode"] else " (no .pyc written)")
        print(f"\nCLI start-up, wall time, median of {s['as_is']['help']['runs']} runs ({' '.join(s['command'])})")
        print(table(["command", as_is, "min", "with warm .pyc cache", "min"], [
            [label, ms(s["as_is"][k]["median_s"]), ms(s["as_is"][k]["min_s"]),
             ms(s["warm_pyc"][k]["median_s"]), ms(s["warm_pyc"][k]["min_s"])]
            for k, label in (("help", "nidavellir --help"), ("play", "nidavellir play --players 3 --seed 1"))]))

    print(f"\nGoal: {GOAL_TEXT}")
    for g in r["goals"]:
        print(f"  {'PASS' if g['pass'] else 'MISS'}  {g['goal']}: {g['shown']} (target {g['target']})")
    print("(information only)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, metavar="N",
                    help="games per player count and rule set (default 300)")
    ap.add_argument("--runs", type=int, default=10, metavar="R",
                    help="runs per CLI start-up figure (default 10); compile figures use max(3, R // 2)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--skip", action="append", default=[], choices=["games", "compile", "startup"],
                    help="leave out a part (repeatable)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.runs < 1:
        ap.error("--games and --runs must be at least 1")
    try:
        import nidavellir  # noqa: F401
    except ImportError:
        print("benchmark: cannot import nidavellir; install it first: python -m pip install -e \".[dev]\"",
              file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory(prefix="nidavellir-bench-") as tmpdir:
        tmp = Path(tmpdir)
        # Everything this process and its children compile is cached here, not in ~/.cache.
        os.environ["NIDAVELLIR_CACHE"] = str(tmp / "cache")
        env = dict(os.environ)

        result: dict = {"machine": machine_info(), "games": [], "goal_text": GOAL_TEXT}
        if "games" not in args.skip:
            result["games"] = bench_games(args.games)
        if "compile" not in args.skip:
            result["compile"] = bench_compile(max(3, args.runs // 2), env, tmp)
        if "startup" not in args.skip:
            result["startup"] = bench_startup(args.runs, env, tmp)
        result["goals"] = goals(result)

    if args.json:
        print(json.dumps(result, separators=(",", ":")))
    else:
        print_report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
