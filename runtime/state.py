"""Game state as plain data: zones hold card instance ids and coin ids. Everything a game changes as it
is played is here (the engine keeps only indexes derived from it); `copy` is written from the fields'
declared types (runtime/copier.py), so a new field is copied without a list to keep."""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from .copier import copier

if TYPE_CHECKING:
    from .scoring import Scores

BASIC, TREASURE, SPECIAL = "basic", "treasure", "special"


def by_fields(value: Any) -> tuple[Any, tuple[Any, ...]]:
    """`__reduce__` of a frozen dataclass: built again from its fields (a compiled frozen class cannot
    be copied or pickled by setting its fields one by one, as `dataclasses` does)."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value))


@dataclass(frozen=True, slots=True)
class Coin:
    value: int
    origin: str          # basic | treasure | special
    trading: bool = False
    special_id: str | None = None

    @property
    def transformable(self) -> bool:
        return not self.trading

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


@dataclass(frozen=True, slots=True)
class FlowPoint:
    """Where the flow can resume (runtime/flow.py `play`): the start of a turn or of an age's end; or,
    `asking`, a decision the flow itself asks in the turn (a bid, a pick), where the state says."""
    age_index: int
    turn: int          # turns already played in that age (asking: the current turn)
    age_end: bool = False
    asking: bool = False

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)


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
        """An independent copy."""
        return _copy_player(self)


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
    # -- the turn in progress
    tavern: int = 0                      # the tavern being resolved (its index)
    revealed: list[int] | None = None    # its bids as revealed, once the picks begin
    bids_revealed: int = 0               # this turn's taverns whose bids are face up (the first N)
    pouch_shown: set[int] = field(default_factory=set)     # players whose pouch a coin trade showed this turn
    top_used: set[str] = field(default_factory=set)        # the pick sources the top bidder used (this tavern)
    step: int = -1                       # the index of the turn's step running (-1: none)
    tavern_step: int = -1                # the index of the tavern resolution's step running (-1: none)
    asking: int = -1                     # while the flow itself asks: the bidder (a bid: the player; a
                                         # pick: their place in the bid order), else -1 (runtime/flow.py)
    # -- effects in progress and what they remember
    entering: int = 0                    # >0 while a card's entry runs: hero checks wait for its end
    returned: dict[int, int] = field(default_factory=dict)        # player -> the hero they last returned
    stepping_aside: dict[int, int] = field(default_factory=dict)  # a card lifted to step aside (covered) -> its owner
    aside_from: dict[int, str] = field(default_factory=dict)      # while journalling: a card stepping aside -> its column
    coins_left: dict[int, int] = field(default_factory=dict)      # coin -> how often it left a player (each_coin)
    clock: int = 0                       # ticks at each arrival and each event's start (see `listens`)
    arrived: dict[int, int] = field(default_factory=dict)         # owned card -> the tick it reached its owner
    # -- the game's chance and its end
    chance: int = 0                      # the root of the game's random streams (a sampled world: its own)
    scores: Scores | None = None         # the final scores, once the game is over (never changed after)

    def copy(self) -> State:
        """An independent copy (coins, flow points and scores are immutable and shared)."""
        return _copy_state(self)


_copy_player = copier(Player)
_copy_state = copier(State, {"Player": _copy_player})


def deck_key(zone: str, age: int) -> str:
    """The state's key of a zone's deck for one age."""
    return f"{zone}@{age}"
