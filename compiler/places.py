"""Where a card can be, as far as the rules data tells before a game: the army columns it can stand
in, and the piles and decks an effect can take it from. Each answer is a superset (what can never
happen is left out, nothing that can happen is): the cycle checker uses it to see that an effect
taking cards from the discard pile can never take a card that never lies there.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from nidavellir.interface.mechanisms import ACTION_SPECS, FILLED, steps_with

from . import ir

ANY = None  # a set of every card (or every column)
# Where a card is, as far as the checker knows (`Places.entered`; compiler/cycles.py follows it)
ARMY, COMMAND, NOWHERE, EITHER = "army", "command", "nowhere", "either"
Cards = frozenset[str] | None


def union(*sets: Cards) -> Cards:
    out: set[str] = set()
    for s in sets:
        if s is ANY:
            return ANY
        out |= s
    return frozenset(out)


@dataclass
class CardFacts:
    """What the checker needs of one card."""
    id: str
    kind: str
    cls: str
    copies: int
    enters: str                        # own | column | chosen | command | discard
    enters_column: str | None = None
    among: tuple[str, ...] = ()
    column_ranks: tuple[str, ...] = ()
    effects: list[tuple[int, ir.Effect]] = field(default_factory=list)  # (index in `effects:`, IR)
    ranks: tuple[int, ...] = ()        # the points of its printed ranks
    by_column: dict[str, tuple[int, ...]] = field(default_factory=dict)  # column -> its ranks there
    points: int = 0                    # what it scores from the command zone
    track: tuple[int, ...] = ()        # its track's notch values

    def ranks_in(self, column: str) -> tuple[int, ...]:
        """Its ranks while it stands in `column` (as `CardDef.ranks_in`)."""
        return self.by_column.get(column, ()) if self.by_column else self.ranks


class Places:
    """Where each card of a rule set can be."""

    def __init__(self, cards: dict[str, CardFacts], game: dict[str, Any], decks: dict[int, list[dict[str, Any]]],
                 zone_decks: dict[str, dict[int, list[dict[str, Any]]]]):
        self.cards = cards
        self.classes = frozenset(c["id"] for c in game.get("classes", []))
        kinds: dict[str, dict[str, Any]] = game.get("kinds", {})
        steps = [s for part in game.get("flow", {}).values() if isinstance(part, list) for s in part
                 if isinstance(s, dict)]
        held_kinds = {s.get("kind") for s in steps if s.get("do") == "place-held"}
        self.columns: dict[str, frozenset[str] | None] = {
            cid: self._entry_columns(c, c.kind in held_kinds) for cid, c in cards.items()}
        self.held_kinds = held_kinds
        self.to_command: Cards = frozenset()  # the cards an effect can place in the command zone
        for card in cards.values():  # placed by an effect
            for _, effect in card.effects:
                for node in ir.walk(effect):
                    if isinstance(node, ir.Act) and (placed := node.placed()) is not None:
                        self._placed(card.id, *placed)
        self.age_decks = {age: frozenset(e["card"] for e in entries) for age, entries in decks.items()}
        self.zone_decks = {z: frozenset(e["card"] for entries in by_age.values() for e in entries)
                           for z, by_age in zone_decks.items()}
        self.tavern = union(*self.age_decks.values(), *(self.zone_decks.get(d.get("zone", ""), frozenset())
                                                         for t in game.get("taverns", []) for d in t.get("draws", [])))
        tavern = self.tavern
        self.under: dict[str | int | None, Cards] = {}  # a deck -> the cards effects put under it
        for card in cards.values():
            for _, effect in card.effects:
                for node in ir.walk(effect):
                    if isinstance(node, ir.Act) and (under := node.under()) is not None:
                        ref, bottom = under
                        put = self.refers_to(ref, card.id, effect)
                        key: str | int | None = bottom.zone if bottom.zone is not None else bottom.age
                        self.under[key] = union(self.under.get(key, frozenset()), put)
        # Face-up zones: what their steps fill them with, or clear into them
        self.zone_cards: dict[str, Cards] = {}
        self._kinds = kinds
        filling = steps_with("zone", FILLED)
        for s in steps:
            if s.get("do") in filling and s.get("zone"):
                self._into(s["zone"], self.zone_decks.get(s.get("deck", ""), frozenset()))
        for s in steps:
            if s.get("do") == "clear" and s.get("into"):
                source = tavern if s.get("zone") == "tavern" else self.zone_cards.get(s.get("zone", ""), frozenset())
                self._into(s["into"], source)
        # Discarded cards: those a tavern leaves, those whose kind enters the discard pile, those of an
        # army that an effect discards
        self.dwarf_kinds = dwarf_kinds = {k for k, v in kinds.items() if v.get("dwarf_card", k == "dwarf")}
        discarding = {acted.kind for card in cards.values() for _, effect in card.effects for node in ir.walk(effect)
                      if isinstance(node, ir.Act) and ACTION_SPECS[node.name].discards
                      and (acted := node.cards()) is not None}
        army = frozenset(cid for cid, c in cards.items() if self.may_stand_in(cid, None) and (
            "card" in discarding or ("non-hero" in discarding and c.kind != "hero")
            or ("dwarf" in discarding and c.kind in dwarf_kinds)))
        entering = frozenset(cid for cid, c in cards.items() if c.enters == "discard")
        tops = [self.deck(deck) for card in cards.values() for _, effect in card.effects for node in ir.walk(effect)
                if isinstance(node, ir.Act) and ACTION_SPECS[node.name].discards
                and isinstance(deck := node.source(), ir.Deck)]
        self._into("discard", union(tavern, army, entering, *tops))

    def _into(self, zone: str, cards: Cards) -> None:
        """`cards` can come to `zone` (to the discard pile: each where its kind's discards go)."""
        if zone == "discard" and cards is not ANY:
            routed: dict[str, set[str]] = {}
            for cid in cards:
                kind = self.cards[cid].kind if cid in self.cards else ""
                routed.setdefault(self._kinds.get(kind, {}).get("discards_to", "discard"), set()).add(cid)
            for pile, held in routed.items():
                self.zone_cards[pile] = union(self.zone_cards.get(pile, frozenset()), frozenset(held))
            return
        self.zone_cards[zone] = union(self.zone_cards.get(zone, frozenset()), cards)

    def _entry_columns(self, c: CardFacts, held: bool) -> frozenset[str] | None:
        cols: set[str] = set(c.column_ranks)
        if c.enters == "own" and c.cls in self.classes:
            cols.add(c.cls)
        elif c.enters == "column" and c.enters_column:
            cols.add(c.enters_column)
        elif c.enters == "chosen" or held:
            if not (c.among or c.column_ranks):
                return ANY
            cols |= set(c.among)
        return frozenset(cols)

    def _placed(self, actor: str, ref: ir.CardRef, place: ir.Place) -> None:
        where = self.place_columns(place, actor if ref.card is None else ref.card)
        targets: Iterable[str] = self.cards if ref.subject else [ref.card or actor]
        if place.mode == "command":
            self.to_command = union(self.to_command, ANY if ref.subject else frozenset(targets))
        for cid in targets:
            if cid in self.columns:
                old = self.columns[cid]
                self.columns[cid] = ANY if old is ANY or where is ANY else old | where

    def place_columns(self, place: ir.Place, cid: str) -> frozenset[str] | None:
        """The columns a place names (for the card `cid`)."""
        if place.mode in ("chosen", "another"):
            return ANY
        if place.mode == "among":
            return frozenset(place.among)
        if place.mode == "column" and place.column:
            return frozenset({place.column})
        if place.mode == "own" and cid in self.cards:
            return frozenset({self.cards[cid].cls}) & self.classes
        return frozenset()

    def refers_to(self, ref: ir.CardRef, actor: str, effect: ir.Effect) -> Cards:
        """The cards a card reference of `actor`'s effect can name: itself, a card by id, or the card
        of the effect's event (for `when`, the card itself)."""
        if not ref.subject:
            return frozenset({ref.card or actor})
        if isinstance(effect, (ir.Triggered, ir.Replacement)) and not effect.owner:
            return frozenset({actor})
        return self.about(effect.event) if isinstance(effect, (ir.Triggered, ir.Replacement)) else ANY

    def about(self, event: str) -> Cards:
        """The cards an event of the runtime can be about (ANY: any card)."""
        if event == "picked":
            return self.tavern
        if event == "recruited":
            return self.heroes(None)
        if event in ("won", "unclaimed"):
            return frozenset(cid for cid, c in self.cards.items() if c.kind == "distinction")
        if event in ("covered", "discarded", "joined"):
            return frozenset(cid for cid in self.cards if self.may_stand_in(cid, None))
        return ANY

    def entered(self, cid: str) -> str:
        """Where `cid` is once taken or recruited: in an army column, the command zone, neither (a kind
        that goes to the discard pile), or either (a kind an age's end places from the command zone,
        which it enters at once while that step runs)."""
        c = self.cards.get(cid)
        if c is None:
            return EITHER
        if c.enters == "discard":
            return NOWHERE
        if c.enters == "command":
            return EITHER if c.kind in self.held_kinds else COMMAND
        if c.enters == "own" and c.cls not in self.classes:
            return COMMAND
        return ARMY

    def held_at(self, cid: str) -> str:
        """Where `cid` can be while its owner holds it (where its `whenever` effects run): in the army
        when it enters a column and no effect places it in the command zone; in the command zone
        when it enters there and nothing places it in a column; else either."""
        entered = self.entered(cid)
        if entered == ARMY:
            return EITHER if self.to_command is ANY or cid in self.to_command else ARMY
        if entered == COMMAND:
            return COMMAND if not self.may_stand_in(cid, None) else EITHER
        return EITHER

    def enters_army(self, cid: str) -> bool:
        """Whether `cid`, taken or recruited, can land in an army column."""
        return self.entered(cid) in (ARMY, EITHER)

    def may_stand_in(self, cid: str, column: str | None) -> bool:
        """Whether `cid` can stand in `column` (None: any column) of an army."""
        cols = self.columns.get(cid, frozenset())
        return cols is ANY or (bool(cols) if column is None else column in cols)

    def pile(self, zone: str) -> Cards:
        """The cards that can lie in a face-up zone (`discard` or a zone of the rules)."""
        return self.zone_cards.get(zone, frozenset())

    def deck(self, deck: ir.Deck) -> Cards:
        """The cards that can lie in a deck (an age's, the current age's, or a zone's face-down pile)."""
        if deck.zone is not None:
            own = self.zone_decks.get(deck.zone, frozenset())
            return union(own, self.under.get(deck.zone, frozenset()))
        ages = [deck.age] if deck.age is not None else list(self.age_decks)
        return union(*(self.age_decks.get(a, frozenset()) for a in ages),
                     *(self.under.get(a, frozenset()) for a in ages), self.under.get(None, frozenset()))

    def card_set(self, cards: ir.CardSet) -> Cards:
        """The cards a set of army cards (`last dwarf of column hunter`, `non-hero in army`) can hold."""
        def kind_ok(c: CardFacts) -> bool:
            return cards.kind == "card" or (cards.kind == "non-hero" and c.kind != "hero") or \
                (cards.kind == "dwarf" and c.kind in self.dwarf_kinds)
        return frozenset(cid for cid, c in self.cards.items() if kind_ok(c) and self.may_stand_in(cid, cards.only))

    def heroes(self, cls: str | None) -> Cards:
        """The heroes that can be recruited (`cls`: of that class; `neutral` for those without one)."""
        in_decks = union(*self.age_decks.values(), *self.zone_decks.values()) or frozenset()
        return frozenset(cid for cid, c in self.cards.items()
                         if c.kind == "hero" and cid not in in_decks and (cls is None or c.cls == cls))
