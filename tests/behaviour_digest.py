"""Digests of what the engine does, to hold a redesign to "behaviour unchanged".

Issue 19: "Every seeded game, log replay and rendered reference of every box combination is
identical to those of the revision this issue starts from (a test compares digests over ≥ 1,000
games)." The digests of that revision are in tests/data/behaviour_digests.json;
tests/test_behaviour_digest.py computes them again and compares.

    python tests/behaviour_digest.py           # compare, and print what differs
    python tests/behaviour_digest.py --write   # record this revision's digests (a behaviour change
                                               # meant and said so in its commit, only)

What is digested:
- games: every box combination × 2–5 players × seeds 1–GAMES_PER_GROUP, a random bot in every seat
  (as `play` seats them, `bot_seed`), and a few games of the greedy and search bots and of each
  shipped variant: each game's decision log and its result as `play --json` writes it (scores,
  winners, the final position); for the first JOURNALED seeds of a group also the journal told in
  words (what `replay --verbose` and the terminal seat say);
- the command line: `play --log` of three games per box combination, its stdout, the log (but for
  its header's `rules`, a content hash that covers the compiler's own code), and
  `replay LOG --verbose --json` of that log (stdout and stderr);
- the rendered reference, md and html with the card sheets, in English and Belarusian, of every box
  combination and of each shipped variant on the base game.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "behaviour_digests.json"
BOXES: tuple[tuple[str, ...], ...] = ((), ("thingvellir",), ("idavoll",), ("thingvellir", "idavoll"))
PLAYERS = (2, 3, 4, 5)
GAMES_PER_GROUP = 63          # 4 box combinations × 4 player counts × 63 = 1,008 random games
JOURNALED = 4                 # seeds of each group whose journal is told in words too
BOT_GAMES = (("greedy", 2), ("search:20", 1))   # (bot, games) per box combination, 3 players
VARIANT_GAMES = 5             # seeds per shipped variant, base game, 3 players
REPLAY_GAMES = 3
LANGS = ("en", "be")


def _sha(data: bytes | str) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()[:16]


def _boxes_name(boxes: tuple[str, ...]) -> str:
    return "+".join(boxes) or "base"


def _shipped_variants() -> list[str]:
    from nidavellir.compiler.build import rules_dir

    return sorted(p.stem for p in (rules_dir() / "variants").glob("*.yaml"))


# -- games ----------------------------------------------------------------------------------------

def game_digest(rules: Any, players: int, seed: int, bot: str, told: bool) -> str:
    """One seeded game's digest: its log and result (and, `told`, its journal in words)."""
    from nidavellir.runtime.bots import make_bot
    from nidavellir.runtime.game import Game
    from nidavellir.runtime.observation import observe
    from nidavellir.runtime.streams import bot_seed

    from nidavellir.narrate import Narrator
    from nidavellir.session import result_of

    game = Game(rules, players, seed, journal=told)
    seats = [make_bot(bot, bot_seed(seed, i)) for i in range(players)]
    while game.pending is not None:
        game.answer(seats[game.pending.player].choose(observe(game)))
    whole: dict[str, Any] = {"log": game.log, "result": result_of(game, seed, [bot] * players)}
    if told:
        names = [f"P{i + 1}" for i in range(players)]
        whole["told"] = Narrator(rules, names).lines(game.engine.journal or [])
    return _sha(json.dumps(whole, sort_keys=True, default=str))


def game_groups() -> Iterator[tuple[str, Callable[[], list[str]]]]:
    """(group name, its games' digests) for every group of games."""
    from nidavellir.rulesets import load_rules

    for boxes in BOXES:
        for players in PLAYERS:
            def group(boxes: tuple[str, ...] = boxes, players: int = players) -> list[str]:
                rules = load_rules(boxes)
                return [game_digest(rules, players, seed, "random", seed <= JOURNALED)
                        for seed in range(1, GAMES_PER_GROUP + 1)]
            yield f"games/{_boxes_name(boxes)}/{players}p/random", group
        for bot, count in BOT_GAMES:
            def bots(boxes: tuple[str, ...] = boxes, bot: str = bot, count: int = count) -> list[str]:
                rules = load_rules(boxes)
                return [game_digest(rules, 3, seed, bot, True) for seed in range(1, count + 1)]
            yield f"games/{_boxes_name(boxes)}/3p/{bot}", bots
    for variant in _shipped_variants():
        def variant_games(variant: str = variant) -> list[str]:
            rules = load_rules((), (variant,))
            return [game_digest(rules, 3, seed, "random", True) for seed in range(1, VARIANT_GAMES + 1)]
        yield f"games/base+{variant}/3p/random", variant_games


