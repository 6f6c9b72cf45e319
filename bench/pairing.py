"""bench/pairing.py: how well `nidavellir simulate` pairs its games when a variant changes one deck.

    python bench/pairing.py                                   # 3 players, Thingvellir, 2,000 games
    python bench/pairing.py --players 4 --expansions thingvellir,idavoll --games 4000 --json
    python bench/pairing.py --json > after.json && python bench/pairing.py --before before.json

The variant adds one dwarf to the Age 1 deck (one more copy of its first entry without a
player-count mark: a Blacksmith in the shipped rules). Two things are measured:

- **Deals.** For --deals seeds, the setup of the base rules and of the variant (the engine's
  `setup()`, before any card is drawn): the share of seeds whose gems, and whose each deck other
  than the Age 1 deck (the Age 2 deck, each age's Camp deck, the mythology deck …), hold the same
  cards in the same order under both rule sets.
- **Paired standard errors.** `nidavellir simulate` (random bots, records as JSON lines) of the
  variant against the base rules; from the records, per game index the difference between the two
  rule sets' mean score (over the seats) and each seat's share of the win; the standard error of
  the mean difference, sd(d) / √n, beside the unpaired one, √(var(a)/n + var(b)/n), that
  independent games would give.

With --before FILE (the --json output of a run of another revision), the ratios of this run's
paired standard errors to that run's are printed (SE_now / SE_before: below 1 the pairing got
better). A script, not a test: run it by hand; it uses only the command line and the engine's
setup, so it runs on old revisions too.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def variant_text(expansions: tuple[str, ...]) -> tuple[str, str]:
    """The variant adding one dwarf to the Age 1 deck, and the card it adds."""
    from nidavellir.rulesets import load_rules

    rules = load_rules(expansions, ())
    entry = next(e for e in rules.decks[1] if e.min_players == 0 and rules.cards[e.card].kind == "dwarf")
    text = ("layer:\n  id: one-more-dwarf\n  name: One more dwarf\n"
            f"  description: The Age 1 deck holds one more {entry.card}.\n"
            f"decks:\n  - age: 1\n    cards:\n      - {{card: \"{entry.card}\", count: {entry.count + 1}}}\n")
    return text, entry.card


def deals(expansions: tuple[str, ...], variant: str, players: int, seeds: Sequence[int]) -> dict[str, Any]:
    """Per deck (and the gems): the share of seeds dealt identically under both rule sets."""
    from nidavellir.rulesets import load_rules
    from nidavellir.runtime.engine import Engine

    base, changed = load_rules(expansions, ()), load_rules(expansions, (variant,))
    same: dict[str, int] = {}
    names = [f"P{i + 1}" for i in range(players)]
    for seed in seeds:
        dealt = []
        for rules in (base, changed):
            e = Engine(rules, names, seed)
            e.setup()
            s = e.s
            piles = {f"age {age} deck": [s.cards[c] for c in deck] for age, deck in s.decks.items()}
            piles.update({f"{key} deck": [s.cards[c] for c in pile] for key, pile in s.zones.items() if pile})
            piles["gems"] = [p.gem for p in s.players]
            dealt.append(piles)
        for key in dealt[0]:
            if key != "age 1 deck":
                same[key] = same.get(key, 0) + (dealt[0][key] == dealt[1].get(key))
    return {key: count / len(seeds) for key, count in sorted(same.items())}


def simulate(expansions: tuple[str, ...], variant: str, players: int, games: int, seed: int, jobs: int,
             out: Path) -> list[dict[str, Any]]:
    """The simulation's records (as `nidavellir simulate --format jsonl` writes them)."""
    command = [sys.executable, "-m", "nidavellir", "simulate", "--players", str(players), "--variant", variant,
               "--games", str(games), "--seed", str(seed), "--jobs", str(jobs), "--format", "jsonl",
               "--out", str(out), "--json"]
    if expansions:
        command += ["--expansions", ",".join(expansions)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with (out / "games.jsonl").open(encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def standard_errors(records: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """Paired and unpaired standard errors of the mean score's and each seat's win share's
    difference (rule set 0 minus rule set 1)."""
    by_game: dict[int, dict[int, dict[str, Any]]] = {}
    for r in records:
        by_game.setdefault(r["game"], {})[r["set"]] = r
    pairs = [(g[0], g[1]) for _, g in sorted(by_game.items()) if 0 in g and 1 in g]
    figures: dict[str, tuple[list[float], list[float]]] = {
        "mean_score": ([sum(a["totals"]) / players for a, _ in pairs], [sum(b["totals"]) / players for _, b in pairs])}
    for k in range(players):
        figures[f"seat {k + 1} win rate"] = ([a["shares"][k] for a, _ in pairs], [b["shares"][k] for _, b in pairs])
    out: dict[str, Any] = {"pairs": len(pairs)}
    for name, (xs, ys) in figures.items():
        d = [x - y for x, y in zip(xs, ys)]
        paired = math.sqrt(_var(d) / len(d))
        unpaired = math.sqrt(_var(xs) / len(xs) + _var(ys) / len(ys))
        identical = sum(1 for v in d if v == 0) / len(d)
        out[name] = {"difference": sum(d) / len(d), "se_paired": paired, "se_unpaired": unpaired,
                     "ratio_to_unpaired": paired / unpaired if unpaired else None, "no_difference": identical}
    return out


def _var(xs: Sequence[float]) -> float:
    m = sum(xs) / len(xs)
    return sum((x - m) ** 2 for x in xs) / (len(xs) - 1)


def revision() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=Path(__file__).parent, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--expansions", default="thingvellir", help="comma-separated (default thingvellir; '' for none)")
    ap.add_argument("--games", type=int, default=2000, help="games per rule set (default 2000)")
    ap.add_argument("--deals", type=int, default=200, help="seeds whose deals are compared (default 200)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1, help="simulate's worker processes (default 1)")
    ap.add_argument("--before", metavar="FILE", help="the --json output of another revision: print the ratios")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    expansions = tuple(e for e in args.expansions.split(",") if e)
    with tempfile.TemporaryDirectory(prefix="pairing-") as tmp:
        text, card = variant_text(expansions)
        variant = Path(tmp, "one-more-dwarf.yaml")
        variant.write_text(text, encoding="utf-8")
        os.environ.setdefault("NIDAVELLIR_CACHE", str(Path(tmp, "cache")))
        dealt = deals(expansions, str(variant), args.players, range(args.seed, args.seed + args.deals))
        records = simulate(expansions, str(variant), args.players, args.games, args.seed, args.jobs,
                           Path(tmp, "sim"))
    result = {"revision": revision(), "players": args.players, "expansions": list(expansions),
              "added": card, "deals": args.deals, "same_deal": dealt, "games": args.games,
              "errors": standard_errors(records, args.players)}
    if args.before:
        before = json.loads(Path(args.before).read_text(encoding="utf-8"))
        result["before"] = before.get("revision")
        result["ratios"] = {name: fig["se_paired"] / before["errors"][name]["se_paired"]
                            for name, fig in result["errors"].items()
                            if isinstance(fig, dict) and name in before["errors"]}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"revision {result['revision']}: {args.players} players, base + {'+'.join(expansions) or 'nothing'}; "
          f"the variant adds one {card} to the Age 1 deck")
    print(f"deals identical over {args.deals} seeds: " + ", ".join(f"{k} {v:.0%}" for k, v in dealt.items()))
    errors = result["errors"]
    print(f"{errors['pairs']} paired games (random bots):")
    for name, fig in errors.items():
        if isinstance(fig, dict):
            line = (f"  {name:18} difference {fig['difference']:+.4f}  SE paired {fig['se_paired']:.4f}  "
                    f"unpaired {fig['se_unpaired']:.4f}  paired/unpaired {fig['ratio_to_unpaired']:.3f}  "
                    f"equal games {fig['no_difference']:.0%}")
            if "ratios" in result:
                line += f"  SE now/before {result['ratios'][name]:.3f}"
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
