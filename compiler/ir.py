"""Typed IR of the effect DSL: what the emitter compiles and the docs renderer walks.

Every node keeps `pos`, its character offset inside the DSL string it came from; a node
naming something the checker resolves (a class, column, coin, gem or age) also keeps
`arg_pos`, the offset of that name or number.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TypeGuard, Union

from nidavellir.interface.mechanisms import ACTION_SPECS, Operand


@dataclass(frozen=True)
class Node:
    pos: int = field(default=0, compare=False, kw_only=True)


# -- expressions ---------------------------------------------------------------

@dataclass(frozen=True)
class Num(Node):
    value: int


@dataclass(frozen=True)
class Var(Node):
    name: str


@dataclass(frozen=True)
class Call(Node):
    name: str
    args: tuple["Expr", ...]


@dataclass(frozen=True)
class BinOp(Node):
    op: str  # + - * /
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Compare(Node):
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class Is(Node):
    subject: "Expr"
    name: str
    arg_pos: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class Not(Node):
    operand: "Expr"


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # and / or
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class IfElse(Node):
    then: "Expr"
    cond: "Expr"
    otherwise: "Expr"


@dataclass(frozen=True)
class CardSet(Node):
    """Cards of `kind` in the owner's army: the last of each column (`last`), or every one (`all`);
    `other`: not the card's own column; `only`: that column alone. A `dwarf` is a dwarf card as the
    rules' kinds say (`dwarf_card`), a `non-hero` any card but a hero."""
    kind: str  # dwarf | card | non-hero
    other: bool
    only: str | None = None
    mode: str = "last"  # last | all


@dataclass(frozen=True)
class CountSet(Node):
    cards: CardSet


Expr = Union[Num, Var, Call, BinOp, Compare, Is, Not, BoolOp, IfElse, CountSet]


# -- places, coins, cards ---------------------------------------------------------

@dataclass(frozen=True)
class Place(Node):
    mode: str  # chosen | another | among | column | own | command
    column: str | None = None
    among: tuple[str, ...] = ()
    arg_pos: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class CoinSel(Node):
    mode: str  # chosen | lowest | highest | each | trading | other (not chosen before in the effect)
    pouch: bool = False  # only coins in the pouch


@dataclass(frozen=True)
class CardRef(Node):
    card: str | None  # None: the effect's own card (or with `subject`, the event's card)
    subject: bool = False


@dataclass(frozen=True)
class Deck(Node):
    age: int | None  # None: the current age's deck (or with `zone`, that zone's pile)
    zone: str | None = None


# -- actions -----------------------------------------------------------------------

@dataclass(frozen=True)
class Word(Node):
    """A word an action takes as written: a zone's id, a mode the grammar fixes."""
    value: str


@dataclass(frozen=True)
class Omitted(Node):
    """An operand the phrase leaves out (a flag not written, `recruit hero` without a class)."""


@dataclass(frozen=True)
class Amounts(Node):
    """Several amounts an action takes (its last operand)."""
    items: tuple[Expr, ...]


Arg = Union[Expr, Deck, Word, CoinSel, CardRef, CardSet, Amounts, Place, Omitted]


def is_amount(arg: Arg) -> TypeGuard[Expr]:
    """Whether an action's operand is a number expression (an amount)."""
    return not isinstance(arg, (Deck, Word, CoinSel, CardRef, CardSet, Amounts, Place, Omitted))


def amounts(arg: Arg) -> tuple[Expr, ...]:
    """The number expressions of an action's operand: an amount, several, or none."""
    return arg.items if isinstance(arg, Amounts) else (arg,) if is_amount(arg) else ()


