#!/usr/bin/env python3
"""Benchmark nidavellir: random-bot games per second, rules compile time, CLI start-up.

    python bench/benchmark.py [--games N] [--runs R] [--players 2,3,4,5] [--json]
    python bench/benchmark.py --compare REF [--games N] [--players 2,3,4,5] [--sim-games G]
                              [--search-games S] [--search-playouts P] [--skip PART] [--json]

A script, never a test: it prints figures and the design's goals with PASS/MISS next to
them, for information only, and exits 0 whatever the figures are. It needs the package
installed (`python -m pip install -e ".[dev]"`), and measures whatever `nidavellir` that
Python imports. Nothing is written outside a temporary folder: the compiled-rules cache
(NIDAVELLIR_CACHE) and any .pyc files it asks for go there.

  games/s    whole games, a random bot in every seat (RandomBot's choice rule), single
             process, seeds 1..N, for 2..5 players, base game and every combination of
             the expansions whose folder exists under rules/; the rules are loaded
             before the clock starts.
  compile    cold: for every rules combination, a fresh Python that imports the
             compiler, then times only compile_specs(layer_specs(<expansions>)), which
             includes building the Lark parser from the grammar.
             cached: for every combination, a fresh Python times
             load_rules(<expansions>, (<variant>,)) after an earlier run filled the
             on-disk cache (a variant keeps the committed generated/ module out of it);
             the whole subprocess is timed as well.
  start-up   wall time of `nidavellir --help` and `nidavellir play --players 3 --seed 1`
             as subprocesses, median of R runs after one warm-up, both as this
             environment runs them and with a warm .pyc cache (PYTHONPYCACHEPREFIX).
  league     a small league of the base game as `nidavellir league` plays it: random vs
             greedy with 2 players (both seatings) and one greedy seat against two randoms
             with 3 players (the greedy seat in each seat), --league-games games per seating
             (seeds 1..L); greedy's win rate (a tie of k winners gives each 1/k) with its 95 %
             Wilson score interval; and the cost of each bot's decisions (ms/decision,
             decisions/s), timed around each `choose` call in those games, and for a bot not
             in them (every other bot `--bots` knows) in 3-player games against two randoms
             for about LEAGUE_COST_S seconds.

--compare REF runs the same work on git revision REF and on the working tree, in two worker
subprocesses (one per side, each importing only its own copy of the code), alternating requests
between them (and which side goes first), and prints both sides' figures and the ratio this / REF:
  games      random-bot games/s as above, batches of BATCH games, and whether every game took
             the same decisions and ended with the same totals;
  simulate   a simulated game's cost over a bare one, random bots, SIM_PLAYERS players, base
             game: sim/worker.py `play` (journal, record_of, marginal points) against the same
             seeds played bare, SIM_BATCH seeds a request; and whether the records are identical;
  search     the search bot's playouts per second (SearchBot.spent over the time of its
             `choose` calls), seat 0 at --search-playouts per decision against random bots,
             SEARCH_PLAYERS players, base game, a game a request; and whether it chose alike;
then issue 19 §4's table: each figure's REF and this value, ratio, goal and PASS/MISS. A figure
a revision lacks the code for (no sim/worker.py, no search bot) is n/a, with why.
"""
from __future__ import annotations

import argparse
import io
import itertools
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

GOAL_TEXT = ("≥ 1,000 three-player base games/s on one core; ≥ 500 with Thingvellir; ≥ 400 with both expansions; "
             "every box combination compiles cold < 1 s, loads cached < 0.05 s; "
             "`nidavellir --help` < 0.15 s; greedy wins ≥ 70 % of two-player games against random and "
             "≥ 50 % of three-player games against two randoms, at ≲ 2 ms a decision; "
             "simulate ≥ 1.8 × as many games/s on 2 workers as on 1")
GOAL_BASE_GAMES_PER_S = 1000.0
GOAL_FULL_GAMES_PER_S = 400.0   # three players, both expansions; checked once that rules set exists
GOAL_THINGVELLIR_GAMES_PER_S = 500.0  # three players, base + Thingvellir (issue 7)
GOAL_COLD_S = 1.0
GOAL_CACHED_S = 0.05
GOAL_HELP_S = 0.15
PLAYER_COUNTS = (2, 3, 4, 5)
DEFAULT_GAMES = 300
DEFAULT_COMPARE_GAMES = 200
BATCH = 20          # games per worker request in --compare; the sides alternate batch by batch
DEFAULT_LEAGUE_GAMES = 60   # per seating: 2 players 2 × 60 games, 3 players 3 × 60
LEAGUE_COST_S = 3.0         # seconds of play to time a bot that the league does not play
GOAL_GREEDY_2P = 0.70       # issue 10: greedy beats random in >= 70 % of two-player games
GOAL_GREEDY_3P = 0.50       # ... and wins >= 50 % of three-player games against two randoms
GOAL_SIM_SPEEDUP = 1.8      # issue 11 / DESIGN §10: simulate on 2 cores >= 1.8 x 1 core
GOAL_GREEDY_MS = 2.0        # the greedy bot's brief: a decision costs <~ 2 ms on average
# --compare: issue 19 §4's figures, this tree against REF
GOAL_FULL_COMPARE_GAMES_PER_S = 500.0  # three players, both expansions (issue 19)
GOAL_SIM_COST = 1.25        # a simulated game costs <= 1.25 x a bare one on the same bots
GOAL_SEARCH_RATIO = 2.0     # search: >= 2 x REF's playouts per second at the same budget
SIM_PLAYERS = 3
SIM_BATCH = 20              # seeds per simulate request in --compare
DEFAULT_COMPARE_SIM_GAMES = 400
SEARCH_PLAYERS = 2
DEFAULT_SEARCH_GAMES = 12   # search games per side in --compare, one a request
DEFAULT_SEARCH_PLAYOUTS = 40


def progress(message: str) -> None:
    if sys.stderr.isatty():
        print(f"… {message}", file=sys.stderr, flush=True)


# ==================================================================================
# THE PACKAGE UNDER TEST: every name this file takes from nidavellir is in this block.
# Public API first; the internals below it may move in a refactoring: update them here.
# ==================================================================================
def public_load_rules() -> Callable[..., Any]:
    from nidavellir import load_rules

    return load_rules


def public_game() -> Callable[..., Any]:
    from nidavellir import Game

    return Game


def package_folder() -> Path:
    import nidavellir

    return Path(nidavellir.__file__).resolve().parent


def expansion_names() -> tuple[str, ...]:
    """Every expansion the compiler knows, in its order (internal)."""
    from nidavellir.compiler.build import EXPANSIONS

    return tuple(EXPANSIONS)


def rules_folder() -> Path:
    """The installed rules/ folder (internal)."""
    from nidavellir.compiler.build import rules_dir

    return rules_dir()


def player_range(rules: Any) -> tuple[int, int]:
    """The player counts a loaded rule set allows (internal: the compiled game data)."""
    if hasattr(rules, "min_players"):
        return rules.min_players, rules.max_players
    players = rules.game["players"]  # revisions before the typed rule set
    return players.get("min", 2), players.get("max", 5)


# The compile snippets run in fresh subprocesses; argv[1] is this module name, which
# must provide compile_specs, layer_specs and a load_rules that calls its compile_specs.
BUILD_MODULE = "nidavellir.compiler.build"

COLD_CODE = r"""
import importlib, json, sys, time
t0 = time.perf_counter()
build = importlib.import_module(sys.argv[1])
t1 = time.perf_counter()
expansions = tuple(json.loads(sys.argv[2]))
specs = build.layer_specs(expansions)
t2 = time.perf_counter()
compiled = build.compile_specs(specs)
t3 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "compile_s": t3 - t2, "expansions": list(expansions),
                  "cards": len(compiled.ruleset.cards if hasattr(compiled, "ruleset") else compiled.data["cards"]),
                  "source_chars": len(compiled.source)}))
"""

CACHED_CODE = r"""
import importlib, json, sys, time
from nidavellir import load_rules
build = importlib.import_module(sys.argv[1])
expansions, variant = tuple(json.loads(sys.argv[2])), sys.argv[3]
compiled = []
real_compile = build.compile_specs
def counting(specs):
    compiled.append(1)
    return real_compile(specs)
build.compile_specs = counting
t0 = time.perf_counter()
rules = load_rules(expansions, (variant,))
t1 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "compiled": bool(compiled), "module": rules.module.__name__,
                  "cards": len(rules.cards)}))
"""

