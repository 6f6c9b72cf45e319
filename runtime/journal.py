"""The public event journal: a typed record of what happens in a game that players may know.

The engine keeps it only when asked (`Game(rules, players, seed, journal=True)`; `engine.journal`
is None otherwise, and then nothing is recorded). Each record is a small frozen dataclass with the
age and turn it happened in, the player who did it (-1: no one, the game itself), the card whose
effect did it (`cause`, a card id), and ids: card ids, coin values, tavern, zone and class ids —
never Python objects. `seen_by` says who may know it: None for everyone, else the players who
do (a player's own bids before the reveal, the cards of a private draw); others learn what
`hidden_from` leaves of it (how many cards were drawn), or nothing.

nidavellir/narrate.py puts the records into words; `journal_since` is what one player may know
of the records from an index on.

Places are strings: a tavern id, a zone id (`camp`, `discard`, `mythology`, …), a class id (an
army column), `command` (the command zone), `heroes` (the available heroes), `supply`, `box` (out
of the game), or a deck: `age:N` for an age's deck, else the zone id of a face-down pile.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY, dataclass, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar

from nidavellir.interface.quick import quick_init

if TYPE_CHECKING:
    from .game import Game

COMMAND_ZONE = "command"
NO_ONE = -1


def deck_place(deck: int | str | None, age: int) -> str:
    """A deck as a place: `age:N` for an age's deck (None: the current age's), else the zone id
    (a zone's deck of one age, `camp-deck@1`, is its zone's)."""
    if deck is None or isinstance(deck, int):
        return f"age:{age if deck is None else deck}"
    return deck.split("@", 1)[0]


@dataclass(frozen=True)
class Happening:
    """What happened, when, by whom, and who may know it."""
    kind: ClassVar[str] = "happening"
    age: int
    turn: int
    _: KW_ONLY
    player: int = NO_ONE
    cause: str | None = None                 # the card whose effect did it
    seen_by: frozenset[int] | None = None    # None: everyone

    def visible_to(self, p: int | None) -> bool:
        """Whether player p may know this record (None: an analyst, who knows everything)."""
        return p is None or self.seen_by is None or p in self.seen_by

    def hidden_from(self) -> Happening | None:
        """What a player outside `seen_by` learns of it (None: nothing)."""
        return None

    def to_json(self) -> dict[str, Any]:
        """The record as JSON: `kind` and its fields (`seen_by` a sorted list or null)."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "seen_by":
                value = None if value is None else sorted(value)
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            out[f.name] = value
        return out


# -- the game's course ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class GameStarted(Happening):
    """The game is dealt: each player's gem (by player)."""
    kind: ClassVar[str] = "game-started"
    gems: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class AgeStarted(Happening):
    kind: ClassVar[str] = "age-started"


@dataclass(frozen=True, kw_only=True)
class TurnStarted(Happening):
    kind: ClassVar[str] = "turn-started"


@dataclass(frozen=True, kw_only=True)
class AgeEnded(Happening):
    """The age's deck has run out: its end steps begin."""
    kind: ClassVar[str] = "age-ended"


@dataclass(frozen=True, kw_only=True)
class FinalScores(Happening):
    """The Final Bravery Value of each player (by player) and the winners (player indexes)."""
    kind: ClassVar[str] = "final-scores"
    totals: tuple[int, ...]
    winners: tuple[int, ...]


# -- cards dealt and cleared ---------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Dealt(Happening):
    """Cards put face up at a place (a tavern, a face-up zone) from a deck."""
    kind: ClassVar[str] = "dealt"
    at: str
    cards: tuple[str, ...]
    deck: str


@dataclass(frozen=True, kw_only=True)
class Cleared(Happening):
    """Every card left at a place goes elsewhere (a tavern's leftovers, the Camp at an age's end)."""
    kind: ClassVar[str] = "cleared"
    at: str
    cards: tuple[str, ...]
    into: str


# -- bids ----------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class BidsPlaced(Happening):
    """A player's bids, secret until each tavern's reveal: the coin value on each tavern (None: no
    coin), the coins left in the pouch, and the taverns whose coin is a trading coin (indexes)."""
    kind: ClassVar[str] = "bids-placed"
    bids: tuple[int | None, ...]
    pouch: tuple[int, ...]
    trading: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class BidsRevealed(Happening):
    """A tavern's bids turned face up: each player's coin value there (None: no bid), and the
    players whose coin there is a trading coin."""
    kind: ClassVar[str] = "bids-revealed"
    tavern: str
    bids: tuple[int | None, ...]
    trading: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class LateBid(Happening):
    """A coin put face up on a tavern once the others' bids there are revealed (bidding from hand)."""
    kind: ClassVar[str] = "late-bid"
    tavern: str
    value: int
    trading: bool = False


