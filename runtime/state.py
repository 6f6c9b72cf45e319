"""Game state as plain data: zones hold card instance ids and coin ids."""
from __future__ import annotations

from dataclasses import dataclass, field

BASIC, TREASURE, SPECIAL = "basic", "treasure", "special"


@dataclass(slots=True)
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
    camp: list[int] = field(default_factory=list)                  # cards any bidder may take instead
    marks: dict[int, dict] = field(default_factory=dict)           # card -> tokens, notch, class, used, captured
    treasure: dict[int, list[int]] = field(default_factory=dict)   # value -> coin ids
    coin_box: list[int] = field(default_factory=list)
    special_coins: dict[str, int] = field(default_factory=dict)    # special coin id -> coin id, while unclaimed
    special_gems: list[int] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    age: int = 0
    turn: int = 0
    finished: bool = False