@dataclass(frozen=True)
class Act(Node):
    """An action of interface/mechanisms.py ACTION_SPECS, with its operands in the spec's order."""
    name: str
    args: tuple[Arg, ...] = ()

    def arg(self, operand: str) -> Arg:
        """The value of the operand named `operand`."""
        return self.args[ACTION_SPECS[self.name].index(operand)]

    def operands(self) -> list[tuple[Operand, Arg]]:
        """Each operand the spec declares, with its value here."""
        return list(zip(ACTION_SPECS[self.name].operands, self.args))

    def source(self) -> Deck | Word | None:
        """The deck or pile whose cards it moves, if it moves some (the spec's `source`)."""
        spec = ACTION_SPECS[self.name]
        found = None if spec.source is None else self.arg(spec.source)
        return found if isinstance(found, (Deck, Word)) else None

    def heroes(self) -> tuple[str | None] | None:
        """The class of the heroes it moves to the acting player (None: any), if it moves some (the
        spec's `heroes`)."""
        spec = ACTION_SPECS[self.name]
        if spec.heroes is None:
            return None
        found = self.arg(spec.heroes)
        return (found.value if isinstance(found, Word) else None),

    def cards(self) -> CardSet | None:
        """The set of the player's cards it acts on, if it acts on one."""
        return next((arg for arg in self.args if isinstance(arg, CardSet)), None)

    def placed(self) -> tuple[CardRef, Place] | None:
        """The card it puts in an army column or the command zone, and where (its place operand), if
        it does."""
        place = next((arg for arg in self.args if isinstance(arg, Place)), None)
        if place is None:
            return None
        return next(arg for arg in self.args if isinstance(arg, CardRef)), place

    def under(self) -> tuple[CardRef, Deck] | None:
        """The card it puts under a deck, and the deck (the spec's `under`), if it does."""
        spec = ACTION_SPECS[self.name]
        if spec.under is None:
            return None
        card = next(arg for arg in self.args if isinstance(arg, CardRef))
        deck = self.arg(spec.under)
        assert isinstance(deck, Deck), "an action puts a card under a deck operand"
        return card, deck


@dataclass(frozen=True)
class Then(Node):
    """`first` is a cost (an action spec's `cost`): `rest` happens only if it was paid."""
    first: "Action"
    rest: "Action"


@dataclass(frozen=True)
class EachOther(Node):
    """The action, done by each other player in turn (players by gem)."""
    action: "Action"


Action = Union[Act, EachOther, Then]


# -- effects -----------------------------------------------------------------------

@dataclass(frozen=True)
class Triggered(Node):
    event: str
    age: int | None
    cond: Expr | None
    actions: tuple[Action, ...]
    owner: bool = False  # `whenever`: events of any card of the owner
    may: bool = False
    once: bool = False   # once per game
    arg_pos: int = field(default=0, compare=False, kw_only=True)


@dataclass(frozen=True)
class Replacement(Node):
    event: str
    actions: tuple[Action, ...]
    owner: bool = False  # `instead of any`: events of any card of the owner
    cond: Expr | None = None
    may: bool = False
    once: bool = False


@dataclass(frozen=True)
class Modifier(Node):
    param: str
    op: str  # + - =
    amount: Expr


@dataclass(frozen=True)
class Requirement(Node):
    cond: Expr


@dataclass(frozen=True)
class Score(Node):
    once: bool
    expr: Expr


@dataclass(frozen=True)
class Enters(Node):
    place: Place


@dataclass(frozen=True)
class CaptureNext(Node):
    """A giant's capture: the next dwarf card of class `cls` its owner takes may be captured (the
    card's `when captured` effects apply), or placed — the giant then turns face down for good."""
    cls: str
    arg_pos: int = field(default=0, compare=False, kw_only=True)


Effect = Union[Triggered, Replacement, Modifier, Requirement, Score, Enters, CaptureNext]


def children(node: Node) -> Iterator[Node]:
    """Yield the direct child nodes of `node` (for generic walks)."""
    for value in node.__dict__.values():
        if isinstance(value, Node):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if isinstance(v, Node))


def walk(node: Node) -> Iterator[Node]:
    """Yield `node` and all its descendants, depth first."""
    yield node
    for child in children(node):
        yield from walk(child)


def capture_effects(capture: CaptureNext) -> tuple[Replacement, Triggered]:
    """What a giant's capture means, as the two effects the runtime runs: the owner may capture a
    dwarf card of the class instead of taking it (once); if they take one without capturing it, the
    giant turns face down."""
    at = capture.pos

    def matches() -> Expr:
        return BoolOp("and", Is(Var("subject_kind", pos=at), "dwarf", pos=at),
                      Is(Var("subject_class", pos=at), capture.cls, pos=at), pos=at)

    replacement = Replacement("taken", (Act("capture", pos=at),), owner=True, cond=matches(), may=True, once=True,
                              pos=at)
    declined = Triggered("taken", None, BoolOp("and", Not(Var("used", pos=at), pos=at), matches(), pos=at),
                         (Act("face-down", pos=at),), owner=True, pos=at)
    return replacement, declined
