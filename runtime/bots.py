"""Bots: `random` (seeded, uniform over the legal options) and `greedy` (heuristics from the rules,
runtime/greedy.py); `make_bot` makes one from its spec, `NAME` or `NAME:BUDGET`.

A bot sees an Observation (runtime/observation.py): what its player may know, and nothing else.
Bots are seeded and deterministic: the same seed and the same observations give the same answers."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from nidavellir.errors import NidavellirError, suggest, visible
from nidavellir.interface.decisions import CoinChoice, Decision, Option, find_option

from .greedy import (
    Valuer,
    available_hero,
    choose_bid,
    choose_by_value,
    choose_pick,
    choose_place_bid,
)
from .observation import NoWorld, Observation
from .search import SearchBot


class Bot(Protocol):
    def choose(self, obs: Observation) -> Option: ...


class RandomBot:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Option:
        options = obs.decision.options
        return options[self.rng.randrange(len(options))]


class GreedyBot:
    """Heuristics from the rules (runtime/greedy.py), measured on one world drawn from what the
    player may know: the card whose taking most raises the worth of its position, the bid of the
    highest expected worth (cards in reach, coin trades), any other answer by playing it out."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self._distinctions: tuple[tuple[int, int, int], dict[int, float]] | None = None  # (age, turn, player)

    def choose(self, obs: Observation) -> Option:
        d = obs.decision
        try:
            world = obs.sample(self.rng)  # its own evaluations run on a world it may know
        except NoWorld:
            return _fallback(d)
        wd = world.pending
        assert wd is not None
        s = world.engine.s
        key = (s.age, s.turn, d.player)
        cached = self._distinctions[1] if self._distinctions is not None and self._distinctions[0] == key else None
        val = Valuer(world, d.player, cached)
        if wd.kind == "bid":
            option = choose_bid(val, wd.options)
        elif wd.kind == "pick":
            option = choose_pick(val, wd.options)
        elif wd.kind == "place-bid":
            option = choose_place_bid(val, wd.options)
        elif wd.kind == "hero":
            option = choose_by_value(wd.options, lambda o: val.hero_value(available_hero(world.engine, o)))
        elif wd.kind == "trade-coin":
            option = next((o for o in wd.options if isinstance(o, CoinChoice) and o.at != "pouch"), wd.options[0])
        else:
            option = choose_by_value(wd.options, val.answer_value)
        self._distinctions = (key, val.distinction_values())
        index = find_option(d.options, option)
        return d.options[index if index is not None else 0]


def _fallback(d: Decision) -> Option:
    """An answer without a world (none reached this decision): keep powers for later, else the first."""
    if d.kind == "use" and False in d.options:
        return False
    return d.options[0]


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
"""Every bot by name: a factory from a seed (a bot that takes a budget: at its default budget)."""
BUDGETED: dict[str, Callable[[int, str], Bot]] = {"search": SearchBot.from_budget}  # search:200, search:2s
"""The bots that take a budget (`NAME:BUDGET`): a factory from a seed and the budget's text, which
raises ValueError for a budget it does not take."""


class BotSpecError(NidavellirError, ValueError):
    """A bot spec that names no bot, or gives a budget that bot does not take."""


def parse_spec(spec: str) -> tuple[str, str | None]:
    """`NAME` or `NAME:BUDGET` -> (name, budget text or None), checked against BOTS and BUDGETED."""
    name, colon, budget = spec.strip().partition(":")
    name = name.strip()
    if name not in BOTS:
        hint = suggest(name, BOTS)
        raise BotSpecError(f"unknown bot `{visible(name)}` (choose from: {', '.join(BOTS)})"
                           + (f"; {hint}" if hint else ""))
    if not colon:
        return name, None
    if name not in BUDGETED:
        raise BotSpecError(f"the bot `{name}` takes no budget: `{visible(spec.strip())}`"
                           + (f" (bots with a budget: {', '.join(BUDGETED)})" if BUDGETED else ""))
    text = budget.strip()
    try:
        BUDGETED[name](0, text)  # (a bot is cheap to make: the budget is checked by the bot's own rule)
    except ValueError as err:
        raise BotSpecError(f"the budget of `{name}`: {visible(str(err))}") from None
    return name, text


def spec_text(spec: str) -> str:
    """A spec as written back (`search:200`, `greedy`): checked, without spaces."""
    name, budget = parse_spec(spec)
    return name if budget is None else f"{name}:{budget}"


def make_bot(spec: str, seed: int) -> Bot:
    """The bot a spec names (`greedy`, `search:200`), seeded."""
    name, budget = parse_spec(spec)
    if budget is None:
        return BOTS[name](seed)
    return BUDGETED[name](seed, budget)
