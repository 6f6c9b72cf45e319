"""Playing and replaying games: bots, the terminal seat and the decision log."""
from __future__ import annotations

import json
import sys
from typing import Iterable, TextIO

from nidavellir.runtime.bots import BOTS
from nidavellir.runtime.decisions import IllegalAnswer
from nidavellir.runtime.game import Game
from nidavellir.runtime.position import position_of
from nidavellir.runtime.rules import Rules
from nidavellir.rulesets import load_rules

LOG_VERSION = 1


class Session:
    """The rules a run plays with, and how they were chosen (for logs and results)."""

    def __init__(self, rules: Rules, expansions: tuple[str, ...], variants: tuple[str, ...]):
        self.rules, self.expansions, self.variants = rules, expansions, variants

    def describe(self) -> str:
        text = " + ".join(["base", *self.expansions])
        if self.variants:
            text += "; variants: " + ", ".join(self.rules.variant_ids)
        return text


def play_game(session: Session, players: int, seed: int, bots: list[str], human: int | None,
              log: TextIO | None) -> dict:
    names = [f"P{i + 1}" for i in range(players)]
    if human is not None:
        names[human - 1] = "You"
    game = Game(session.rules, names, seed)
    seats = [BOTS[bots[i % len(bots)]](seed * 1000 + i) for i in range(players)]
    if human is not None:
        from .terminal import TerminalSeat
        seats[human - 1] = TerminalSeat(sys.stdin, sys.stdout)
    if log:
        log.write(json.dumps({"nidavellir_log": LOG_VERSION, "seed": seed, "players": names,
                              "expansions": list(session.expansions), "variants": list(session.variants),
                              "rules": session.rules.content_hash,
                              "seats": [("human" if human == i + 1 else bots[i % len(bots)]) for i in range(players)]})
                  + "\n")
    while game.pending is not None:
        d = game.pending
        game.answer(seats[d.player].choose(game.engine, d))
        if log:
            entry = game.log[-1]
            log.write(json.dumps({"p": entry["player"], "kind": entry["kind"], "answer": entry["answer"],
                                  "age": entry["age"], "turn": entry["turn"]}, separators=(",", ":")) + "\n")
    return result_of(game, seed)


def result_of(game: Game, seed: int) -> dict:
    scores = game.scores()
    final = position_of(game.engine)
    return {"seed": seed, "players": scores["players"], "winners": scores["winners"], "final": final}


def replay_games(path: str, lines: Iterable[str]) -> Iterable[dict]:
    from .commands import CommandError

    game: Game | None = None
    seed = 0
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as err:
            raise CommandError(f"{path}:{number}: not a JSON line: {err.msg}") from None
        if "nidavellir_log" in entry:
            if game is not None:
                yield _finish(path, number, game, seed)
            rules = load_rules(tuple(entry.get("expansions", [])), tuple(entry.get("variants", [])))
            if rules.content_hash != entry.get("rules"):
                print(f"{path}:{number}: note: the rules changed since this log was written; "
                      "the replay may differ", file=sys.stderr)
            seed = int(entry["seed"])
            game = Game(rules, list(entry["players"]), seed)
            continue
        if game is None:
            raise CommandError(f"{path}:{number}: a log starts with a header line")
        if game.pending is None:
            raise CommandError(f"{path}:{number}: the game is already over")
        try:
            game.answer(entry["answer"])
        except IllegalAnswer as err:
            raise CommandError(f"{path}:{number}: {err}") from None
        except KeyError:
            raise CommandError(f"{path}:{number}: a decision line needs `answer`") from None
    if game is None:
        raise CommandError(f"{path}: empty log")
    yield _finish(path, "end", game, seed)


def _finish(path: str, where, game: Game, seed: int) -> dict:
    from .commands import CommandError
    if game.pending is not None:
        raise CommandError(f"{path}:{where}: the log ends before the game does")
    return result_of(game, seed)