# -- cards ---------------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class Took(Happening):
    """A player took a card from a shared place (a tavern, the Camp, the discard pile, a draw)."""
    kind: ClassVar[str] = "took"
    card: str
    at: str


@dataclass(frozen=True, kw_only=True)
class Placed(Happening):
    """A card went to a player's army column (`column`) or command zone (`command`); `origin`: the
    column or `command` it moved from, None when it came from outside the player's cards."""
    kind: ClassVar[str] = "placed"
    card: str
    column: str
    origin: str | None = None


@dataclass(frozen=True, kw_only=True)
class Recruited(Happening):
    """A hero recruited: `by_line` by a complete line (else by an effect); `counted` against lines."""
    kind: ClassVar[str] = "recruited"
    card: str
    by_line: bool = True
    counted: bool = True


@dataclass(frozen=True, kw_only=True)
class HeroReturned(Happening):
    """A hero put back among the available heroes, with the cards it brought (`brought`: they leave
    the army or command zone for the supply)."""
    kind: ClassVar[str] = "hero-returned"
    card: str
    brought: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Discarded(Happening):
    """A card discarded from a place (an army column, the command zone, a tavern, a deck's top) into
    a pile (`discard`, or the zone its kind's discards go to)."""
    kind: ClassVar[str] = "discarded"
    card: str
    at: str
    into: str


@dataclass(frozen=True, kw_only=True)
class PutUnder(Happening):
    """Cards put back in a deck: under it in this order, or shuffled in."""
    kind: ClassVar[str] = "put-under"
    cards: tuple[str, ...]             # () for those who did not see them
    deck: str
    count: int                         # how many
    shuffled: bool = False

    def hidden_from(self) -> Happening:
        return replace(self, cards=(), seen_by=None)


@dataclass(frozen=True, kw_only=True)
class Drew(Happening):
    """A player drew cards from a deck to look at (only they see which until any is taken)."""
    kind: ClassVar[str] = "drew"
    cards: tuple[str, ...]             # () for those who did not see them
    deck: str
    count: int                         # how many

    def hidden_from(self) -> Happening:
        return replace(self, cards=(), seen_by=None)


@dataclass(frozen=True, kw_only=True)
class Reserved(Happening):
    """A tavern card reserved for the turn: only this player may take it."""
    kind: ClassVar[str] = "reserved"
    card: str
    tavern: str


@dataclass(frozen=True, kw_only=True)
class Swapped(Happening):
    """A card of one tavern swapped with a card of another."""
    kind: ClassVar[str] = "swapped"
    first: str
    first_at: str
    second: str
    second_at: str


@dataclass(frozen=True, kw_only=True)
class Captured(Happening):
    """A card (a giant) captured another: it goes under the capturing card."""
    kind: ClassVar[str] = "captured"
    card: str
    subject: str


# -- marks cards carry ---------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class TrackMoved(Happening):
    """A card's strength token moved along its track: notch `old` to `new`, now worth `value`."""
    kind: ClassVar[str] = "track-moved"
    card: str
    old: int
    new: int
    value: int


@dataclass(frozen=True, kw_only=True)
class PowerUsed(Happening):
    """A card's once-per-game power is used (its power token spent)."""
    kind: ClassVar[str] = "power-used"
    card: str


@dataclass(frozen=True, kw_only=True)
class FaceDown(Happening):
    """A card turned face down for good: its power is spent."""
    kind: ClassVar[str] = "face-down"
    card: str


@dataclass(frozen=True, kw_only=True)
class ClassChosen(Happening):
    kind: ClassVar[str] = "class-chosen"
    card: str
    cls: str


@dataclass(frozen=True, kw_only=True)
class TokensChanged(Happening):
    """The tokens on a card now number `tokens`."""
    kind: ClassVar[str] = "tokens"
    card: str
    tokens: int


# -- coins and gems ------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class CoinTraded(Happening):
    """003 "Trading Coins": the two coins added up (`coins`), the value asked of the treasure
    (`wanted`: their sum, with any bonus), the coin received (`new`) and the coin given up (`gone`)."""
    kind: ClassVar[str] = "coin-traded"
    coins: tuple[int, int]
    wanted: int
    new: int
    gone: int


