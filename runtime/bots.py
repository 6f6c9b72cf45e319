"""Bots: `random` (seeded, uniform over the legal options) and `greedy` (one-ply heuristic)."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from nidavellir.interface.decisions import CardChoice, CoinChoice, Decision, Option

from .engine import Engine
from .scoring import player_score


class Bot(Protocol):
    def choose(self, engine: Engine, decision: Decision) -> Option: ...


class RandomBot:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, engine: Engine, decision: Decision) -> Option:
        return decision.options[self.rng.randrange(len(decision.options))]


class GreedyBot:
    """Takes the option that most raises its own score now; simple rules for bids and coins."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, e: Engine, d: Decision) -> Option:
        handler: Callable[[Engine, Decision], Option] | None = getattr(self, "_" + d.kind.replace("-", "_"), None)
        if handler is None:
            return d.options[0]
        return handler(e, d)

    def _value_of(self, e: Engine, p: int, cid: str) -> float:
        """Score gained by adding card `cid` to p's army now (royal offerings: their coin gain)."""
        d = e.rules.cards[cid]
        if d.enters == "discard":
            return 4.0 + self.rng.random()
        before = player_score(e, p)["total"]
        lines = e.lines(p)
        card = e.new_card(cid)
        dest = e.own_column(card)
        if dest is None:
            e.s.cards.pop()
            e.defs.pop()
            return 8.0 + d.points
        e.attach(p, card, dest)
        after = player_score(e, p)["total"]
        bonus = 10 if e.lines(p) > lines else 0
        e.detach(card)
        e.s.cards.pop()
        e.defs.pop()
        return after - before + bonus + self.rng.random() * 0.1

    def _card_value(self, e: Engine, p: int, option: Option) -> float:
        return self._value_of(e, p, option.card) if isinstance(option, CardChoice) else 0.0

    def _pick(self, e: Engine, d: Decision) -> Option:
        return max(d.options, key=lambda o: self._card_value(e, d.player, o))

    def _hero(self, e: Engine, d: Decision) -> Option:
        return max(d.options, key=lambda o: self._card_value(e, d.player, o))

    def _bid(self, e: Engine, d: Decision) -> Option:
        s = e.s
        worth = []
        for tavern in s.taverns:
            worth.append(max((self._value_of(e, d.player, s.cards[c]) for c in tavern), default=0))
        ranked = sorted(range(len(worth)), key=lambda t: -worth[t])
        values = sorted((s.coins[c].value for c in s.players[d.player].hand), reverse=True)
        want = [0] * len(worth)
        for t, v in zip(ranked, values):
            want[t] = v
        return min(d.options, key=lambda o: sum(abs(a - b) for a, b in zip(o, want)) if isinstance(o, tuple) else 0)

    def _coin(self, e: Engine, d: Decision) -> Option:
        return max(d.options, key=lambda o: o.value if isinstance(o, CoinChoice) else 0)

    def _place_bid(self, e: Engine, d: Decision) -> Option:
        return max(d.options, key=lambda o: o if isinstance(o, int) else 0)

    def _card(self, e: Engine, d: Decision) -> Option:
        if "discard" in d.prompt:
            return min(d.options, key=lambda o: e.rules.cards[o.card].rank_points if isinstance(o, CardChoice) else 0)
        return max(d.options, key=lambda o: self._card_value(e, d.player, o))

    def _column(self, e: Engine, d: Decision) -> Option:
        p = d.player
        lowest = min(e.ranks(p, c) for c in e.rules.classes)
        return max(d.options, key=lambda cls: (e.ranks(p, str(cls)) == lowest, self.rng.random()))


BOTS: dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot}