COMMITTED_CODE = r"""
import json, time
from nidavellir import load_rules
t0 = time.perf_counter()
rules = load_rules()
t1 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "module": rules.module.__name__}))
"""
def league_api() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any], Callable[..., Any], Any]:
    """What the league section uses (internal): seatings, win shares, the Wilson interval, a bot
    from its spec, the observation, and the bots' names."""
    from nidavellir.runtime.bots import BOTS, make_bot
    from nidavellir.runtime.observation import observe

    from nidavellir.league import seatings
    from nidavellir.stats import shares, wilson

    return seatings, shares, wilson, (make_bot, observe), tuple(BOTS)
def bot_seeder() -> Callable[[int, int], int]:
    """The seed of seat i's bot in game `seed` (internal): runtime/streams.py's `bot_seed`, or on a
    revision from before the random streams, seed * 1000 + i (its deals differ too: games of such
    a revision are not identical to this one's by design)."""
    import nidavellir.runtime

    # (by the file: an import would fall through to the editable install's finder on such a revision)
    if not (Path(nidavellir.runtime.__file__).parent / "streams.py").is_file():
        return lambda seed, i: seed * 1000 + i
    from nidavellir.runtime.streams import bot_seed
    return bot_seed


def missing(*relative: str) -> str | None:
    """Why a feature is not in the imported package, by its files (an import would fall through to
    the editable install's finder on a revision without them), else None."""
    for name in relative:
        if not (package_folder() / name).is_file():
            return f"no nidavellir/{name} in this revision"
    return None


def simulate_api() -> tuple[Callable[..., Any], Callable[..., Any], Callable[..., Any]] | str:
    """What a simulated game is made of (internal): sim/worker.py's `play` (the game with its journal,
    to its record), and make_bot and observe for the same game bare; or why this revision has none."""
    why = missing("sim/worker.py", "runtime/bots.py", "runtime/observation.py")
    if why:
        return why
    from nidavellir.runtime.bots import make_bot
    from nidavellir.runtime.observation import observe

    import nidavellir.sim.worker

    play = getattr(nidavellir.sim.worker, "play", None)
    if play is None:
        return "this revision's sim/worker.py has no `play` (one game to its record)"
    return play, make_bot, observe


def search_api() -> tuple[Callable[[int, int], Any], Callable[..., Any], Callable[..., Any]] | str:
    """A search bot from (seed, playouts per decision) whose `spent` counts its playouts (internal:
    runtime/search.py), make_bot and observe; or why this revision has none."""
    why = missing("runtime/search.py", "runtime/bots.py", "runtime/observation.py")
    if why:
        return why
    from nidavellir.runtime.bots import make_bot
    from nidavellir.runtime.observation import observe
    from nidavellir.runtime.search import SearchBot

    try:
        counts = hasattr(SearchBot(0, playouts=1), "spent")  # (compiled, a bot has no __dict__)
    except TypeError:
        return "this revision's search bot takes no playout budget (SearchBot(seed, playouts=N))"
    if not counts:
        return "this revision's search bot does not count its playouts (SearchBot.spent)"
    return (lambda seed, playouts: SearchBot(seed, playouts=playouts)), make_bot, observe


# ================================================================ end of package names


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
        "nidavellir": str(package_folder()),
        "engine": engine_kind(),
        "git_commit": git_commit(),
    }


def git_commit() -> str | None:
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "-C", str(here), "rev-parse", "--short", "HEAD"],
                             check=False, capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", str(here), "status", "--porcelain", "--untracked-files=no"],
                               check=False, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    if out.returncode != 0:
        return None
    return out.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


# ---------------------------------------------------------------------------------- games
def available_expansions() -> tuple[str, ...]:
    return tuple(e for e in expansion_names() if (rules_folder() / e).is_dir())


def expansion_sets(available: tuple[str, ...]) -> list[tuple[str, ...]]:
    sets: list[tuple[str, ...]] = [()]
    for k in range(1, len(available) + 1):
        sets.extend(itertools.combinations(available, k))
    return sets


def rules_name(expansions: tuple[str, ...] | list[str]) -> str:
    return "+".join(expansions) or "base"


def play_random(rules: Any, players: int, seeds: range) -> tuple[float, int, list[dict]]:
    """Play `seeds` with a random bot in every seat; return (seconds, decisions, fingerprints).

    The bots choose as the project's RandomBot does: seat i of game `seed` draws from
    random.Random(bot_seed(seed, i)) and answers options[rng.randrange(len(options))].
    A fingerprint is the (player, kind, chosen index, number of options) of every decision
    plus the final totals, so it does not depend on how options are represented.
    Only the public API is used: compare-mode workers run this on other revisions too.
    """
    game_class = public_game()
    seeder = bot_seeder()
    fingerprints = []
    decisions = 0
    start = time.perf_counter()
    for seed in seeds:
        g = game_class(rules, players, seed)
        rngs = [random.Random(seeder(seed, i)) for i in range(players)]
        trace = []
        while (d := g.pending) is not None:
            options = d.options
            k = rngs[d.player].randrange(len(options))
            trace.append((d.player, d.kind, k, len(options)))
            g.answer(options[k])
        totals = [p["total"] for p in g.scores()["players"]]
        fingerprints.append({"seed": seed, "decisions": trace, "totals": totals})
        decisions += len(trace)
    return time.perf_counter() - start, decisions, fingerprints


def play_simulated(rules: Any, players: int, seeds: range, bare_first: bool) -> dict:
    """The same games bare and as `simulate` plays them, random bots in every seat; their times.

    Bare: Game(rules, players, seed) without a journal, seat i a `random` bot seeded
    bot_seed(seed, i) that chooses from observe(game), as `nidavellir play` plays it. Simulated:
    sim/worker.py's `play` of the same seed and bots (the game with the journal simulate keeps, to
    its record: facts, marginal points). The two alternate game by game, so that a burst of load hits
    both alike; `bare_first` says which of them the first seed starts with. Each game's record is
    given as a digest (a record must not change), without its `content_hash`: that names the compiled
    module, whose text a compiler change rewrites. {"na": why} on a revision without them."""
    api = simulate_api()
    if isinstance(api, str):
        return {"na": api}
    sim_play, make_bot, observe = api
    game_class, seeder = public_game(), bot_seeder()
    bots = ["random"] * players

    def bare(seed: int) -> float:
        start = time.perf_counter()
        game = game_class(rules, players, seed)
        seats = [make_bot("random", seeder(seed, k)) for k in range(players)]
        while game.pending is not None:
            game.answer(seats[game.pending.player].choose(observe(game)))
        return time.perf_counter() - start

    def simulated(index: int, seed: int) -> float:
        start = time.perf_counter()
        records.append(sim_play(rules, 0, index, seed, bots))
        return time.perf_counter() - start

    records: list[dict] = []
    bare_s = sim_s = 0.0
    for index, seed in enumerate(seeds):
        if (index % 2 == 0) == bare_first:
            bare_s += bare(seed)
            sim_s += simulated(index, seed)
        else:
            sim_s += simulated(index, seed)
            bare_s += bare(seed)
    return {"bare_seconds": bare_s, "sim_seconds": sim_s,
            "records": [digest({**r, "content_hash": ""}) for r in records]}


def digest(value: Any) -> str:
    """A short digest of a JSON-like value (what is not JSON as its str)."""
    import hashlib

    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def play_search(rules: Any, players: int, seed: int, playouts: int) -> dict:
    """One game of a search bot (seat 0, `playouts` per decision) against random bots, seats seeded
    bot_seed(seed, i); the time its `choose` calls took, the playouts it played, and its choices
    (index of the option and number of options) with the final totals, to check that both sides
    searched alike. {"na": why} on a revision without the search bot."""
    api = search_api()
    if isinstance(api, str):
        return {"na": api}
    search_bot, make_bot, observe = api
    seeder = bot_seeder()
    game = public_game()(rules, players, seed)
    searcher = search_bot(seeder(seed, 0), playouts)
    seats = [searcher, *(make_bot("random", seeder(seed, k)) for k in range(1, players))]
    seconds, choices = 0.0, []
    while (d := game.pending) is not None:
        obs = observe(game)
        if d.player == 0:
            start = time.perf_counter()
            answer = searcher.choose(obs)
            seconds += time.perf_counter() - start
            choices.append([d.options.index(answer), len(d.options)])
        else:
            answer = seats[d.player].choose(obs)
        game.answer(answer)
    totals = [p["total"] for p in game.scores()["players"]]
    return {"seconds": seconds, "playouts": searcher.spent, "decisions": len(choices),
            "game": {"seed": seed, "choices": choices, "totals": totals}}


