#!/usr/bin/env python3
"""How strong and how fast the `search` bot is: seeded games of one bot against another.

    python bench/search_strength.py [--bot search] [--against greedy] [--games 100] [--players 2]
                                    [--expansions E,…] [--seed 1] [--workers 1] [--json]

Game i (seeds S, S+1, …) seats the bot in seat i mod players (the seats alternate) and the other
bot in every other seat; seat k of game `seed` is seeded bot_seed(seed, k), as `nidavellir play`
seeds its bots. A script, never a test: it prints figures and exits 0.

  share      the bot's share of the wins (a tie for the first place shares the win), with a 95 %
             Wilson interval over the games;
  margin     the bot's mean Final Bravery Value less the best other player's;
  decisions  the bot's decisions per second, timed in its `choose` alone, over every decision it
             was asked (the engine asks none with a single option), and the slowest one.
             --workers W plays the games in W processes: the times stay per process (one core
             each), the wall time shrinks.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import platform
import sys
import time
from typing import Any


def play(job: tuple[str, str, int, tuple[str, ...], int, int]) -> dict[str, Any]:
    """One game: the bot's seat, the totals, the bot's decision times."""
    from nidavellir.rulesets import load_rules
    from nidavellir.runtime.bots import make_bot
    from nidavellir.runtime.game import Game
    from nidavellir.runtime.observation import observe
    from nidavellir.runtime.streams import bot_seed

    bot_spec, other_spec, players, boxes, seed, seat = job
    rules = load_rules(boxes)
    bots = [make_bot(bot_spec if k == seat else other_spec, bot_seed(seed, k)) for k in range(players)]
    game = Game(rules, players, seed)
    times: list[float] = []
    while (d := game.pending) is not None:
        obs = observe(game)
        if d.player == seat:
            start = time.perf_counter()
            answer = bots[d.player].choose(obs)
            times.append(time.perf_counter() - start)
        else:
            answer = bots[d.player].choose(obs)
        game.answer(answer)
    totals = [pl["total"] for pl in game.scores()["players"]]
    return {"seed": seed, "seat": seat, "totals": totals, "times": times}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share of `wins` in `n` games."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bot", default="search", help="the bot measured (a spec: search, search:400, search:1s)")
    ap.add_argument("--against", default="greedy", help="the bot in the other seats (a spec)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--expansions", default="", help="comma-separated: thingvellir, idavoll")
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    ap.add_argument("--quiet", action="store_true", help="no line per game")
    args = ap.parse_args(argv)
    boxes = tuple(b for b in args.expansions.split(",") if b)
    jobs = [(args.bot, args.against, args.players, boxes, args.seed + i, i % args.players) for i in range(args.games)]
    start = time.perf_counter()
    if args.workers > 1:
        with multiprocessing.Pool(args.workers) as pool:
            results = _collect(pool.imap(play, jobs), args)
    else:
        results = _collect(map(play, jobs), args)
    wall = time.perf_counter() - start
    wins = sum(win_share(r) for r in results)
    margins = [r["totals"][r["seat"]] - max(t for q, t in enumerate(r["totals"]) if q != r["seat"]) for r in results]
    n = len(results)
    low, high = wilson(wins, n)
    times = [t for r in results for t in r["times"]]
    asked = len(times)
    spent = sum(times)
    report = {
        "bot": args.bot, "against": args.against, "players": args.players, "expansions": list(boxes),
        "games": n, "seeds": [args.seed, args.seed + n - 1], "wins": wins, "share": wins / n if n else 0.0,
        "interval95": [low, high], "mean_margin": sum(margins) / n if n else 0.0,
        "decisions": asked, "decisions_per_s": asked / spent if spent else math.inf,
        "slowest_decision_s": max(times, default=0.0), "wall_s": wall,
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(f"{args.bot} against {args.against}: {args.players} players, "
          f"{'+'.join(boxes) or 'base game'}, {n} games (seeds {args.seed}..{args.seed + n - 1}, seats alternating)")
    print(f"  share of wins  {wins / n:.1%}  (95 % interval {low:.1%} – {high:.1%}; {wins:g} of {n})")
    print(f"  mean margin    {report['mean_margin']:+.1f} Bravery Value points over the best other player")
    print(f"  decisions/s    {report['decisions_per_s']:.2f} over its {asked} decisions, on one core; "
          f"the slowest took {report['slowest_decision_s']:.2f} s")
    print(f"  wall           {wall:.0f} s with {args.workers} worker(s); {report['machine']}")
    return 0


def win_share(r: dict[str, Any]) -> float:
    """The bot's share of one game's win: 1, or 1/k in a tie of k for the first place, else 0."""
    totals = r["totals"]
    best = max(totals)
    return 1 / totals.count(best) if totals[r["seat"]] == best else 0.0


def _collect(stream: Any, args: argparse.Namespace) -> list[dict[str, Any]]:
    """The games' results as they come, each shown on stderr (unless --quiet or --json)."""
    results = []
    wins = 0.0
    for r in stream:
        results.append(r)
        wins += win_share(r)
        if not args.quiet and not args.json:
            print(f"  seed {r['seed']:4d}  seat {r['seat'] + 1}  totals {r['totals']}  "
                  f"share so far {wins / len(results):.3f}", file=sys.stderr, flush=True)
    return results


if __name__ == "__main__":
    sys.exit(main())
