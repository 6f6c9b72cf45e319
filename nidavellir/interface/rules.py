"""The compiled rule set as a typed model: what a generated module builds and the runtime reads.

Everything here is frozen: a rule set is shared by every game played with it. Card behaviour is
held as the compiled handler functions themselves, one table per card (`CardDef`).
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple

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


# What a `Placing` places besides a card id: the effect's own card, or the card of the event.
PLACED_SELF, PLACED_SUBJECT = "@self", "@subject"


@dataclass(frozen=True, slots=True)
class Placing:
    """A card an effect puts in an army column or the command zone (`place CARD in PLACE`): `card`
    is an id, PLACED_SELF or PLACED_SUBJECT (any card); `mode` and its operands as `CardDef.enters`
    has them (own | command | chosen | column; `among`: the columns a choice offers, all if empty)."""
    card: str
    mode: str
    column: str | None = None
    among: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Capture:
    """What a `capture` effect may take: a card of `kind` and of printed class `cls` (None: any), as
    its condition requires; `once`: once per game (the card's one power)."""
    kind: str | None = None
    cls: str | None = None
    once: bool = False


@dataclass(frozen=True, slots=True)
class CardText:
    """A card as the rule reference shows it in English (compiler/docs `card_views`): its class or
    classes, its ranks and points, and its rule text sentence by sentence (what a seat shows)."""
    class_label: str = ""
    ranks_label: str = ""
    text: tuple[str, ...] = ()


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
    column_ranks: Mapping[str, tuple[int, ...]] = field(default_factory=_empty)  # column -> its ranks there
    placings: tuple[Placing, ...] = ()         # the cards its effects put in an army or a command zone
    captures: tuple[Capture, ...] = ()         # what its effects may capture
    marks: tuple[str, ...] = ()                # the marks its effects set on it: class, tokens, face_down, used
    spends: tuple[str, ...] = ()               # the state keys that each spend its one once-per-game power
    params: Mapping[str, int] = field(default_factory=_empty)
    when: Mapping[str, tuple[Trigger, ...]] = field(default_factory=_empty)           # events of this card
    whenever: Mapping[str, tuple[Trigger, ...]] = field(default_factory=_empty)       # events of any card of its owner
    instead: Mapping[str, tuple[Replacement, ...]] = field(default_factory=_empty)
    instead_any: Mapping[str, tuple[Replacement, ...]] = field(default_factory=_empty)
    score: CardValue | None = None
    score_once: bool = False                   # one score for all the owner's copies together
    score_reads: tuple[str, ...] | None = None  # the columns its score reads besides its own card (None: anything)
    requires: tuple[CardCondition, ...] = ()
    mods: tuple[Modifier, ...] = ()
    source: str = ""                           # file:line:col of its definition
    layers: tuple[str, ...] = ()               # the layers that defined or changed it
    text: CardText | None = None               # the reference's English text (None: not described)
    nranks: int = field(init=False, default=0)
    rank_points: int = field(init=False, default=0)
    zero_ranks: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "nranks", len(self.ranks))
        object.__setattr__(self, "rank_points", sum(self.ranks))
        object.__setattr__(self, "zero_ranks", self.ranks.count(0))

    def ranks_in(self, column: str | None) -> tuple[int, ...]:
        """The card's ranks while it stands in `column` (a card with `column_ranks` has ranks only in
        the columns it names: a mercenary's two sides)."""
        if not self.column_ranks:
            return self.ranks
        return self.column_ranks.get(column or "", ())


@dataclass(frozen=True, slots=True)
class ClassDef:
    id: str
    name: str
    formula: str            # the DSL text of its scoring formula
    score: ClassScore
    source: str = ""
    reads: tuple[str, ...] | None = None  # the columns its formula reads, of any player (None: anything)