def bench_games(games: int, player_counts: tuple[int, ...]) -> list[dict]:
    load_rules = public_load_rules()
    rows = []
    for expansions in expansion_sets(available_expansions()):
        rules = load_rules(expansions)
        lo, hi = player_range(rules)
        for n in player_counts:
            if not lo <= n <= hi:
                continue
            progress(f"{games} games, {n} players, {rules_name(expansions)}")
            seconds, decisions, _ = play_random(rules, n, range(1, games + 1))
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
# ---------------------------------------------------------------------------------- league
class BotClock:
    """The decisions each bot made and the time its `choose` calls took."""

    def __init__(self) -> None:
        self.decisions: dict[str, int] = {}
        self.seconds: dict[str, float] = {}

    def add(self, bot: str, seconds: float) -> None:
        self.decisions[bot] = self.decisions.get(bot, 0) + 1
        self.seconds[bot] = self.seconds.get(bot, 0.0) + seconds

    def row(self, bot: str) -> dict:
        n, t = self.decisions.get(bot, 0), self.seconds.get(bot, 0.0)
        return {"bot": bot, "decisions": n, "seconds": t, "ms_per_decision": 1000 * t / n if n else 0.0,
                "decisions_per_s": n / t if t else 0.0}


def play_seated(rules: Any, seating: tuple[str, ...], seed: int, clock: BotClock) -> list[int]:
    """One game as `nidavellir league` plays it (seat i's bot seeded bot_seed(seed, i)), each bot's
    `choose` timed; the totals by seat."""
    _, _, _, (make_bot, observe), _ = league_api()
    game = public_game()(rules, len(seating), seed)
    bots = [make_bot(spec, bot_seeder()(seed, i)) for i, spec in enumerate(seating)]
    while (d := game.pending) is not None:
        obs = observe(game)
        start = time.perf_counter()
        answer = bots[d.player].choose(obs)
        clock.add(seating[d.player], time.perf_counter() - start)
        game.answer(answer)
    return [p["total"] for p in game.scores()["players"]]


def league_row(rules: Any, bots: list[str], players: int, games: int, clock: BotClock) -> dict:
    """Every seating of `bots` (as the league seats them), seeds 1..games each: greedy's games
    (its seats), win shares, win rate with its Wilson 95 % interval, and mean scores."""
    seatings, shares, wilson, _, _ = league_api()
    arrangement = seatings(bots, players)
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    score: dict[str, int] = {}
    for seating in arrangement:
        for seed in range(1, games + 1):
            totals = play_seated(rules, seating, seed, clock)
            for bot, share, total in zip(seating, shares(totals), totals):
                wins[bot] = wins.get(bot, 0.0) + share
                seats[bot] = seats.get(bot, 0) + 1
                score[bot] = score.get(bot, 0) + total
    low, high = wilson(wins["greedy"], seats["greedy"])
    return {"players": players, "bots": bots, "seatings": len(arrangement), "games": len(arrangement) * games,
            "greedy_games": seats["greedy"], "greedy_wins": wins["greedy"],
            "greedy_win_rate": wins["greedy"] / seats["greedy"], "low": low, "high": high,
            "mean_score": {bot: score[bot] / seats[bot] for bot in seats}}


def bench_league(games: int) -> dict:
    rules = public_load_rules()(())
    clock = BotClock()
    rows = [league_row(rules, ["random", "greedy"], 2, games, clock),
            league_row(rules, ["greedy", "random", "random"], 3, games, clock)]
    *_, names = league_api()
    for bot in names:  # a bot the league did not play: timed in 3-player games against two randoms
        if bot in clock.decisions:
            continue
        start, seed = time.perf_counter(), 1
        while time.perf_counter() - start < LEAGUE_COST_S:
            play_seated(rules, (bot, "random", "random"), seed, clock)
            seed += 1
    return {"games_per_seating": games, "rows": rows, "cost": [clock.row(bot) for bot in names if bot in clock.decisions]}


def bench_simulate(games: int) -> dict:
    """`nidavellir simulate` with 1 worker (this process) and 2 processes: bench/simulate_scaling.py."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from simulate_scaling import speed
    finally:
        sys.path.pop(0)
    return speed(games, 3, (), [1, 2])


def python_json(code: str, args: list[str], env: dict) -> tuple[dict, float]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", code, *args], check=False, capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL, timeout=300)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise RuntimeError(f"benchmark subprocess failed ({proc.returncode}):\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1]), wall


def pick_variant() -> Path | None:
    folder = rules_folder() / "variants"
    preferred = folder / "first-game.yaml"
    if preferred.is_file():
        return preferred
    found = sorted(folder.glob("*.yaml"))
    return found[0] if found else None


def bench_cold(expansions: tuple[str, ...], runs: int, env: dict) -> dict:
    progress(f"cold compile {rules_name(expansions)} x{runs}")
    cold = [python_json(COLD_CODE, [BUILD_MODULE, json.dumps(list(expansions))], env) for _ in range(runs)]
    return {
        "runs": runs,
        "compile_s": statistics.median(r["compile_s"] for r, _ in cold),
        "compile_min_s": min(r["compile_s"] for r, _ in cold),
        "import_s": statistics.median(r["import_s"] for r, _ in cold),
        "subprocess_s": statistics.median(w for _, w in cold),
        "cards": cold[0][0]["cards"],
        "source_chars": cold[0][0]["source_chars"],
    }


def bench_cached(expansions: tuple[str, ...], variant: Path, runs: int, env: dict, cache: Path) -> dict:
    progress(f"cached load {rules_name(expansions)} x{runs}")
    cache_env = dict(env, NIDAVELLIR_CACHE=str(cache / "cached-bench"))
    args = [BUILD_MODULE, json.dumps(list(expansions)), str(variant)]
    first, _ = python_json(CACHED_CODE, args, cache_env)  # fills the cache
    cached = [python_json(CACHED_CODE, args, cache_env) for _ in range(runs)]
    return {
        "runs": runs,
        "variant": variant.name,
        "filling_run_compiled": first["compiled"],
        "filling_run_load_s": first["load_s"],
        "load_s": statistics.median(r["load_s"] for r, _ in cached),
        "load_min_s": min(r["load_s"] for r, _ in cached),
        "subprocess_s": statistics.median(w for _, w in cached),
        "all_from_cache": not any(r["compiled"] for r, _ in cached),
    }


def bench_compile(runs: int, env: dict, cache: Path) -> dict:
    """Cold and cached figures for every rules combination; the top-level "expansions",
    "cold" and "cached" keys are the fullest combination's, as before combinations existed."""
    variant = pick_variant()
    combinations = []
    for expansions in expansion_sets(available_expansions()):
        combinations.append({
            "expansions": list(expansions),
            "cold": bench_cold(expansions, runs, env),
            "cached": bench_cached(expansions, variant, runs, env, cache) if variant else None,
        })
    fullest = combinations[-1]
    out: dict = {"expansions": fullest["expansions"], "cold": fullest["cold"], "cached": fullest["cached"],
                 "combinations": combinations}

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
        proc = subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
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


# ---------------------------------------------------------------------------------- compare: code
class CompareError(Exception):
    """A --compare failure to report as a message, not a traceback."""


def git(repo: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(repo), *args], check=False, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as err:
        raise CompareError(f"cannot run git: {err}") from None


def repo_root() -> Path:
    proc = git(Path(__file__).resolve().parent, "rev-parse", "--show-toplevel")
    if proc.returncode != 0:
        raise CompareError("--compare needs bench/benchmark.py inside a git working tree")
    return Path(proc.stdout.decode().strip())


def resolve_revision(repo: Path, ref: str) -> str:
    """REF's commit hash, or a CompareError naming REF."""
    proc = git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}")
    if proc.returncode != 0:
        raise CompareError(f"--compare {ref}: not a revision in {repo} (try a commit hash, tag or branch)")
    return proc.stdout.decode().strip()


