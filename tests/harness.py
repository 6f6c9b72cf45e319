"""Scenario helpers: build a board by hand and run engine steps with scripted answers (strict:
an unscripted decision fails the test, as XMage's strict mode does)."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from nidavellir.interface.decisions import CardChoice, CoinChoice, Option, find_option
from nidavellir.rulesets import load_rules
from nidavellir.runtime.decisions import Decision
from nidavellir.runtime.engine import Engine
from nidavellir.runtime.rules import Rules
from nidavellir.runtime.state import BASIC, TREASURE, Coin

BASE = load_rules()
THINGVELLIR = load_rules(("thingvellir",))


class Unscripted(AssertionError):
    pass


def new_engine(players: int = 3, seed: int = 0, rules: Rules | None = None, age: int = 1) -> Engine:
    """A set-up game (decks shuffled, coins dealt) at the start of `age`, before any turn."""
    e = Engine(rules or BASE, [f"P{i + 1}" for i in range(players)], seed)
    e.setup()
    e.s.age = age
    return e


def pull(e: Engine, cid: str) -> int:
    """An instance of card `cid` taken from wherever it waits (decks, taverns, heroes, supply)."""
    s = e.s
    for zone in list(s.decks.values()) + s.taverns + [s.heroes, s.distinctions, s.supply, s.discard] \
            + list(s.zones.values()):
        for c in zone:
            if s.cards[c] == cid:
                zone.remove(c)
                return c
    raise AssertionError(f"no {cid} left to pull")


def give(e: Engine, p: int, *cids: str, column: str | None = "own") -> list[int]:
    """Put cards straight into p's army (own class column, or `column`; None: command zone)."""
    out = []
    for cid in cids:
        card = pull(e, cid)
        e.attach(p, card, e.own_column(card) if column == "own" else column)
        out.append(card)
    return out


def set_coins(e: Engine, p: int, hand: list[int] | None = None, slots: list[int | None] | None = None,
              pouch: list[int] | None = None) -> None:
    """Replace p's coins: basic values come from p's basic set, others from the Royal Treasure."""
    s = e.s
    pl = s.players[p]
    for c in pl.coin_ids():
        coin = s.coins[c]
        (s.treasure.setdefault(coin.value, []).append(c) if coin.origin == TREASURE else s.coin_box.append(c))
    pl.hand, pl.pouch = [], []
    pl.slots = [None] * len(s.taverns)

    def coin(value: int) -> int:
        for c in list(s.coin_box):
            if s.coins[c].origin == BASIC and s.coins[c].value == value:
                s.coin_box.remove(c)
                return c
        if s.treasure.get(value):
            return s.treasure[value].pop()
        return e.new_coin(Coin(value, BASIC, trading=value == 0))

    pl.hand = [coin(v) for v in hand or []]
    pl.pouch = [coin(v) for v in pouch or []]
    pl.slots = [None if v is None else coin(v) for v in (slots or [None] * len(s.taverns))]


def values(e: Engine, coins: list[int | None]) -> list[int | None]:
    return [None if c is None else e.s.coins[c].value for c in coins]


def option(decision: Decision, answer: Any) -> Option | None:
    """The option a scripted answer names: the option itself or its JSON form, or a shorthand —
    "yes"/"no" for a power, a list for a bid, "5@hand" for a coin, "warrior:3@miner" or a bare
    card id ("skaa") for a card (which must then be unique among the options)."""
    index = find_option(decision.options, answer)
    if index is not None:
        return decision.options[index]
    if answer in ("yes", "no") and True in decision.options:
        return answer == "yes"
    if isinstance(answer, list):
        return option(decision, tuple(answer))
    if isinstance(answer, str):
        head, at, where = answer.partition("@")
        for o in decision.options:
            if isinstance(o, CoinChoice) and at and head.isdigit() and (o.value, o.at) == (int(head), where):
                return o
            if isinstance(o, CardChoice) and o.card == head and (not at or o.at == where):
                if not at and sum(isinstance(x, CardChoice) and x.card == head for x in decision.options) > 1:
                    return None
                return o
    return None


def shown(decision: Decision) -> list[Any]:
    """The options in the scripts' shorthand (see `option`): coins and cards as "x@where"."""
    out: list[Any] = []
    for o in decision.options:
        if isinstance(o, CoinChoice):
            out.append(f"{o.value}@{o.at}")
        elif isinstance(o, CardChoice):
            out.append(f"{o.card}@{o.at}")
        else:
            out.append(o)
    return out


def ids(decision: Decision) -> list[str]:
    """The card ids a decision offers."""
    return [o.card for o in decision.options if isinstance(o, CardChoice)]


def run(gen: Generator[Decision, Any, Any], *answers: Any) -> Any:
    """Drive an engine generator, answering each decision in turn; returns its result.

    Each answer must be a legal option. Left-over answers or an unscripted decision fail."""
    script = list(answers)
    asked: list[Decision] = []
    try:
        decision = next(gen)
        while True:
            asked.append(decision)
            if not script:
                raise Unscripted(f"unscripted decision: {decision.kind} for P{decision.player + 1}: "
                                 f"{decision.prompt}; options {shown(decision)}")
            script_answer = script.pop(0)
            answer = option(decision, script_answer)
            if answer is None:
                raise Unscripted(f"{script_answer!r} is not an option of {decision.kind}: {shown(decision)}")
            decision = gen.send(answer)
    except StopIteration as stop:
        if script:
            raise Unscripted(f"answers left over: {script}") from None
        return stop.value


def decisions(gen: Generator[Decision, Any, Any]) -> Decision:
    """The first decision a generator asks (without answering it)."""
    return next(gen)


def run_log(gen: Generator[Decision, Any, Any], *answers: Any) -> list[Decision]:
    """As `run` (strict), but returns the decisions that were asked, in order."""
    asked: list[Decision] = []

    def recording() -> Generator[Decision, Any, Any]:
        answer = None
        try:
            decision = gen.send(None)
            while True:
                asked.append(decision)
                answer = yield decision
                decision = gen.send(answer)
        except StopIteration as stop:
            return stop.value

    run(recording(), *answers)
    return asked


def fill_tavern(e: Engine, t: int, *cids: str) -> list[int]:
    """Put the given cards (pulled from wherever they wait) into tavern t, replacing its content."""
    s = e.s
    s.discard.extend(s.taverns[t])
    s.taverns[t] = [pull(e, cid) for cid in cids]
    return list(s.taverns[t])
