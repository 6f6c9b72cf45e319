"""Class formulas evaluated on example columns, for the reference's worked table and examples.

The compiled class-score functions are called with a stand-in for the engine that answers
only what the example states; a formula that asks anything else gets no table row or example.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from nidavellir.interface.rules import CardDef


TABLE_RANKS = range(1, 11)  # the worked table: columns of n ranks without points

ScoreFn = Callable[[Any, int, str], int]  # an emitted class formula: (engine, player, column)


class NotStated(Exception):
    """The formula reads something the example column does not state."""


@dataclass
class ColumnProbe:
    """The engine as a class formula sees it, for one column of class `cls` (player 0).
    Its methods are those the emitted formulas call (`g.ranks(p, col)`, ...)."""
    cls: str
    n_ranks: int
    n_points: int | None               # None: the example says nothing about points
    n_zero_ranks: int
    params: dict[str, int]
    coin: int | None = None            # the player's highest coin; None: not stated
    majority: bool = False             # the player has strictly the most ranks of `cls`
    facts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (catalog key, values) used

    def _own(self, col: str) -> None:
        if col != self.cls:
            raise NotStated(col)

    def _fact(self, key: str, **values: Any) -> None:
        if (key, values) not in self.facts:
            self.facts.append((key, values))

    def ranks(self, p: int, col: str) -> int:
        self._own(col)
        return self.n_ranks

    def points(self, p: int, col: str) -> int:
        self._own(col)
        if self.n_points is None:
            raise NotStated("points")
        return self.n_points

    def zero_ranks(self, p: int, col: str) -> int:
        self._own(col)
        return self.n_zero_ranks

    def highest_coin(self, p: int) -> int:
        if self.coin is None:
            raise NotStated("highest_coin")
        self._fact("ref.scoring.fact.highest_coin", value=self.coin)
        return self.coin

    def most_ranks(self, p: int, cls: str) -> bool:
        if not self.majority or cls != self.cls:
            raise NotStated("most_ranks")
        self._fact("ref.scoring.fact.most_ranks", cls=cls)
        return True

    strict_most_ranks = most_ranks

    def param(self, p: int, name: str) -> int:
        if name not in self.params:
            raise NotStated(name)
        return self.params[name]

    def __getattr__(self, name: str) -> Any:  # any other engine query
        raise NotStated(name)


def class_scores(source: str) -> dict[str, ScoreFn]:
    """The class formulas of a compiled module, by running its source (the compiler's own output)."""
    namespace: dict[str, Any] = {}
    exec(compile(source, "<compiled rules>", "exec"), namespace)  # noqa: S102 - generated, safe by construction
    return {c.id: c.score for c in namespace["RULES"].classes}


def evaluate(fn: ScoreFn, probe: ColumnProbe) -> int | None:
    """The formula's value for the probe's column, or None if it reads anything not stated."""
    try:
        return int(fn(probe, 0, probe.cls))
    except NotStated:
        return None


def pointless_values(fn: ScoreFn, cls: str, params: dict[str, int]) -> list[int] | None:
    """The formula for n = 1..10 ranks without points, if the number of ranks alone decides it."""
    values = []
    for n in TABLE_RANKS:
        value = evaluate(fn, ColumnProbe(cls, n, None, n, params))
        if value is None:
            return None
        values.append(value)
    return values


@dataclass
class Example:
    cards: list[str]   # card ids of the example column, bottom to top
    ranks: int
    points: int
    value: int
    facts: list[tuple[str, dict[str, Any]]]


def example(fn: ScoreFn, cls: str, cards: list[CardDef], params: dict[str, int], coin: int) -> Example | None:
    """The formula on a column of these cards, for a player with highest coin `coin` who has the
    majority of ranks (stated only if the formula asks)."""
    ranks = [r for c in cards for r in c.ranks]
    if not ranks:
        return None
    probe = ColumnProbe(cls, len(ranks), sum(ranks), ranks.count(0), params, coin, majority=True)
    value = evaluate(fn, probe)
    if value is None:
        return None
    return Example([c.id for c in cards], len(ranks), sum(ranks), value, probe.facts)