# -- the command line -----------------------------------------------------------------------------

def _cli(*args: str) -> tuple[str, str]:
    env = {**os.environ, "COLUMNS": "80", "LC_ALL": "C.UTF-8", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "nidavellir", *args], capture_output=True, text=True,
                          env=env, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"nidavellir {' '.join(args)} failed ({done.returncode}): {done.stderr[-2000:]}")
    return done.stdout, done.stderr


def _without_rules_hash(log: str) -> str:
    """A log's lines with its header's `rules` left out: the content hash of the rules and of the
    compiler's own source, which any change of the compiler's code changes (provenance, not play)."""
    lines = []
    for line in log.splitlines():
        entry = json.loads(line)
        if isinstance(entry, dict) and "nidavellir_log" in entry:
            entry.pop("rules", None)
        lines.append(json.dumps(entry, sort_keys=True))
    return "\n".join(lines)


def replay_groups() -> Iterator[tuple[str, Callable[[], list[str]]]]:
    for boxes in BOXES:
        def replays(boxes: tuple[str, ...] = boxes) -> list[str]:
            box_args = ["--expansions", ",".join(boxes)] if boxes else []
            with tempfile.TemporaryDirectory() as tmp:
                log = Path(tmp) / "games.jsonl"
                played, _ = _cli("play", "--players", "3", "--seed", "7", "--games", str(REPLAY_GAMES),
                                 "--log", str(log), *box_args)
                logged = _without_rules_hash(log.read_text(encoding="utf-8"))
                replayed, told = _cli("replay", str(log), "--verbose", "--json")
            return [_sha(played), _sha(logged), _sha(replayed), _sha(told)]
        yield f"cli/{_boxes_name(boxes)}/play-log-replay", replays


# -- the rendered reference -----------------------------------------------------------------------

def docs_groups() -> Iterator[tuple[str, Callable[[], list[str]]]]:
    sets: list[tuple[tuple[str, ...], tuple[str, ...]]] = [(boxes, ()) for boxes in BOXES]
    sets += [((), (variant,)) for variant in _shipped_variants()]
    for boxes, variants in sets:
        def rendered(boxes: tuple[str, ...] = boxes, variants: tuple[str, ...] = variants) -> list[str]:
            from nidavellir.compiler.docs.render import (
                compile_rules,
                load_catalog,
                write,
            )

            compiled = compile_rules(boxes, variants)
            out = []
            with tempfile.TemporaryDirectory() as tmp:
                for lang in LANGS:
                    for fmt in ("md", "html"):
                        folder = Path(tmp) / lang / fmt
                        for path in sorted(write(compiled, load_catalog(lang), fmt, folder)):
                            out.append(f"{lang}/{path.name}:{_sha(path.read_bytes())}")
            return out
        name = _boxes_name(boxes) + "".join(f"+{v}" for v in variants)
        yield f"docs/{name}", rendered


def groups() -> Iterator[tuple[str, Callable[[], list[str]]]]:
    yield from game_groups()
    yield from replay_groups()
    yield from docs_groups()


def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--write", action="store_true", help="record this revision's digests in " + str(DATA))
    args = ap.parse_args(argv)
    now = {name: make() for name, make in groups()}
    if args.write:
        revision = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                  cwd=DATA.parent, check=False).stdout.strip()
        DATA.parent.mkdir(parents=True, exist_ok=True)
        DATA.write_text(json.dumps({"revision": revision, "groups": now}, indent=1, sort_keys=True) + "\n",
                        encoding="utf-8")
        print(f"wrote {DATA}: {len(now)} groups, {sum(len(v) for v in now.values())} digests (revision {revision})")
        return 0
    old = recorded()["groups"]
    differ = [name for name in sorted(set(old) | set(now)) if old.get(name) != now.get(name)]
    for name in differ:
        print(f"differs: {name}")
    print(f"{len(now) - len(differ)} of {len(now)} groups as recorded")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
