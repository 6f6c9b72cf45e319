"""The compiled rule set as a typed model: what a generated module builds and the runtime reads.

Everything here is frozen: a rule set is shared by every game played with it. Card behaviour is
held as the compiled handler functions themselves, one table per card (`CardDef`).
"""
from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .decisions import Decision
    from .engine import EngineAPI, Event

Trigger = Callable[["EngineAPI", int, int, "Event"], "Generator[Decision, Any, None]"]
Replacement = Callable[["EngineAPI", int, int, "Event"], "Generator[Decision, Any, bool]"]
CardValue = Callable[["EngineAPI", int, int], int]        # (engine, owner, card) -> a number
CardCondition = Callable[["EngineAPI", int, int], bool]
ClassScore = Callable[["EngineAPI", int, str], int]       # (engine, player, column) -> points

EMPTY: Mapping[Any, Any] = MappingProxyType({})


def _empty() -> Mapping[Any, Any]:
    return EMPTY


# Generated modules mark where each handler and action comes from with a string statement
# '@ file:line:col' (a handler's docstring adds its DSL text on a second line); a failure in a
# handler is located by the nearest marker above the failing line.
SOURCE_MARKER = "@ "

# Where a card goes when it is taken or recruited (`CardDef.enters`).
ENTERS_OWN, ENTERS_COMMAND, ENTERS_CHOSEN, ENTERS_COLUMN, ENTERS_DISCARD = \
    "own", "command", "chosen", "column", "discard"


@dataclass(frozen=True, slots=True)
class Modifier:
    """`modify PARAM OP AMOUNT` while the owner holds the card."""
    param: str
    op: str  # + - =
    amount: CardValue


@dataclass(frozen=True, slots=True)
class CardDef:
    id: str
    name: str
    kind: str
    cls: str                                   # a class id, or `neutral`
    ranks: tuple[int, ...] = ()                # the points of each rank it brings to a column
    points: int = 0                            # what it scores from the command zone
    copies: int = 1
    enters: str = ENTERS_OWN                   # own | command | chosen | column | discard
    enters_column: str | None = None           # with enters == column
    enters_among: tuple[str, ...] = ()         # with enters == chosen: the columns offered (all if empty)
    track: tuple[int, ...] = ()                # strength track: the value of each notch
    params: Mapping[str, int] = field(default_factory=_empty)
    when: Mapping[str, tuple[Trigger, ...]] = field(default_factory=_empty)           # events of this card
    whenever: Mapping[str, tuple[Trigger, ...]] = field(default_factory=_empty)       # events of any card of its owner
    instead: Mapping[str, tuple[Replacement, ...]] = field(default_factory=_empty)
    instead_any: Mapping[str, tuple[Replacement, ...]] = field(default_factory=_empty)
    score: CardValue | None = None
    score_once: bool = False                   # one score for all the owner's copies together
    requires: tuple[CardCondition, ...] = ()
    mods: tuple[Modifier, ...] = ()
    source: str = ""                           # file:line:col of its definition
    layers: tuple[str, ...] = ()               # the layers that defined or changed it
    nranks: int = field(init=False, default=0)
    rank_points: int = field(init=False, default=0)
    zero_ranks: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "nranks", len(self.ranks))
        object.__setattr__(self, "rank_points", sum(self.ranks))
        object.__setattr__(self, "zero_ranks", self.ranks.count(0))


@dataclass(frozen=True, slots=True)
class ClassDef:
    id: str
    name: str
    formula: str            # the DSL text of its scoring formula
    score: ClassScore
    source: str = ""


@dataclass(frozen=True, slots=True)
class Tavern:
    id: str
    name: str


@dataclass(frozen=True, slots=True)
class BasicCoin:
    value: int
    trading: bool = False


@dataclass(frozen=True, slots=True)
class SpecialCoin:
    id: str
    value: int
    trading: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class SpecialGem:
    value: int
    points: int = 0
    tradable: bool = True


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the flow: a runtime step (`do`) or a timing window (`window`)."""
    id: str
    do: str | None = None
    window: str | None = None
    ages: tuple[int, ...] | None = None        # None: every age
    source: str = ""


@dataclass(frozen=True, slots=True)
class DeckEntry:
    card: str
    count: int
    min_players: int = 0


@dataclass(frozen=True, slots=True)
class Layer:
    id: str
    name: str
    description: str = ""
    source: str = ""
    variant: bool = False


@dataclass(frozen=True, slots=True)
class Interpretation:
    id: str
    text: str
    source: str
    layer: str


@dataclass(frozen=True)
class RuleSet:
    content_hash: str
    layers: tuple[Layer, ...]
    players: tuple[int, int]                             # min, max
    cards_per_tavern: Mapping[int, int]                  # players -> cards
    taverns: tuple[Tavern, ...]
    ages: tuple[int, ...]
    classes: tuple[ClassDef, ...]
    basic_coins: tuple[BasicCoin, ...]
    special_coins: tuple[SpecialCoin, ...]
    treasure: Mapping[int, int]                          # value -> coins
    treasure_removed: Mapping[int, Mapping[int, int]]    # players -> value -> coins left in the box
    gems: Mapping[int, tuple[int, ...]]                  # players -> gems dealt
    special_gems: tuple[SpecialGem, ...]
    params: Mapping[str, int]
    events: Mapping[str, str]                            # event -> what happens (rules data's words)
    turn: tuple[Step, ...]
    age_end: tuple[Step, ...]
    before_scoring: tuple[str, ...]                      # windows applied when a position is scored
    cards: Mapping[str, CardDef]
    decks: Mapping[int, tuple[DeckEntry, ...]]           # age -> entries
    interpretations: tuple[Interpretation, ...] = ()
    warnings: tuple[str, ...] = ()                       # formatted compiler warnings
    flow_source: str = ""                                # file:line:col of the flow's turn
    kinds: Mapping[str, str] = field(default_factory=_empty)                     # kind -> where its cards enter