def export_revision(repo: Path, commit: str, dest: Path) -> None:
    """REF's tracked files into dest, through `git archive` (the working tree is not touched)."""
    proc = git(repo, "archive", "--format=tar", commit)
    if proc.returncode != 0:
        raise CompareError(f"git archive {commit[:12]} failed:\n{proc.stderr.decode(errors='replace')}")
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(proc.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:
            tar.extractall(dest)


def package_dirs(pyproject: Path) -> dict[str, str]:
    """nidavellir's [tool.setuptools.package-dir] mapping: package -> folder relative to the root."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef]
        except ImportError:
            raise CompareError("--compare reads pyproject.toml: it needs Python 3.11+ or tomli") from None
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise CompareError(f"cannot read {pyproject}: {err}") from None
    mapping = data.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    dirs = {k: v for k, v in mapping.items() if k == "nidavellir" or k.startswith("nidavellir.")}
    dirs.setdefault("nidavellir", str(Path(mapping.get("", ".")) / "nidavellir"))
    return dirs


def build_site(root: Path, site: Path) -> Path:
    """Copy root's package folders to site/nidavellir/... as setuptools maps them; return site.

    Parents are copied before their mapped subpackages, which replace any same-named folder."""
    dirs = package_dirs(root / "pyproject.toml")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in sorted(dirs, key=lambda p: p.count(".")):
        folder = root / dirs[package]
        if not folder.is_dir():
            raise CompareError(f"{root}: pyproject.toml maps {package} to {dirs[package]}/, which is missing")
        target = site.joinpath(*package.split("."))
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(folder, target, ignore=ignore)
    return site


def site_expansions(site: Path) -> set[str]:
    return {e for e in expansion_names() if (site / "nidavellir" / "rules" / e).is_dir()}


# ---------------------------------------------------------------------------------- compare: workers
class Worker:
    """One side's persistent subprocess: this file run with --worker SITE, spoken to in JSON lines."""

    def __init__(self, label: str, site: Path, tmp: Path):
        self.label = label
        tmp.mkdir(parents=True, exist_ok=True)
        self.stderr_path = tmp / "stderr.txt"
        env = dict(os.environ, NIDAVELLIR_CACHE=str(tmp / "cache"))
        # -I: no PYTHON* variables, no user site, no script folder; the worker puts site first
        # on sys.path itself, ahead of the editable install's finder (which comes last).
        cmd = [sys.executable, "-I", str(Path(__file__).resolve()), "--worker", str(site)]
        with open(self.stderr_path, "wb") as stderr:  # the child keeps its own copy of the file
            self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=stderr, env=env, text=True, bufsize=1)
        self.hello = self._read()

    def ask(self, **request: Any) -> dict:
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the worker died; _read reports its stderr
        return self._read()

    def _read(self) -> dict:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            code = self.proc.wait(timeout=30)
            raise CompareError(f"the {self.label} worker exited ({code}); its stderr:\n{self.stderr_text()}")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise CompareError(f"the {self.label} worker failed:\n{reply.get('error', '').rstrip()}")
        return reply

    def stderr_text(self) -> str:
        text = self.stderr_path.read_text(encoding="utf-8", errors="replace").rstrip()
        return text[-6000:] or "(empty)"

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.ask(op="quit")
            except CompareError:
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def foreign_modules(site: Path) -> list[str]:
    """nidavellir modules loaded from outside `site` (e.g. the editable install shadowing it)."""
    wrong = []
    for name, module in list(sys.modules.items()):
        if name != "nidavellir" and not name.startswith("nidavellir."):
            continue
        places = [getattr(module, "__file__", None), *(getattr(module, "__path__", None) or [])]
        wrong.extend(f"{name}: {p}" for p in places if p and not Path(p).resolve().is_relative_to(site))
    return wrong


def worker_request(request: dict, loaded: dict[tuple[str, ...], Any], site: Path) -> dict:
    expansions = tuple(request.get("expansions", ()))
    if request["op"] == "load":
        loaded[expansions] = public_load_rules()(expansions)
        wrong = foreign_modules(site)
        if wrong:
            raise RuntimeError("imported from outside the worker's site:\n" + "\n".join(wrong))
        return {"ok": True}
    if request["op"] == "play":
        seeds = range(request["first"], request["last"] + 1)
        seconds, decisions, fingerprints = play_random(loaded[expansions], request["players"], seeds)
        return {"ok": True, "seconds": seconds, "decisions": decisions, "games": fingerprints}
    if request["op"] in ("simulate", "search"):
        if request["op"] == "simulate":
            seeds = range(request["first"], request["last"] + 1)
            reply = play_simulated(loaded[expansions], request["players"], seeds, request["bare_first"])
        else:
            reply = play_search(loaded[expansions], request["players"], request["seed"], request["playouts"])
        wrong = foreign_modules(site)
        if wrong:
            raise RuntimeError("imported from outside the worker's site:\n" + "\n".join(wrong))
        return {"ok": True, **reply}
    raise ValueError(f"unknown request {request!r}")


def engine_kind() -> str:
    """Which engine this process runs (internal): the modules setup.py compiles with mypyc, or Python
    (a revision without runtime/native.py, a build without a C compiler, a source edited since)."""
    import nidavellir.runtime

    # (by the file: an import would fall through to the editable install's finder on such a revision)
    if not (Path(nidavellir.runtime.__file__).parent / "native.py").is_file():
        return "Python"
    from nidavellir.runtime import native
    return "compiled (mypyc)" if native.active() else "Python"


def worker_main(args: list[str]) -> int:
    """The --worker side: import nidavellir from SITE only, then answer requests until quit."""
    site = Path(args[0]).resolve()
    sys.path.insert(0, str(site))
    out, sys.stdout = sys.stdout, sys.stderr  # whatever the package prints stays off the protocol
    import nidavellir

    wrong = foreign_modules(site)
    if wrong:
        print("worker: nidavellir is not imported from its site " + str(site) + ":\n" + "\n".join(wrong),
              file=sys.stderr)
        return 3

    def send(reply: dict) -> None:
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()

    send({"ok": True, "nidavellir": nidavellir.__file__, "engine": engine_kind()})
    loaded: dict[tuple[str, ...], Any] = {}
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "quit":
            break
        try:
            send(worker_request(request, loaded, site))
        except Exception:  # noqa: BLE001 -- any failure goes back to the parent, with its traceback
            send({"ok": False, "error": traceback.format_exc()})
    return 0


# ---------------------------------------------------------------------------------- compare: run
def first_difference(ref: dict, this: dict) -> dict | None:
    """Where two fingerprints of one game part: decision number (from 1) and kind, or the totals."""
    a, b = ref["decisions"], this["decisions"]
    for i, (x, y) in enumerate(zip(a, b)):
        if list(x) != list(y):
            kind = x[1] if x[1] == y[1] else f"{x[1]} / {y[1]}"
            return {"decision": i + 1, "kind": kind, "ref": x, "this": y}
    if len(a) != len(b):
        i = min(len(a), len(b))
        longer = a if len(a) > len(b) else b
        return {"decision": i + 1, "kind": longer[i][1],
                "ref": a[i] if i < len(a) else "game over", "this": b[i] if i < len(b) else "game over"}
    if ref["totals"] != this["totals"]:
        return {"decision": None, "kind": "final totals", "ref": ref["totals"], "this": this["totals"]}
    return None


class Tally:
    """Summed times of one (rules, players) row, and the per-batch ratios for its spread."""

    def __init__(self) -> None:
        self.seconds = {"ref": 0.0, "this": 0.0}
        self.games = 0
        self.decisions = 0
        self.batch_ratios: list[float] = []

    def add(self, replies: dict[str, dict], games: int) -> None:
        for side in self.seconds:
            self.seconds[side] += replies[side]["seconds"]
        self.games += games
        self.decisions += replies["this"]["decisions"]
        self.batch_ratios.append(replies["ref"]["seconds"] / replies["this"]["seconds"])

    def row(self, expansions: tuple[str, ...], players: int) -> dict:
        ref_rate, this_rate = self.games / self.seconds["ref"], self.games / self.seconds["this"]
        return {"expansions": list(expansions), "players": players, "games": self.games,
                "ref_games_per_s": ref_rate, "this_games_per_s": this_rate, "ratio": this_rate / ref_rate,
                "batch_ratio_min": min(self.batch_ratios), "batch_ratio_max": max(self.batch_ratios),
                "batch_ratio_median": statistics.median(self.batch_ratios),
                "decisions_per_game": self.decisions / self.games}