@dataclass(frozen=True, kw_only=True)
class CoinTransformed(Happening):
    """003 "Transforming a Coin": coin `old` (lying at `at`) plus `amount` (with any bonus) asked
    `old + amount` of the treasure and became `new`. Every coin a player owns is public; where it
    lies may not be (a tavern whose bids are not revealed, the pouch): then only its owner sees
    `at`, the others read "" there."""
    kind: ClassVar[str] = "coin-transformed"
    old: int
    amount: int
    new: int
    at: str

    def hidden_from(self) -> Happening:
        return replace(self, at="", seen_by=None)


@dataclass(frozen=True, kw_only=True)
class CoinExchanged(Happening):
    """A coin exchanged for a special coin (`special`: its id)."""
    kind: ClassVar[str] = "coin-exchanged"
    old: int
    new: int
    special: str


@dataclass(frozen=True, kw_only=True)
class CoinDiscarded(Happening):
    """A coin discarded from where it lay (`at`: "" for those who may not know where)."""
    kind: ClassVar[str] = "coin-discarded"
    value: int
    at: str

    def hidden_from(self) -> Happening:
        return replace(self, at="", seen_by=None)


@dataclass(frozen=True, kw_only=True)
class GemsTraded(Happening):
    """003 "Trading Gems": players tied on a tavern's bid trade gems: (player, old gem, new gem)."""
    kind: ClassVar[str] = "gems-traded"
    tavern: str
    swaps: tuple[tuple[int, int, int], ...]


@dataclass(frozen=True, kw_only=True)
class GemGained(Happening):
    """A player's gem covered by a special gem."""
    kind: ClassVar[str] = "gem-gained"
    old: int
    new: int


# -- distinctions --------------------------------------------------------------------------------

@dataclass(frozen=True, kw_only=True)
class DistinctionWon(Happening):
    """003 "Troop Evaluation": the strict majority of `cls` ranks wins the distinction `card`."""
    kind: ClassVar[str] = "distinction-won"
    card: str
    cls: str
    ranks: int


@dataclass(frozen=True, kw_only=True)
class DistinctionUnclaimed(Happening):
    """No strict majority: no one wins the distinction."""
    kind: ClassVar[str] = "distinction-unclaimed"
    card: str
    cls: str


KINDS: dict[str, type[Happening]] = {cls.kind: cls for cls in (
    GameStarted, AgeStarted, TurnStarted, AgeEnded, FinalScores, Dealt, Cleared, BidsPlaced, BidsRevealed,
    LateBid, Took, Placed, Recruited, HeroReturned, Discarded, PutUnder, Drew, Reserved, Swapped, Captured,
    TrackMoved, PowerUsed, FaceDown, ClassChosen, TokensChanged, CoinTraded, CoinTransformed, CoinExchanged,
    CoinDiscarded, GemsTraded, GemGained, DistinctionWon, DistinctionUnclaimed)}


ALL_KINDS: frozenset[type[Happening]] = frozenset(KINDS.values())


for _kind in ALL_KINDS:
    quick_init(_kind)  # (hundreds a game)


def kinds_of(asked: Iterable[str | type[Happening]]) -> frozenset[type[Happening]]:
    """The record classes asked for, each by its class or its `kind` ("took"); a ValueError names
    one that is no kind of record."""
    out = set()
    for k in asked:
        cls = KINDS.get(k) if isinstance(k, str) else k if k in ALL_KINDS else None
        if cls is None:
            raise ValueError(f"{k!r} is no kind of journal record (kinds: {', '.join(sorted(KINDS))})")
        out.add(cls)
    return frozenset(out)


class JournalOff(RuntimeError):
    """The game keeps no journal (start it with `Game(..., journal=True)`)."""


def visible(records: Sequence[Happening], player: int | None) -> list[Happening]:
    """What `player` may know of `records` (None: everything): a record they may not see is left
    out, or replaced by what it shows to everyone (`hidden_from`)."""
    if player is None:
        return list(records)
    out: list[Happening] = []
    for h in records:
        if h.seen_by is None or player in h.seen_by:
            out.append(h)
        else:
            shown = h.hidden_from()
            if shown is not None:
                out.append(shown)
    return out


def journal_since(game: Game, index: int, player: int | None) -> list[Happening]:
    """What `player` may know of the game's records from `index` on (None: everything, as an
    analyst reading a replay). Raises JournalOff if the game keeps no journal."""
    journal = game.engine.journal
    if journal is None:
        raise JournalOff("this game keeps no journal: start it with Game(..., journal=True)")
    return visible(journal[index:], player)