@dataclass(frozen=True, slots=True)
class TavernDraw:
    """In these turns of these ages (None: every age) a tavern is filled from `zone`'s deck."""
    zone: str
    turns: tuple[int, ...]
    ages: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class Tavern:
    id: str
    name: str
    draws: tuple[TavernDraw, ...] = ()


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
class Order:
    """The player order of a step: `gem` (highest first), `bid` (the bidders of the tavern being
    resolved, highest bid first), or `most` — the players holding cards of `kind` in their command
    zone, most first (ties by higher gem, no gem trade), the first of them choosing to go first or
    last (`leader_chooses`, which only `most` reads)."""
    by: str = "gem"
    kind: str | None = None
    leader_chooses: bool = True


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the flow: a runtime step (`do`) or a timing window (`window`), with the operands
    some steps take (a zone to refill from a deck to `count` cards, to clear `into` another, a kind
    of card to place from the command zone) and the order players take it in."""
    id: str
    do: str | None = None
    window: str | None = None
    ages: tuple[int, ...] | None = None        # None: every age
    source: str = ""
    zone: str | None = None
    deck: str | None = None                    # refill: the zone whose current-age deck feeds `zone`
    into: str | None = None
    count: int = 0
    kind: str | None = None
    order: Order = Order()


@dataclass(frozen=True, slots=True)
class Zone:
    """A shared zone the rules data declares (the Camp, the camp discard, …). A zone with decks
    holds one deck per age (`decks:` entries naming it), shuffled apart; `explored`: effects may
    look into it."""
    id: str
    name: str
    per_age: bool = False
    explored: bool = True


class CardMarks(NamedTuple):
    """Which house rules added a card and which changed it (by layer id)."""
    added: list[str]    # the house rule that added the card (none, or one)
    changed: list[str]  # the house rules that changed its fields, each once


def card_marks(layers: Sequence[str], variants: Collection[str]) -> CardMarks:
    """The house rules (`variants`: the ids of the rule set's variant layers) that added and that
    changed a card whose entries `layers` wrote, in order (CardDef.layers): the first layer defines
    the card, so a house rule there added it; each later house rule changed it."""
    added = list(layers[:1]) if layers and layers[0] in variants else []
    changed = [lid for lid in dict.fromkeys(layers[1:]) if lid in variants and lid not in added]
    return CardMarks(added, changed)


@dataclass(frozen=True, slots=True)
class PickSource:
    """A zone a player may take a card from on their pick while a tavern resolves (`tavern`: the
    tavern being resolved). `who`: `any` bidder, or the `top-bidder` only; `also`: a param that lets
    any other player with it above 0 use the source when the top bidder did not. A top bidder who
    uses it also discards `discard` cards of their choice from the tavern, with `discard_players`."""
    id: str
    zone: str
    name: str = ""
    who: str = "any"
    also: str | None = None
    discard: int = 0
    discard_players: tuple[int, ...] = ()


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
    text: str = ""
    source: str = ""
    layer: str = ""


@dataclass(frozen=True, slots=True)
class LoopWarning:
    """A loop of effects `check` warned can repeat (compiler/cycles.py): the effects in it (each
    `file:line:col` as its handlers' markers say), where the warning is, and what stops the loop. Play
    that nests past MAX_CASCADE in such a loop says so in these words (runtime/loops.py)."""
    members: tuple[str, ...]
    at: str
    stops: str


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
    dwarf_kinds: tuple[str, ...] = ("dwarf",)            # kinds whose army cards are dwarf cards (discards)
    score_parts: Mapping[str, str] = field(default_factory=_empty)  # kind -> breakdown part (else `heroes`)
    discards_to: Mapping[str, str] = field(default_factory=_empty)  # kind -> the zone its discarded cards go to
    zones: tuple[Zone, ...] = ()
    zone_decks: Mapping[str, Mapping[int, tuple[DeckEntry, ...]]] = field(default_factory=_empty)
    tavern: tuple[Step, ...] = ()                        # the steps of one tavern's resolution
    pick_sources: tuple[PickSource, ...] = ()
    loops: tuple[LoopWarning, ...] = ()                  # the loops of effects `check` warned can repeat
