"""Bots: `random` (seeded, uniform over the legal options) and `greedy` (one-ply heuristic)."""
from __future__ import annotations

import random
from typing import Any, Protocol

from .decisions import Decision
from .engine import Engine
from .scoring import player_score


class Bot(Protocol):
    def choose(self, engine: Engine, decision: Decision) -> Any: ...


class RandomBot:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, engine: Engine, decision: Decision) -> Any:
        return decision.options[self.rng.randrange(len(decision.options))]


class GreedyBot:
    """Takes the option that most raises its own score now; simple rules for bids and coins."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def choose(self, e: Engine, d: Decision) -> Any:
        handler = getattr(self, "_" + d.kind.replace("-", "_"), None)
        if handler is None:
            return d.options[0]
        return handler(e, d)

    def _value_of(self, e: Engine, p: int, cid: str) -> float:
        """Score gained by adding card `cid` to p's army now (royal offerings: their coin gain)."""
        d = e.rules.cards[cid]
        if d.enters[0] == "discard":
            return 4.0 + self.rng.random()
        dest = e.own_column(cid)
        if dest is None:
            return 8.0 + d.points
        before = player_score(e, p)["total"]
        lines = e.lines(p)
        card = e.new_card(cid)
        column = e.s.players[p].army.setdefault(dest, [])
        column.append(card)
        e.where[card] = (p, dest)
        after = player_score(e, p)["total"]
        bonus = 10 if e.lines(p) > lines else 0
        column.pop()
        del e.where[card]
        e.s.cards.pop()
        e.defs.pop()
        return after - before + bonus + self.rng.random() * 0.1

    def _pick(self, e: Engine, d: Decision) -> Any:
        return max(d.options, key=lambda cid: self._value_of(e, d.player, cid))

    def _hero(self, e: Engine, d: Decision) -> Any:
        return max(d.options, key=lambda cid: self._value_of(e, d.player, cid))

    def _bid(self, e: Engine, d: Decision) -> Any:
        s = e.s
        worth = []
        for tavern in s.taverns:
            worth.append(max((self._value_of(e, d.player, s.cards[c]) for c in tavern), default=0))
        ranked = sorted(range(len(worth)), key=lambda t: -worth[t])
        values = sorted((s.coins[c].value for c in s.players[d.player].hand), reverse=True)
        want = [0] * len(worth)
        for t, v in zip(ranked, values):
            want[t] = v
        return min(d.options, key=lambda o: sum(abs(a - b) for a, b in zip(o, want)))

    def _coin(self, e: Engine, d: Decision) -> Any:
        return max(d.options, key=lambda label: int(str(label).split("@")[0]))

    def _place_bid(self, e: Engine, d: Decision) -> Any:
        return max(d.options)

    def _card(self, e: Engine, d: Decision) -> Any:
        if "discard" in d.prompt:
            return min(d.options, key=lambda o: e.rules.cards[o.split("@")[0]].rank_points)
        return max(d.options, key=lambda o: self._value_of(e, d.player, o.split("@")[0]))

    def _column(self, e: Engine, d: Decision) -> Any:
        p = d.player
        lowest = min(e.ranks(p, c) for c in e.rules.classes)
        return max(d.options, key=lambda cls: (e.ranks(p, cls) == lowest, self.rng.random()))


BOTS = {"random": RandomBot, "greedy": GreedyBot}