def compare_sets(workers: dict[str, Worker], expansions: tuple[str, ...], games: int,
                 player_counts: tuple[int, ...], identical: dict) -> list[dict]:
    """Play one rules set on both sides, batch by batch, alternating which side goes first."""
    for w in workers.values():
        w.ask(op="load", expansions=list(expansions))
        w.ask(op="play", expansions=list(expansions), players=player_counts[0], first=1, last=1)  # warm-up
    tallies = {n: Tally() for n in player_counts}
    for round_no, first in enumerate(range(1, games + 1, BATCH)):
        last = min(first + BATCH - 1, games)
        progress(f"{rules_name(expansions)}: round {round_no + 1}, seeds {first}..{last}")
        for k, n in enumerate(player_counts):
            order = ("ref", "this") if (round_no + k) % 2 == 0 else ("this", "ref")
            replies = {side: workers[side].ask(op="play", expansions=list(expansions), players=n,
                                               first=first, last=last) for side in order}
            tallies[n].add(replies, last - first + 1)
            check_games(replies, expansions, n, identical)
    return [tallies[n].row(expansions, n) for n in player_counts]


def check_games(replies: dict[str, dict], expansions: tuple[str, ...], players: int, identical: dict) -> None:
    for ref, this in zip(replies["ref"]["games"], replies["this"]["games"]):
        identical["games"] += 1
        where = first_difference(ref, this)
        if where is None:
            identical["identical_games"] += 1
        elif identical["first_difference"] is None:
            identical["first_difference"] = {"rules": rules_name(expansions), "players": players,
                                             "seed": ref["seed"], **where}


class SideTally:
    """One figure's summed measures for each side, its per-batch values, and why a side has none."""

    def __init__(self) -> None:
        self.sums: dict[str, dict[str, float]] = {"ref": {}, "this": {}}
        self.batches: dict[str, list[float]] = {"ref": [], "this": []}
        self.paired: list[float] = []   # this ÷ REF of each request both sides answered
        self.na: dict[str, str] = {}

    def add(self, side: str, measures: dict[str, float], batch_value: float) -> None:
        for key, value in measures.items():
            self.sums[side][key] = self.sums[side].get(key, 0.0) + value
        self.batches[side].append(batch_value)

    def pair(self, values: dict[str, float]) -> None:
        if len(values) == 2:
            self.paired.append(values["this"] / values["ref"])

    def paired_spread(self) -> dict | None:
        if not self.paired:
            return None
        return {"median": statistics.median(self.paired), "min": min(self.paired), "max": max(self.paired)}

    def spread(self, side: str) -> list[float] | None:
        values = self.batches[side]
        return [min(values), statistics.median(values), max(values)] if values else None


def ask_sides(workers: dict[str, Worker], tally: SideTally, round_no: int, **request: Any) -> dict[str, dict]:
    """One request to each side that has the feature, in the round's order; a side's "na" is kept."""
    order = ("ref", "this") if round_no % 2 == 0 else ("this", "ref")
    replies = {}
    for side in order:
        if side in tally.na:
            continue
        reply = workers[side].ask(**request)
        if "na" in reply:
            tally.na[side] = reply["na"]
        else:
            replies[side] = reply
    return replies


def compare_simulate(workers: dict[str, Worker], games: int) -> dict:
    """Simulated against bare games (SIM_PLAYERS players, base game, random bots) on both sides,
    SIM_BATCH seeds a request, the sides and which of bare and simulated runs first alternating."""
    base: list[str] = []
    tally, records = SideTally(), {"games": 0, "identical_records": 0}
    for w in workers.values():
        w.ask(op="load", expansions=base)
    ask_sides(workers, tally, 0, op="simulate", expansions=base, players=SIM_PLAYERS, first=1, last=1,
              bare_first=True)  # warm-up (and whether each side has the feature)
    for round_no, first in enumerate(range(1, games + 1, SIM_BATCH)):
        last = min(first + SIM_BATCH - 1, games)
        progress(f"simulate vs bare: round {round_no + 1}, seeds {first}..{last}")
        replies = ask_sides(workers, tally, round_no, op="simulate", expansions=base, players=SIM_PLAYERS,
                            first=first, last=last, bare_first=round_no % 2 == 0)
        costs = {side: reply["sim_seconds"] / reply["bare_seconds"] for side, reply in replies.items()}
        for side, reply in replies.items():
            tally.add(side, {"bare_seconds": reply["bare_seconds"], "sim_seconds": reply["sim_seconds"],
                             "games": last - first + 1}, costs[side])
        tally.pair(costs)
        if len(replies) == 2:
            for a, b in zip(replies["ref"]["records"], replies["this"]["records"]):
                records["games"] += 1
                records["identical_records"] += a == b
    sides = {}
    for side, sums in tally.sums.items():
        if sums:
            n = sums["games"]
            sides[side] = {"games": int(n), "bare_ms_per_game": 1000 * sums["bare_seconds"] / n,
                           "sim_ms_per_game": 1000 * sums["sim_seconds"] / n,
                           "cost": sums["sim_seconds"] / sums["bare_seconds"], "batch_costs": tally.spread(side)}
    return {"players": SIM_PLAYERS, "expansions": base, "games": games, "batch": SIM_BATCH, "sides": sides,
            "na": tally.na, "paired": tally.paired_spread(), "records": records if records["games"] else None}


def compare_search(workers: dict[str, Worker], games: int, playouts: int) -> dict:
    """Search-bot games (seat 0 `playouts` per decision, the others random; SEARCH_PLAYERS players, base
    game) on both sides, a game a request, alternating which side goes first; playouts per second of
    the search bot's decisions, and whether both sides chose alike (the same strength)."""
    base: list[str] = []
    tally, same = SideTally(), {"games": 0, "identical_games": 0}
    for w in workers.values():
        w.ask(op="load", expansions=base)
    ask_sides(workers, tally, 0, op="search", expansions=base, players=SEARCH_PLAYERS, seed=0,
              playouts=1)  # warm-up (and whether each side has the feature)
    for seed in range(1, games + 1):
        progress(f"search:{playouts}: game {seed} of {games}")
        replies = ask_sides(workers, tally, seed - 1, op="search", expansions=base, players=SEARCH_PLAYERS,
                            seed=seed, playouts=playouts)
        rates = {side: reply["playouts"] / reply["seconds"] for side, reply in replies.items()}
        for side, reply in replies.items():
            tally.add(side, {"seconds": reply["seconds"], "playouts": reply["playouts"],
                             "decisions": reply["decisions"]}, rates[side])
        tally.pair(rates)
        if len(replies) == 2:
            same["games"] += 1
            same["identical_games"] += replies["ref"]["game"] == replies["this"]["game"]
    sides = {}
    for side, sums in tally.sums.items():
        if sums:
            sides[side] = {"playouts": int(sums["playouts"]), "seconds": sums["seconds"],
                           "decisions": int(sums["decisions"]), "playouts_per_s": sums["playouts"] / sums["seconds"],
                           "ms_per_decision": 1000 * sums["seconds"] / sums["decisions"],
                           "batch_rates": tally.spread(side)}
    return {"players": SEARCH_PLAYERS, "expansions": base, "games": games, "playouts_per_decision": playouts,
            "sides": sides, "na": tally.na, "paired": tally.paired_spread(),
            "choices": same if same["games"] else None}


def figure(name: str, values: dict[str, float | None], unit: str, better: str, goal: str,
           met: Callable[[float, float | None], bool | None], paired: dict | None,
           na: dict[str, str] | None = None) -> dict:
    """A row of the §4 table: REF's and this tree's value, this ÷ REF (of the sums, and the median and
    range of the requests' own ratios), and whether the goal is met (`met(this, ratio)`; None: not
    known, e.g. a goal on the ratio without REF's value)."""
    ref, this = values.get("ref"), values.get("this")
    ratio = this / ref if ref and this is not None else None
    return {"figure": name, "ref": ref, "this": this, "unit": unit, "ratio": ratio, "paired": paired,
            "better": better, "goal": goal, "pass": None if this is None else met(this, ratio), "na": na or {}}


def figures(rows: list[dict], full: tuple[str, ...], sim: dict | None, search: dict | None) -> list[dict]:
    """Issue 19 §4's figures from the compare's parts (those it ran)."""
    out = []
    for wanted, target in (((), GOAL_BASE_GAMES_PER_S), (full, GOAL_FULL_COMPARE_GAMES_PER_S)):
        if wanted == () or full:
            found = [r for r in rows if r["players"] == 3 and tuple(r["expansions"]) == wanted]
            if found:
                r = found[0]
                out.append(figure(f"3-player games/s, {rules_name(wanted)}, random bots (one core)",
                                  {"ref": r["ref_games_per_s"], "this": r["this_games_per_s"]}, "games/s",
                                  "higher", f">= {target:,.0f}", lambda v, _, t=target: v >= t,
                                  {"median": r["batch_ratio_median"], "min": r["batch_ratio_min"],
                                   "max": r["batch_ratio_max"]}))
    if sim:
        out.append(figure(f"simulated game ÷ bare game ({sim['players']} players, base, random bots)",
                          {side: v["cost"] for side, v in sim["sides"].items()}, "×", "lower",
                          f"<= {GOAL_SIM_COST:g} ×", lambda v, _: v <= GOAL_SIM_COST, sim["paired"], sim["na"]))
    if search:
        out.append(figure(f"search:{search['playouts_per_decision']} playouts/s ({search['players']} players, base)",
                          {side: v["playouts_per_s"] for side, v in search["sides"].items()}, "playouts/s",
                          "higher", f"ratio >= {GOAL_SEARCH_RATIO:g}",
                          lambda _, ratio: None if ratio is None else ratio >= GOAL_SEARCH_RATIO,
                          search["paired"], search["na"]))
    return out


