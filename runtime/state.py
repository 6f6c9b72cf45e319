"""Game state as plain data: zones hold card instance ids and coin ids."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

BASIC, TREASURE, SPECIAL = "basic", "treasure", "special"


@dataclass(frozen=True, slots=True)
class Coin:
    value: int
    origin: str          # basic | treasure | special
    trading: bool = False
    special_id: str | None = None

    @property
    def transformable(self) -> bool:
        return not self.trading


@dataclass
class Player:
    name: str
    gem: int
    covered_gems: list[int] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)                  # coins not on the board
    slots: list[int | None] = field(default_factory=list)          # one bid coin per tavern
    pouch: list[int] = field(default_factory=list)
    army: dict[str, list[int]] = field(default_factory=dict)       # class -> cards, bottom to top
    command: list[int] = field(default_factory=list)               # command zone
    heroes_counted: int = 0                                        # recruitments that count against lines

    def coin_ids(self) -> list[int]:
        return self.hand + [c for c in self.slots if c is not None] + self.pouch

    def copy(self) -> Player:
        return Player(self.name, self.gem, list(self.covered_gems), list(self.hand), list(self.slots),
                      list(self.pouch), {cls: list(col) for cls, col in self.army.items()}, list(self.command),
                      self.heroes_counted)


@dataclass
class State:
    cards: list[str] = field(default_factory=list)                 # instance id -> card def id
    coins: list[Coin] = field(default_factory=list)                # coin id -> coin
    decks: dict[int, list[int]] = field(default_factory=dict)      # age -> cards, top is last
    taverns: list[list[int]] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    heroes: list[int] = field(default_factory=list)                # heroes still available
    distinctions: list[int] = field(default_factory=list)
    supply: list[int] = field(default_factory=list)                # cards effects hand out by id
    box: list[int] = field(default_factory=list)                   # cards out of the game
    resolving: list[int] = field(default_factory=list)             # cards taken or drawn, not yet placed
    zones: dict[str, list[int]] = field(default_factory=dict)      # the rules' zones; a zone's deck of age A is `zone@A`
    marks: dict[int, dict[str, Any]] = field(default_factory=dict)  # card -> tokens, notch, class, used, captured
    treasure: dict[int, list[int]] = field(default_factory=dict)   # value -> coin ids
    coin_box: list[int] = field(default_factory=list)
    special_coins: dict[str, int] = field(default_factory=dict)    # special coin id -> coin id, while unclaimed
    special_gems: list[int] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    age: int = 0
    turn: int = 0
    finished: bool = False
    at_once: list[str] = field(default_factory=list)               # kinds placed in the army at once (an age end's placing)
    reserved: dict[int, int] = field(default_factory=dict)         # tavern card -> the player who reserved it (this turn)
    reshuffles: dict[str, int] = field(default_factory=dict)       # deck -> times shuffled in play (runtime/streams.py)
    put_back: dict[int, dict[str, int]] = field(default_factory=dict)  # age -> effect -> cards it put under that deck

    def copy(self) -> State:
        """An independent copy (coins are immutable and shared)."""
        return State(
            list(self.cards), list(self.coins), {a: list(d) for a, d in self.decks.items()},
            [list(t) for t in self.taverns], list(self.discard), list(self.heroes), list(self.distinctions),
            list(self.supply), list(self.box), list(self.resolving), {z: list(c) for z, c in self.zones.items()},
            {c: {k: list(v) if isinstance(v, list) else v for k, v in m.items()} for c, m in self.marks.items()},
            {v: list(cs) for v, cs in self.treasure.items()}, list(self.coin_box), dict(self.special_coins),
            list(self.special_gems), [p.copy() for p in self.players], self.age, self.turn, self.finished,
            list(self.at_once), dict(self.reserved), dict(self.reshuffles),
            {age: dict(counts) for age, counts in self.put_back.items()})


def deck_key(zone: str, age: int) -> str:
    """The state's key of a zone's deck for one age."""
    return f"{zone}@{age}"
