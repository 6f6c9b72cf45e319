"""Where each card may stand and what state it may carry, derived from the compiled rules: the one
place the engine, the position checker and tests read these facts from.

A card may stand where anything in the rules can put it:
- where it enters when taken or recruited (`CardDef.enters`: its own class's column — the command
  zone for a card of no class —, a chosen column, a named column, the command zone; nowhere for a
  card that goes to the discard pile);
- where an effect of any card places it (`place CARD in PLACE`, `CardDef.placings`; `place subject
  …` may place any card);
- for a kind that a `place-held` step places from the command zone, one of its columns.
A choice of column offers the columns a card has ranks in (`column_ranks`) when it names some, else
every column. The state a card may carry (DESIGN §8's position format) follows from what its rules
give it: `notch` a track, `captured` a capture, `class`, `tokens`, `face_down`, `used` the marks its
effects set (`CardDef.marks`). Which keys exclude each other follows too: the keys that each spend the
card's one once-per-game power (`CardDef.spends`: a giant's capture, its turning face down) are at
most one, and beside a key that spends it (those, and `face_down` always) the power is not unused.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from nidavellir.interface.rules import (
    ENTERS_CHOSEN,
    ENTERS_COLUMN,
    ENTERS_COMMAND,
    ENTERS_OWN,
    PLACED_SELF,
    PLACED_SUBJECT,
    Capture,
    CardDef,
)

from .rules import Rules
from .state import by_fields

STATE_KEYS = ("notch", "tokens", "class", "captured", "face_down", "used")  # the position format's order


@dataclass(frozen=True)
class Standing:
    """Where a card may stand: the army columns (in class order) and whether the command zone; the
    state keys it may carry; of those, the keys of which it holds at most one (`exclusive`) and the
    keys that mean its power is spent (`spent_by`)."""
    columns: tuple[str, ...]
    command: bool
    state: tuple[str, ...]
    exclusive: tuple[str, ...] = ()
    spent_by: tuple[str, ...] = ()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return by_fields(self)

    def allows(self, column: str | None) -> bool:
        """Whether it may stand in `column` (None: the command zone)."""
        return self.command if column is None else column in self.columns


def own_column(rules: Rules, d: CardDef) -> str | None:
    """The column of the card's own class; None (the command zone) for a card of no class."""
    return rules.own_columns[d.id]


def column_choices(rules: Rules, d: CardDef, among: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The columns a choice of column offers for the card: `among` if given, else the columns it has
    ranks in (a card with ranks by column: each of its sides), else every column."""
    return among or tuple(d.column_ranks) or rules.classes


def standings(rules: Rules) -> Mapping[str, Standing]:
    """Where each card of the rules may stand, and its state keys (computed once per rule set)."""
    if rules.standings is None:
        rules.standings = _derive(rules)
    return rules.standings


def state_keys(d: CardDef) -> tuple[str, ...]:
    """The state keys of the position format the card may carry."""
    has = {"notch": bool(d.track), "captured": bool(d.captures), **{m: True for m in d.marks}}
    return tuple(key for key in STATE_KEYS if has.get(key))


def exclusive_keys(d: CardDef) -> tuple[str, ...]:
    """The state keys of which the card holds at most one: each spends its one once-per-game power."""
    return d.spends if len(d.spends) > 1 else ()


def spent_by(d: CardDef) -> tuple[str, ...]:
    """The state keys that mean the card's once-per-game power is spent: those that spend it, and
    `face_down` (turning face down spends the power, runtime `turn_face_down`)."""
    keys = set(d.spends) | ({"face_down"} if "face_down" in d.marks else set())
    return tuple(key for key in STATE_KEYS if key in keys)


def can_capture(d: CardDef, target: CardDef) -> bool:
    """Whether one of the card's captures may take `target` (its kind and printed class)."""
    return any(_matches(c, target) for c in d.captures)


def captures_at_most(d: CardDef) -> int | None:
    """How many cards the card may hold captured: one if it captures only with its once-per-game
    power (one mark, `used`, spends it), else no limit (None)."""
    return 1 if d.captures and all(c.once for c in d.captures) else None


def _matches(c: Capture, target: CardDef) -> bool:
    return c.kind in (None, target.kind) and c.cls in (None, target.cls)


def _derive(rules: Rules) -> dict[str, Standing]:
    cards = rules.cards
    columns: dict[str, set[str]] = {cid: set() for cid in cards}
    command: set[str] = set()

    def put(d: CardDef, mode: str, column: str | None = None, among: tuple[str, ...] = ()) -> None:
        if mode == ENTERS_OWN:
            own = own_column(rules, d)
            if own is None:
                command.add(d.id)
            else:
                columns[d.id].add(own)
        elif mode == ENTERS_COMMAND:
            command.add(d.id)
        elif mode == ENTERS_COLUMN and column is not None:
            columns[d.id].add(column)
        elif mode == ENTERS_CHOSEN:
            columns[d.id].update(column_choices(rules, d, among))
        # (ENTERS_DISCARD: it stays in no one's hands)

    for d in cards.values():
        put(d, d.enters, d.enters_column, d.enters_among)
    for d in cards.values():
        for placing in d.placings:
            targets = (d,) if placing.card == PLACED_SELF else tuple(cards.values()) \
                if placing.card == PLACED_SUBJECT else tuple(cards[c] for c in (placing.card,) if c in cards)
            for target in targets:
                put(target, placing.mode, placing.column, placing.among)
    held = {step.kind for step in (*rules.ruleset.turn, *rules.ruleset.age_end, *rules.ruleset.tavern)
            if step.do == "place-held" and step.kind is not None}
    for cid in command:
        if cards[cid].kind in held:  # placed from the command zone into one of its columns
            columns[cid].update(column_choices(rules, cards[cid]))
    return {cid: Standing(tuple(c for c in rules.classes if c in columns[cid]), cid in command, state_keys(d),
                          exclusive_keys(d), spent_by(d))
            for cid, d in cards.items()}


__all__ = ["Standing", "STATE_KEYS", "standings", "own_column", "column_choices", "state_keys", "can_capture",
           "captures_at_most", "exclusive_keys", "spent_by"]