def count_instructions(site: Path, tmp: Path, expansions: tuple[str, ...], players: int, games: int) -> int:
    """Instructions one game takes on average (seeds 1..games), counted by valgrind's callgrind: a
    run that plays the games minus a run that only loads the rules and plays one warm-up game."""
    if shutil.which("valgrind") is None:
        raise CompareError("--instructions needs valgrind (Debian package valgrind)")

    def run(n: int) -> int:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp / 'callgrind.out'}",
               sys.executable, "-I", str(Path(__file__).resolve()), "--count", str(site),
               json.dumps(list(expansions)), str(players), str(n)]
        env = dict(os.environ, NIDAVELLIR_CACHE=str(tmp / "cache"))
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                              timeout=3600)
        found = re.search(r"Collected : (\d+)", proc.stderr)
        if proc.returncode != 0 or found is None:
            raise CompareError(f"counting instructions failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        return int(found.group(1))

    return (run(games) - run(0)) // games


def count_main(args: list[str]) -> int:
    """The --count side: import from SITE, load the rules, play a warm-up game, then `games` games."""
    site, expansions, players, games = Path(args[0]).resolve(), tuple(json.loads(args[1])), int(args[2]), int(args[3])
    sys.path.insert(0, str(site))
    rules = public_load_rules()(expansions)
    play_random(rules, players, range(1))
    play_random(rules, players, range(1, games + 1))
    return 0


def run_compare(ref: str, games: int, player_counts: tuple[int, ...], instructions: int = 0,
                sim_games: int = DEFAULT_COMPARE_SIM_GAMES, search_games: int = DEFAULT_SEARCH_GAMES,
                search_playouts: int = DEFAULT_SEARCH_PLAYOUTS, skip: tuple[str, ...] = ()) -> dict:
    repo = repo_root()
    commit = resolve_revision(repo, ref)
    with tempfile.TemporaryDirectory(prefix="nidavellir-compare-") as tmpdir:
        tmp = Path(tmpdir)
        progress(f"exporting {ref} ({commit[:12]})")
        export_revision(repo, commit, tmp / "ref-tree")
        sites = {"ref": build_site(tmp / "ref-tree", tmp / "ref" / "site"),
                 "this": build_site(repo, tmp / "this" / "site")}
        common = site_expansions(sites["ref"]) & site_expansions(sites["this"])
        sets = expansion_sets(tuple(e for e in expansion_names() if e in common))
        identical = {"games": 0, "identical_games": 0, "first_difference": None}
        workers: dict[str, Worker] = {}
        try:
            for side, label in (("ref", f"REF {ref}"), ("this", "working-tree")):
                workers[side] = Worker(label, sites[side], tmp / side)
            engines = {side: w.hello.get("engine", "Python") for side, w in workers.items()}
            rows = [] if "games" in skip else [
                row for expansions in sets for row in compare_sets(workers, expansions, games, player_counts, identical)]
            sim = None if "simulate" in skip else compare_simulate(workers, sim_games)
            search = None if "search" in skip else compare_search(workers, search_games, search_playouts)
        finally:
            for w in workers.values():
                w.close()
        counted = None
        if instructions and rows:
            count_rows = []
            for expansions in sets:
                for n in player_counts:
                    progress(f"counting instructions: {rules_name(expansions)}, {n} players")
                    count_rows.append({"expansions": list(expansions), "players": n, **{
                        side: count_instructions(sites[side], tmp / side, expansions, n, instructions)
                        for side in ("ref", "this")}})
            counted = {"games": instructions, "rows": count_rows}
    identical["same"] = identical["games"] == identical["identical_games"]
    full = tuple(e for e in expansion_names() if e in common)
    return {"ref": ref, "ref_commit": commit, "this": git_commit(), "games": games, "batch": BATCH,
            "rounds": -(-games // BATCH), "rows": rows, "identical": identical, "instructions": counted,
            "simulate": sim, "search": search, "figures": figures(rows, full, sim, search), "engines": engines}


# ---------------------------------------------------------------------------------- report
def goals(result: dict) -> list[dict]:
    rows = []
    full = set(expansion_names())
    base = [r for r in result["games"] if r["players"] == 3 and not r["expansions"]]
    for label, wanted, target in (("3-player base games/s (one core)", set(), GOAL_BASE_GAMES_PER_S),
                                  ("3-player games/s, base + thingvellir", {"thingvellir"},
                                   GOAL_THINGVELLIR_GAMES_PER_S),
                                  ("3-player games/s, both expansions", full, GOAL_FULL_GAMES_PER_S)):
        if not wanted <= full:
            continue
        three = [r for r in result["games"] if r["players"] == 3 and set(r["expansions"]) == wanted]
        if three:
            v = three[0]["games_per_s"]
            shown = f"{v:.0f} games/s"
            if wanted and base:  # the ratio to base games of the same run: the machine's load cancels out
                shown += f" ({v / base[0]['games_per_s']:.2f} × base)"
            rows.append({"goal": label, "target": f">= {target:g}", "value": v,
                         "shown": shown, "pass": v >= target})
    comp = result.get("compile")
    if comp:
        worst = max(comp["combinations"], key=lambda c: c["cold"]["compile_s"])
        v = worst["cold"]["compile_s"]
        rows.append({"goal": "every combination compiles, cold (slowest)", "target": f"< {GOAL_COLD_S:g} s",
                     "value": v, "shown": f"{v * 1000:.0f} ms ({rules_name(worst['expansions'])})",
                     "pass": v < GOAL_COLD_S})
        cached = [c for c in comp["combinations"] if c["cached"]]
        if cached:
            worst = max(cached, key=lambda c: c["cached"]["load_s"])
            v = worst["cached"]["load_s"]
            rows.append({"goal": "every combination loads, cached (slowest)", "target": f"< {GOAL_CACHED_S:g} s",
                         "value": v, "shown": f"{v * 1000:.1f} ms ({rules_name(worst['expansions'])})",
                         "pass": v < GOAL_CACHED_S})
    league = result.get("league")
    if league:
        for row, target, what in ((league["rows"][0], GOAL_GREEDY_2P, "greedy's win rate vs random, 2 players"),
                                  (league["rows"][1], GOAL_GREEDY_3P, "greedy's win rate vs 2 randoms, 3 players")):
            v = row["greedy_win_rate"]
            rows.append({"goal": what, "target": f">= {100 * target:.0f}%", "value": v,
                         "shown": f"{100 * v:.1f}% (95%: {100 * row['low']:.1f}–{100 * row['high']:.1f}%, "
                                  f"{row['greedy_games']} games)", "pass": v >= target})
        greedy = next((c for c in league["cost"] if c["bot"] == "greedy"), None)
        if greedy:
            v = greedy["ms_per_decision"]
            rows.append({"goal": "greedy's cost per decision", "target": f"<= {GOAL_GREEDY_MS:g} ms", "value": v,
                         "shown": f"{v:.2f} ms", "pass": v <= GOAL_GREEDY_MS})
    sim = result.get("simulate")
    if sim:
        two = next((row for row in sim["rows"] if row["jobs"] == 2), None)
        if two is not None:
            v = two["speedup"]
            rows.append({"goal": "simulate, 2 workers over 1", "target": f">= {GOAL_SIM_SPEEDUP:g} ×", "value": v,
                         "shown": f"{v:.2f} × ({sim['rows'][0]['games_per_s']:.0f} → {two['games_per_s']:.0f} "
                                  f"games/s, {sim['cores']} cores)", "pass": v >= GOAL_SIM_SPEEDUP})
    start = result.get("startup")
    if start:
        v = start["as_is"]["help"]["median_s"]
        rows.append({"goal": "`nidavellir --help`, as run here", "target": f"< {GOAL_HELP_S:g} s",
                     "value": v, "shown": ms(v), "pass": v < GOAL_HELP_S})
    return rows


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"


def table(headers: list[str], rows: list[list[str]], left: tuple[int, ...] = (0,)) -> str:
    """Columns in `left` are text (left-aligned); the others are figures (right-aligned)."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i in left else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def print_machine(m: dict) -> None:
    usable = f" ({m['cpus_usable']} usable)" if m["cpus_usable"] not in (None, m["cpu_count"]) else ""
    print(f"machine: {m['cpu_count']} CPUs{usable}, {m['cpu_model']}")
    print(f"python:  {m['python_impl']} {m['python']} on {m['platform']}; "
          f"bytecode writing {'on' if m['writes_bytecode'] else 'off (PYTHONDONTWRITEBYTECODE)'}")
    if "engine" in m:
        print(f"engine:  {m['engine']}")


def print_games(games: list[dict]) -> None:
    print(f"\nRandom-bot games, single process, seeds 1..{games[0]['games']}")
    print(table(["rules", "players", "games/s", "ms/game", "decisions/game", "µs/decision"], [
        [rules_name(g["expansions"]), str(g["players"]), f"{g['games_per_s']:.0f}",
         f"{g['ms_per_game']:.2f}", f"{g['decisions_per_game']:.1f}", f"{g['us_per_decision']:.0f}"]
        for g in games]))


def print_compile(c: dict) -> None:
    first = c["combinations"][0]["cold"]
    print(f"\nRules compile and load, medians of {first['runs']} fresh subprocesses "
          f"(base: {first['cards']} cards)")
    rows = []
    for combo in c["combinations"]:
        name, cold, cached = rules_name(combo["expansions"]), combo["cold"], combo["cached"]
        rows.append([f"cold {name}: compile_specs (incl. grammar parse)", ms(cold["compile_s"]),
                     ms(cold["subprocess_s"]), f"importing the compiler: {ms(cold['import_s'])}"])
        if cached:
            note = "" if cached["all_from_cache"] and cached["filling_run_compiled"] else " NOT ALL FROM CACHE"
            rows.append([f"cached {name}: load_rules(+{cached['variant']})", ms(cached["load_s"]),
                         ms(cached["subprocess_s"]), f"filling run: {ms(cached['filling_run_load_s'])}{note}"])
    committed = c["committed"]
    rows.append(["committed module: load_rules()", ms(committed["load_s"]), ms(committed["subprocess_s"]),
                 committed["module"]])
    print(table(["measure", "timed call", "whole subprocess", "note"], rows, left=(0, 3)))


def print_startup(s: dict) -> None:
    as_is = "as run here" + ("" if s["as_is_writes_bytecode"] else " (no .pyc written)")
    print(f"\nCLI start-up, wall time, median of {s['as_is']['help']['runs']} runs ({' '.join(s['command'])})")
    print(table(["command", as_is, "min", "with warm .pyc cache", "min"], [
        [label, ms(s["as_is"][k]["median_s"]), ms(s["as_is"][k]["min_s"]),
         ms(s["warm_pyc"][k]["median_s"]), ms(s["warm_pyc"][k]["min_s"])]
        for k, label in (("help", "nidavellir --help"), ("play", "nidavellir play --players 3 --seed 1"))]))


def print_league(league: dict) -> None:
    n = league["games_per_seating"]
    print(f"\nLeague, base game, every seating, seeds 1..{n} each (a tie of k winners gives each 1/k; "
          "Wilson 95% interval)")
    print(table(["players", "bots", "games", "greedy games", "greedy win rate", "95% interval", "mean scores"], [
        [str(row["players"]), " vs ".join(row["bots"]) if row["players"] == 2 else "greedy vs 2 random",
         str(row["games"]), str(row["greedy_games"]), f"{100 * row['greedy_win_rate']:.1f}%",
         f"{100 * row['low']:.1f}–{100 * row['high']:.1f}%",
         ", ".join(f"{bot} {mean:.0f}" for bot, mean in row["mean_score"].items())]
        for row in league["rows"]], left=(1, 6)))
    print("\nCost per decision (each bot's `choose`, timed in the games above or, for a bot not in them, "
          "in 3-player games against two randoms)")
    print(table(["bot", "decisions", "ms/decision", "decisions/s"], [
        [c["bot"], str(c["decisions"]), f"{c['ms_per_decision']:.3f}", f"{c['decisions_per_s']:,.0f}"]
        for c in league["cost"]]))


def print_report(r: dict) -> None:
    m = r["machine"]
    print("nidavellir benchmark")
    print_machine(m)
    print(f"package: {m['nidavellir']}" + (f" (git {m['git_commit']})" if m["git_commit"] else ""))
    if r["games"]:
        print_games(r["games"])
    if r.get("compile"):
        print_compile(r["compile"])
    if r.get("startup"):
        print_startup(r["startup"])
    if r.get("league"):
        print_league(r["league"])
    if r.get("simulate"):
        sim = r["simulate"]
        print(f"\nsimulate (generous-offerings against base, {sim['players']} players, random bots, "
              f"{sim['games_per_rule_set']} games per rule set, records and start-up included):")
        print(table(["workers", "games/s", "× 1 worker"],
                    [[str(row["jobs"]), f"{row['games_per_s']:.0f}", f"{row['speedup']:.2f}"] for row in sim["rows"]]))
    print(f"\nGoal: {GOAL_TEXT}")
    for g in r["goals"]:
        print(f"  {'PASS' if g['pass'] else 'MISS'}  {g['goal']}: {g['shown']} (target {g['target']})")
    print("(information only)")


def describe_step(step: Any) -> str:
    """A fingerprint step as text: [seat, kind, chosen index, number of options], or what stood there."""
    if isinstance(step, list) and len(step) == 4:
        return f"seat {step[0]} took index {step[2]} of {step[3]} options"
    return str(step)


def identical_line(same: dict) -> str:
    if same["same"]:
        return f"identical games: yes ({same['games']} of {same['games']})"
    d = same["first_difference"]
    where = f"decision {d['decision']} ({d['kind']})" if d["decision"] else "the final totals"
    return (f"identical games: no ({same['identical_games']} of {same['games']}); first difference: "
            f"{d['rules']}, {d['players']} players, seed {d['seed']}, at {where}: "
            f"REF {describe_step(d['ref'])}; this {describe_step(d['this'])}")


def print_compare(r: dict) -> None:
    c = r["compare"]
    this = f"git {c['this']}" if c["this"] else "not in git"
    ref = c["ref"] if c["ref_commit"].startswith(c["ref"]) else f"{c['ref']} ({c['ref_commit'][:7]})"
    print("nidavellir benchmark --compare")
    print_machine(r["machine"])
    batch = min(c["batch"], c["games"])
    size = f"{batch} games" if c["games"] % batch == 0 else f"up to {batch} games"
    print(f"Compare: this (working tree, {this}) vs REF {ref}")
    engines = c.get("engines", {})
    print(f"Engine: this {engines.get('this', '?')}, REF {engines.get('ref', '?')} (runtime/native.py)")
    if c["rows"]:
        print(f"\nRandom-bot games, single process, interleaved, {c['rounds']} round{'s' if c['rounds'] != 1 else ''} "
              f"of {size}")
        print(table(["rules", "players", "REF games/s", "this games/s", "ratio", "median batch ratio",
                     "per-batch ratios"], [
            [rules_name(row["expansions"]), str(row["players"]), f"{row['ref_games_per_s']:.0f}",
             f"{row['this_games_per_s']:.0f}", f"{row['ratio']:.2f}", f"{row['batch_ratio_median']:.2f}",
             f"{row['batch_ratio_min']:.2f}–{row['batch_ratio_max']:.2f}"]
            for row in c["rows"]], left=(0, 1)))
        print(identical_line(c["identical"]))
        print("(ratio = this games/s ÷ REF games/s, above 1 is faster)")
    if c.get("simulate"):
        print_compare_simulate(c["simulate"])
    if c.get("search"):
        print_compare_search(c["search"])
    if c.get("figures"):
        print_figures(c["figures"])
    print("(information only)")
    counts = c.get("instructions")
    if counts:
        print(f"\nInstructions per game (valgrind callgrind, seeds 1..{counts['games']}; a count, so the "
              "machine's load does not change it)")
        print(table(["rules", "players", "REF instructions", "this instructions", "ratio"], [
            [rules_name(row["expansions"]), str(row["players"]), f"{row['ref']:,}", f"{row['this']:,}",
             f"{row['ref'] / row['this']:.2f}"] for row in counts["rows"]], left=(0, 1)))


def sides_table(part: dict, columns: list[tuple[str, Callable[[dict], str]]]) -> str:
    """A side per row (REF, this): its measures, or n/a and why."""
    rows = []
    for side, label in (("ref", "REF"), ("this", "this")):
        v = part["sides"].get(side)
        if v is None:
            why = part["na"].get(side, "not measured")
            rows.append([label, *(["n/a"] + [""] * (len(columns) - 1))] + [why])
        else:
            rows.append([label, *(show(v) for _, show in columns), ""])
    return table(["side", *(name for name, _ in columns), "note"], rows, left=(0, len(columns) + 1))


def spread_text(values: list[float] | None, fmt: str) -> str:
    return "" if not values else f"{values[0]:{fmt}}–{values[2]:{fmt}}"


def agreement(what: str, alike: int, of: int, unit: str = "") -> str:
    """`what: yes (N of N)`, or `no` with how many of the whole agreed."""
    return f"{what}: {'yes' if alike == of else 'no'} ({alike} of {of}{unit})"


def print_compare_simulate(sim: dict) -> None:
    print(f"\nSimulated vs bare games ({sim['players']} players, {rules_name(sim['expansions'])}, random bots; "
          f"seeds 1..{sim['games']}, {sim['batch']} a request, interleaved; simulated: sim/worker.py `play`, "
          "the game with its journal to its record)")
    print(sides_table(sim, [
        ("bare ms/game", lambda v: f"{v['bare_ms_per_game']:.2f}"),
        ("simulated ms/game", lambda v: f"{v['sim_ms_per_game']:.2f}"),
        ("simulated ÷ bare", lambda v: f"{v['cost']:.2f}"),
        ("per-batch", lambda v: spread_text(v["batch_costs"], ".2f"))]))
    if sim["records"]:
        print(agreement("identical records", sim["records"]["identical_records"], sim["records"]["games"]))


def print_compare_search(search: dict) -> None:
    print(f"\nSearch bot (seat 0, search:{search['playouts_per_decision']}, against random; {search['players']} "
          f"players, {rules_name(search['expansions'])}; seeds 1..{search['games']}, a game a request, interleaved; "
          "time of its decisions only)")
    print(sides_table(search, [
        ("playouts", lambda v: f"{v['playouts']:,}"),
        ("decisions", lambda v: str(v["decisions"])),
        ("ms/decision", lambda v: f"{v['ms_per_decision']:.1f}"),
        ("playouts/s", lambda v: f"{v['playouts_per_s']:.0f}"),
        ("per-game", lambda v: spread_text(v["batch_rates"], ".0f"))]))
    if search["choices"]:
        same = search["choices"]
        print(agreement("same choices (same strength)", same["identical_games"], same["games"], " games"))


def figure_value(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    return f"{value:.2f} ×" if unit == "×" else f"{value:,.0f}"


def print_figures(rows: list[dict]) -> None:
    print("\nIssue 19 §4: this tree against REF (ratio = this ÷ REF; the median and range of the ratios "
          "of single requests, less disturbed by a burst of load)")
    print(table(["figure", "REF", "this", "ratio", "median ratio", "range", "better", "goal", ""], [
        [f["figure"], figure_value(f["ref"], f["unit"]), figure_value(f["this"], f["unit"]),
         "n/a" if f["ratio"] is None else f"{f['ratio']:.2f}",
         "n/a" if f["paired"] is None else f"{f['paired']['median']:.2f}",
         "" if f["paired"] is None else f"{f['paired']['min']:.2f}–{f['paired']['max']:.2f}",
         f["better"], f["goal"], "n/a" if f["pass"] is None else "PASS" if f["pass"] else "MISS"]
        for f in rows], left=(0, 6, 7, 8)))
    for f in rows:
        for side, why in f["na"].items():
            print(f"  n/a: {'REF' if side == 'ref' else 'this'}, {f['figure']}: {why}")


# ---------------------------------------------------------------------------------- main
def player_list(text: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(p) for p in text.split(",") if p.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError(f"player counts must be at least 1: {text!r}")
    return counts


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=None, metavar="N",
                    help=f"games per player count and rule set (default {DEFAULT_GAMES}; "
                         f"{DEFAULT_COMPARE_GAMES} with --compare)")
    ap.add_argument("--runs", type=int, default=10, metavar="R",
                    help="runs per CLI start-up figure (default 10); compile figures use max(3, R // 2)")
    ap.add_argument("--players", type=player_list, default=PLAYER_COUNTS, metavar="2,3,4,5",
                    help="player counts to play (default 2,3,4,5)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--league-games", type=int, default=DEFAULT_LEAGUE_GAMES, metavar="L",
                    help=f"games per seating in the league (default {DEFAULT_LEAGUE_GAMES})")
    ap.add_argument("--skip", action="append", default=[],
                    choices=["games", "compile", "startup", "league", "simulate", "search"],
                    help="leave out a part (repeatable; --compare has games, simulate and search)")
    ap.add_argument("--sim-games", type=int, default=None, metavar="G",
                    help="games per rule set of the simulate section (default 1000); with --compare, seeds of "
                         f"the simulated-vs-bare figure (default {DEFAULT_COMPARE_SIM_GAMES})")
    ap.add_argument("--search-games", type=int, default=DEFAULT_SEARCH_GAMES, metavar="S",
                    help=f"with --compare, search-bot games per side (default {DEFAULT_SEARCH_GAMES})")
    ap.add_argument("--search-playouts", type=int, default=DEFAULT_SEARCH_PLAYOUTS, metavar="P",
                    help=f"with --compare, the search bot's playouts per decision (default {DEFAULT_SEARCH_PLAYOUTS})")
    ap.add_argument("--instructions", type=int, default=0, metavar="G",
                    help="with --compare, also count the instructions per game over G games with valgrind's "
                         "callgrind on each side (slow, but a count: the machine's load does not change it)")
    ap.add_argument("--compare", metavar="REF",
                    help="play the same games, simulated games and search games on git revision REF and on "
                         "the working tree, interleaved, and print each figure of both, the ratio, issue 19 §4's "
                         "goals, and whether the games were identical")
    args = ap.parse_args(argv)
    if args.games is None:
        args.games = DEFAULT_COMPARE_GAMES if args.compare else DEFAULT_GAMES
    if args.sim_games is None:
        args.sim_games = DEFAULT_COMPARE_SIM_GAMES if args.compare else 1000
    if min(args.games, args.runs, args.league_games, args.sim_games, args.search_games, args.search_playouts) < 1:
        ap.error("--games, --runs, --league-games, --sim-games, --search-games and --search-playouts "
                 "must be at least 1")
    return args


def main_compare(args: argparse.Namespace) -> int:
    try:
        result = {"machine": machine_info(),
                  "compare": run_compare(args.compare, args.games, args.players, args.instructions,
                                         args.sim_games, args.search_games, args.search_playouts,
                                         tuple(args.skip))}
    except CompareError as err:
        print(f"benchmark: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(result, separators=(",", ":")))
    else:
        print_compare(result)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        return worker_main(argv[1:])
    if argv[:1] == ["--count"]:
        return count_main(argv[1:])
    args = parse_args(argv)
    try:
        import nidavellir  # noqa: F401
    except ImportError:
        print("benchmark: cannot import nidavellir; install it first: python -m pip install -e \".[dev]\"",
              file=sys.stderr)
        return 2
    if args.compare:
        return main_compare(args)

    with tempfile.TemporaryDirectory(prefix="nidavellir-bench-") as tmpdir:
        tmp = Path(tmpdir)
        # Everything this process and its children compile is cached here, not in ~/.cache.
        os.environ["NIDAVELLIR_CACHE"] = str(tmp / "cache")
        env = dict(os.environ)

        result: dict = {"machine": machine_info(), "games": [], "goal_text": GOAL_TEXT}
        if "games" not in args.skip:
            result["games"] = bench_games(args.games, args.players)
        if "compile" not in args.skip:
            result["compile"] = bench_compile(max(3, args.runs // 2), env, tmp)
        if "startup" not in args.skip:
            result["startup"] = bench_startup(args.runs, env, tmp)
        if "league" not in args.skip:
            progress("league")
            result["league"] = bench_league(args.league_games)
        if "simulate" not in args.skip:
            progress("simulate: 1 worker, then 2")
            result["simulate"] = bench_simulate(args.sim_games)
        result["goals"] = goals(result)

    if args.json:
        print(json.dumps(result, separators=(",", ":")))
    else:
        print_report(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
