"""The reference's cards: each card's entry, each kind's group and table, the copies in each deck,
the heroes by class and the recruitment requirements."""
from __future__ import annotations

from collections.abc import Sequence

from .. import ir
from .deck import Copy, Pile, box_copies
from .model_base import ModelBase, _add, _capital
from .text import card_text, effect_text, rank_class
from .views import (
    BreakdownPart,
    CardEntry,
    CardGroup,
    CardRow,
    CardTable,
    CardView,
    HeroGroup,
    Link,
    Requirements,
)

PileCounts = dict[Pile, dict[int, int]]  # deck -> least player count (0: every game) -> copies


def _piles(copies: list[Copy]) -> dict[str, PileCounts]:
    """Card id -> the decks holding its copies (in deck order) -> copies by the least player count."""
    out: dict[str, PileCounts] = {}
    for c in copies:
        by_least = out.setdefault(c.card, {}).setdefault(c.pile, {})
        by_least[c.min_players] = by_least.get(c.min_players, 0) + 1
    return out


class CardsModel(ModelBase):
    """The cards and heroes sections."""

    def card_view(self, cid: str) -> CardView:
        card = self.cards[cid]
        effects = self.c.effects.get(cid, [])
        ranks = card.ranks
        sides = dict(card.column_ranks)
        label: list[str] = []
        if ranks:
            label.append(self.t("ref.card.ranks_points", n=len(ranks), points=", ".join(map(str, ranks))) if any(ranks)
                         else self.t("ref.card.ranks_plain", n=len(ranks)))
        if sides:
            label.append(" / ".join(self.side_label(cls, side) for cls, side in sides.items()))
        if card.points:
            label.append(self.t("ref.card.points", points=card.points))
        classes = list(sides) or [rank_class(card, effects)]
        return {
            "id": cid,
            "anchor": self.anchors[cid],
            "name": self.cx.card(cid),
            "kind": card.kind,
            "class": card.cls,
            "class_label": self.cx.join([self.cx.cls(c) for c in classes], "list.or"),
            "ranks_label": "; ".join(label),
            "text": card_text(card, effects, self.cx),
        }

    def side_label(self, cls: str, ranks: Sequence[int]) -> str:
        """One side of a card with ranks per column: "Warrior 6", "Hunter"."""
        if any(ranks):
            return self.t("ref.card.side_points", cls=self.cx.cls(cls), points=", ".join(map(str, ranks)))
        return self.t("ref.card.side_plain", cls=self.cx.cls(cls))

    def card_groups(self) -> list[CardGroup]:
        """Each kind's cards: those whose text is only their ranks and points as one table (when
        there are two or more), the others as full entries."""
        piles = _piles(box_copies(self.c))
        groups: list[CardGroup] = []
        for kind in self.rs.kinds:
            ids = self.cards_of(kind)
            if not ids:
                continue
            views = {cid: self.card_view(cid) for cid in ids}
            show_class = len({v["class_label"] for v in views.values()}) > 1
            plain = [cid for cid in ids if not self.c.effects.get(cid) and not self.cards[cid].track]
            in_table = plain if len(plain) > 1 else []
            marks = {cid: self.card_marks(cid) for cid in ids}
            cards: list[CardEntry] = [{**views[cid], "copies": self.cards[cid].copies,
                                       "added": marks[cid][0], "changed": marks[cid][1],
                                       "decks": self.age_decks_of(piles.get(cid, {})) + self.card_decks(cid),
                                       "placed_by": self.placed_by(cid), "show_class": show_class}
                                      for cid in ids if cid not in in_table]
            groups.append({"kind": kind, "anchor": f"kind-{kind}", "label": self.kind_label(kind),
                           "notes": self.kind_notes(kind),
                           "table": self.card_table(in_table, views, piles, show_class) if in_table else None,
                           "cards": cards})
        return groups

    def card_table(self, ids: list[str], views: dict[str, CardView], piles: dict[str, PileCounts],
                   show_class: bool) -> CardTable:
        """Cards without rule text of their own, one row each: class, ranks, Bravery Points, points,
        copies in each deck that holds them (5-player copies as "+ n") and in the box."""
        cards = [self.cards[cid] for cid in ids]
        decks = list(dict.fromkeys(p for cid in ids for p in piles.get(cid, {}) if not p.kind))
        most = {least for cid in ids for p in decks for least in piles.get(cid, {}).get(p, {}) if least}
        ranked = any(c.ranks or c.column_ranks for c in cards)
        pointed = any(c.points for c in cards)
        boxed = bool(decks) or any(c.copies > 1 for c in cards)
        head = [self.t("ref.col.card")] + [self.t("ref.col.class")] * show_class
        head += [self.t("ref.col.ranks_count"), self.t("ref.col.bravery")] * ranked + [self.t("ref.col.points")] * pointed
        zones = {p.zone for p in decks}
        one_zone = len(zones) == 1 and "" not in zones and all(p.age for p in decks)  # the Camp deck of each age
        head += [self.t("ref.col.age", age=p.age) if one_zone else self.pile_label(p) for p in decks]
        head += [self.t("ref.col.copies")] * boxed
        rows: list[CardRow] = []
        for cid, card in zip(ids, cards):
            cells = [_capital(views[cid]["class_label"])] * show_class
            if ranked:
                sides = list(card.column_ranks.values()) or ([card.ranks] if card.ranks else [])
                counts = list(dict.fromkeys(len(side) for side in sides))
                cells += [" / ".join(map(str, counts)) or "–",
                          " / ".join(", ".join(map(str, side)) for side in sides) or "–"]
            cells += [str(card.points or "–")] * pointed
            cells += [self.copies_cell(piles.get(cid, {}).get(p, {}), sorted(most)) for p in decks]
            cells += [str(sum(sum(by.values()) for by in piles.get(cid, {}).values()) or card.copies)] * boxed
            added, changed = self.card_marks(cid)
            rows.append({"anchor": self.anchors[cid], "name": views[cid]["name"], "cells": cells,
                         "added": added, "changed": changed, "placed_by": self.placed_by(cid)})
        notes = [self.more_note(sorted(most))] if most else []
        if one_zone:
            notes.append(self.t("ref.cards.zone_note", zone=self.zone_ref(decks[0].zone)["name"]))
        return {"head": head, "rows": rows, "notes": notes}

    def pile_label(self, pile: Pile) -> str:
        """A deck as a column heading: "Age 1", "The Camp deck, Age 1", "The mythology deck"."""
        if not pile.zone:
            return self.t("ref.col.age", age=pile.age)
        name = _capital(self.zone_ref(pile.zone)["name"])
        return self.t("ref.col.zone_age", zone=name, age=pile.age) if pile.age else name

    def copies_cell(self, by_least: dict[int, int], most: list[int]) -> str:
        """A card's copies in one deck: "8", "8 + 2" (2 more with 5 players), "+1", "–"."""
        text = str(by_least.get(0, "") or "")
        for least in most:
            if by_least.get(least):
                more = f"+{by_least[least]}" if len(most) == 1 else f"+{by_least[least]} ({least})"
                text = f"{text} {more[0]} {more[1:]}" if text else more
        return text or "–"

    def more_note(self, most: list[int]) -> str:
        """What "+ n" in a copies cell means."""
        if len(most) > 1:
            return self.t("ref.cards.more_note_at")
        key = "ref.cards.more_note_most" if most[0] == self.players[-1] else "ref.cards.more_note"
        return self.t(key, players=most[0])

    def age_decks_of(self, piles: PileCounts) -> list[str]:
        """A card's copies in the age decks, as its entry says them: "Age 1 deck: 1 (+1 with 5 players)"."""
        out: list[str] = []
        for pile, by_least in piles.items():
            if pile.zone or pile.kind:
                continue
            more = [self.t("ref.card.more_most" if least == self.players[-1] else "ref.card.more", n=n, players=least)
                    for least, n in sorted(by_least.items()) if least]
            count = str(by_least.get(0, 0)) + (f" ({self.cx.join(more)})" if more else "")
            out.append(self.t("ref.card.age_deck", age=pile.age, count=count))
        return out

    def card_decks(self, cid: str) -> list[str]:
        """The zone decks that hold a card ("In the Camp deck of Age 1", "In the mythology deck")."""
        out: list[str] = []
        for zid, age, entries in self.zone_decks():
            if any(e.card == cid for e in entries):
                name = self.zone_ref(zid)["name"]
                _add(out, self.t("ref.card.pile", zone=name) if self.is_pile(zid) else
                     self.t("ref.card.deck", zone=name, age=age))
        return out

    def placed_by(self, cid: str) -> list[Link]:
        """The cards whose effects bring a card of no deck into play (Olwyn's doubles, Gullinbursti)."""
        if cid in self.in_any_deck():
            return []
        return [self.link(other) for other, effects in self.c.effects.items() if other != cid and any(
            isinstance(n, ir.Act) and (placed := n.placed()) is not None and placed[0].card == cid
            for _, e in effects for n in ir.walk(e))]

    def kind_notes(self, kind: str) -> list[str]:
        """What the kinds data says of a kind's cards: where they go (command zone, discard pile), when
        a step places them, that they count as dwarf cards, where their discards go."""
        rs = self.rs
        notes: list[str] = []
        where = f"ref.kind.enters.{rs.kinds[kind].split(' ')[0]}"
        if self.cat.has(where):  # a card entering its own column needs no note
            notes.append(self.t(where))
        for step in rs.age_end:
            if step.do == "place-held" and step.kind == kind:
                ages = self.cx.join([str(a) for a in step.ages or ()])
                notes.append(self.t("ref.kind.placed_in", ages=ages) if ages else self.t("ref.kind.placed"))
        if kind in rs.dwarf_kinds and kind != "dwarf":  # the dwarf kind itself needs no note
            notes.append(self.t("ref.kind.dwarf_card"))
        if kind in rs.discards_to:
            notes.append(self.t("ref.kind.discards_to", zone=self.zone_ref(rs.discards_to[kind])["name"]))
        return notes

    def breakdown(self) -> list[BreakdownPart]:
        """The score breakdown's parts that kinds add (`artifacts`), with the kinds that score there."""
        parts: dict[str, list[str]] = {}
        for kind, part in self.rs.score_parts.items():
            parts.setdefault(part, []).append(self.kind_name(kind))
        return [{"part": part, "kinds": self.cx.join(kinds)} for part, kinds in parts.items()]

    def requirements(self) -> list[Requirements]:
        return [{**self.link(cid), "text": [effect_text(e, self.cx) for _, e in effects
                                            if isinstance(e, ir.Requirement)]}
                for cid, effects in self.c.effects.items() if any(isinstance(e, ir.Requirement) for _, e in effects)]

    def heroes_by_class(self) -> list[HeroGroup]:
        heroes = self.cards_of("hero")
        out: list[HeroGroup] = []
        for cls in ["neutral"] + self.class_ids:
            cards = [self.link(cid) for cid in heroes if self.cards[cid].cls == cls]
            if cards:
                out.append({"class": cls, "label": self.cx.cls(cls), "cards": cards})
        return out
